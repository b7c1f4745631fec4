// A follower's forwarded calls: the upstream's result as its bytes, its error as its own, and any
// other answer — no JSON, JSON that is not a JSON-RPC answer, or none in time — an INTERNAL_ERROR
// that says so, never a success.
import { createServer, type Server } from 'node:http';
import { UpstreamRpc } from '@nearlite/follower';
import t from 'tap';

/** A server on 127.0.0.1 that answers every request with `body` (or never, for null). */
async function upstream(t: Tap.Test, body: string | null): Promise<string> {
  const server: Server = createServer((req, res) => {
    req.resume();
    if (body === null) return;
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  const addr = server.address();
  return `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
}

t.test('a result comes back as its bytes, an error as the upstream wrote it', async (t) => {
  const ok = new UpstreamRpc(await upstream(t, '{"jsonrpc":"2.0","result":{"a": [1, 2]},"id":"x"}'));
  t.equal((await ok.call('send_tx', {})).json, '{"a": [1, 2]}');
  const nul = new UpstreamRpc(await upstream(t, '{"jsonrpc":"2.0","result":null,"id":"x"}'));
  t.equal((await nul.call('send_tx', {})).json, 'null', 'a null result is a result');
  const err = new UpstreamRpc(
    await upstream(
      t,
      '{"jsonrpc":"2.0","error":{"name":"HANDLER_ERROR","code":-32000,"message":"m"},"id":"x"}',
    ),
  );
  await t.rejects(err.call('send_tx', {}), { name: 'RpcError', body: { name: 'HANDLER_ERROR' } });
});

t.test('an answer that is not a JSON-RPC answer is an INTERNAL_ERROR', async (t) => {
  for (const body of ['{"jsonrpc":"2.0","id":1}', '[]', '"x"', 'null', '7', '{"error":"x"}', 'not json']) {
    const rpc = new UpstreamRpc(await upstream(t, body));
    await t.rejects(
      rpc.call('send_tx', {}),
      { name: 'HandlerError', cause: 'INTERNAL_ERROR', message: /the upstream RPC answered HTTP 200/ },
      body,
    );
  }
});

t.test('an upstream that does not answer in time is an INTERNAL_ERROR', async (t) => {
  const rpc = new UpstreamRpc(await upstream(t, null), 200);
  await t.rejects(rpc.call('send_tx', {}), {
    name: 'HandlerError',
    cause: 'INTERNAL_ERROR',
    message: /did not answer within 200 ms/,
  });
});

t.test('every call is observed with how it ended', async (t) => {
  const seen: [string, string][] = [];
  const observe = (method: string, outcome: string, seconds: number) => {
    t.ok(seconds >= 0 && seconds < 60);
    seen.push([method, outcome]);
  };
  const ok = new UpstreamRpc(await upstream(t, '{"jsonrpc":"2.0","result":1,"id":"x"}'), undefined, observe);
  await ok.call('query', {});
  const err = new UpstreamRpc(
    await upstream(
      t,
      '{"jsonrpc":"2.0","error":{"name":"HANDLER_ERROR","code":-32000,"message":"m"},"id":"x"}',
    ),
    undefined,
    observe,
  );
  await t.rejects(err.call('tx', {}));
  const bad = new UpstreamRpc(await upstream(t, 'not json'), undefined, observe);
  await t.rejects(bad.call('block', {}));
  const silent = new UpstreamRpc(await upstream(t, null), 100, observe);
  await t.rejects(silent.call('status', {}));
  t.same(seen, [
    ['query', 'result'],
    ['tx', 'error'],
    ['block', 'failed'],
    ['status', 'failed'],
  ]);
});
