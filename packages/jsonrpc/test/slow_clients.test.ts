// Clients that open connections and never finish a request: each is closed once the request timeout
// passes, and connections above the cap are closed as they come, so such clients cannot take every
// file descriptor the process has (the database's included).
import { connect, type Socket } from 'node:net';
import { REQUEST_TIMEOUT_MS, SHUTDOWN_TIMEOUT_MS, startRpcServer } from '@nearlite/jsonrpc';
import t from 'tap';
import { fakeBackend } from './fixtures/fake_backend.js';

const STATUS = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'status', params: [] });
const HEAD = 'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n';

/** A raw connection that sends `request`; `closed` resolves with all it got back once it is closed. */
function rawConnection(url: string, request: string) {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect(Number(port), hostname);
  const started = Date.now();
  let text = '';
  socket.on('data', (d) => {
    text += d.toString();
  });
  socket.on('error', () => {});
  socket.write(request);
  const closed = new Promise<{ text: string; ms: number }>((resolve) =>
    socket.on('close', () => resolve({ text, ms: Date.now() - started })),
  );
  return { socket, closed, received: () => text };
}

/** A connection that sends the start of a request and nothing more. */
const partialRequest = (url: string) => rawConnection(url, `${HEAD}Content-Length: 1000\r\n\r\n{`);

/** A connection that sends one whole request and stays open (kept alive) once answered. */
async function answeredAndIdle(url: string) {
  const c = rawConnection(url, `${HEAD}Content-Length: ${STATUS.length}\r\n\r\n${STATUS}`);
  while (!c.received().includes('"jsonrpc"')) await new Promise((r) => setTimeout(r, 5));
  if (!c.received().startsWith('HTTP/1.1 200')) throw new Error(c.received());
  return c;
}

/** The HTTP status a `status` request gets on a connection of its own. */
async function statusCode(url: string): Promise<number> {
  return (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: STATUS }))
    .status;
}

t.test(
  'a request not received whole within the timeout is answered 408 and its connection closed',
  async (t) => {
    t.equal(REQUEST_TIMEOUT_MS, 300_000, "Node's own default, which fastify turns off");
    const server = await startRpcServer({
      backend: fakeBackend(),
      host: '127.0.0.1',
      port: 0,
      requestTimeoutMs: 500,
      timeoutCheckEveryMs: 100,
    });
    t.teardown(() => server.close());
    const slow = partialRequest(server.url);
    t.teardown(() => slow.socket.destroy());
    const { text, ms } = await slow.closed;
    t.match(text, /^HTTP\/1\.1 408/, 'answered 408 Request Timeout');
    t.ok(ms >= 400 && ms < 10_000, `closed after the timeout (${ms} ms)`);
    t.equal(await statusCode(server.url), 200, 'a whole request is answered as ever');
  },
);

t.test('connections above the cap are closed as they come; the ones held go on', async (t) => {
  const server = await startRpcServer({
    backend: fakeBackend(),
    host: '127.0.0.1',
    port: 0,
    maxConnections: 5,
  });
  t.teardown(() => server.close());
  const held = Array.from({ length: 12 }, () => partialRequest(server.url));
  t.teardown(() => {
    for (const c of held) c.socket.destroy();
  });
  const settled = await Promise.all(
    held.map((c) =>
      Promise.race([c.closed.then(() => 'closed'), new Promise((r) => setTimeout(() => r('open'), 1500))]),
    ),
  );
  t.equal(settled.filter((s) => s === 'open').length, 5, 'five held');
  t.equal(settled.filter((s) => s === 'closed').length, 7, 'the rest closed');
  for (const c of held) c.socket.destroy();
  await Promise.all(held.map((c) => c.closed));
  // The server notices the closes on its next turn.
  await new Promise((r) => setTimeout(r, 100));
  t.equal(await statusCode(server.url), 200, 'a connection is taken again once they are gone');
});

t.test('at the cap, a refused connection makes room: the idle kept-alive ones are closed', async (t) => {
  const server = await startRpcServer({
    backend: fakeBackend(),
    host: '127.0.0.1',
    port: 0,
    maxConnections: 3,
  });
  t.teardown(() => server.close());
  const idle = await Promise.all([1, 2, 3].map(() => answeredAndIdle(server.url)));
  t.teardown(() => {
    for (const c of idle) c.socket.destroy();
  });
  const refused = partialRequest(server.url);
  await refused.closed;
  const idleNow = await Promise.race([
    Promise.all(idle.map((c) => c.closed)).then(() => 'closed'),
    new Promise((r) => setTimeout(() => r('still open'), 5_000).unref()),
  ]);
  t.equal(idleNow, 'closed', 'the idle connections were closed');
  t.equal(await statusCode(server.url), 200, 'the next connection is taken');
});

t.test('a close waits for requests in flight only up to the shutdown timeout', async (t) => {
  t.equal(SHUTDOWN_TIMEOUT_MS, 5_000, "nearcore's RPC: actix's shutdown_timeout(5)");
  const server = await startRpcServer({ backend: fakeBackend(), host: '127.0.0.1', port: 0 });
  const slow = partialRequest(server.url);
  t.teardown(() => slow.socket.destroy());
  await new Promise((r) => setTimeout(r, 100));
  const started = Date.now();
  await Promise.race([server.close(), new Promise((r) => setTimeout(r, 30_000).unref())]);
  const took = Date.now() - started;
  await slow.closed;
  t.ok(
    took >= 4_000 && took < 20_000,
    `closed after ${took} ms, not the ${REQUEST_TIMEOUT_MS / 1000} s request timeout`,
  );
});
