// Error shapes and HTTP codes as nearcore sends them, checked against @near-js/jsonrpc-types and
// parsed by near-api-js 7's JsonRpcProvider into its typed error classes.
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import * as T from '@near-js/jsonrpc-types';
import { JsonRpcProvider } from 'near-api-js';
import * as E from 'near-api-js/rpc-errors';
import t from 'tap';
import { BLOCK_HASH, HEAD } from './fixtures/fake_backend.js';
import { camel, harness } from './fixtures/http.js';

const h = await harness(t);
const HASH32 = '11111111111111111111111111111111';

function validError(t: Tap.Test, body: { error: unknown }) {
  const r = T.RpcErrorSchema().safeParse(camel(body.error));
  t.ok(r.success, `RpcErrorSchema: ${r.success ? '' : JSON.stringify(r.error.issues)}`);
  const env = T.JsonRpcResponseFor_RpcBlockResponseAnd_RpcErrorSchema().safeParse(camel(body));
  t.ok(env.success, 'a valid JSON-RPC error envelope');
}

t.test('METHOD_NOT_FOUND', async (t) => {
  const r = await h.rpc('EXPERIMENTAL_check_tx', []);
  t.equal(r.status, 400);
  t.same(r.json.error, {
    name: 'REQUEST_VALIDATION_ERROR',
    cause: { name: 'METHOD_NOT_FOUND', info: { method_name: 'EXPERIMENTAL_check_tx' } },
    code: -32601,
    message: 'Method not found',
    data: 'EXPERIMENTAL_check_tx',
  });
  validError(t, r.json);
  t.equal((await h.rpc('__proto__', [])).status, 400, 'no prototype lookups');
  t.equal((await h.rpc('toString', [])).json.error.cause.name, 'METHOD_NOT_FOUND');
});

t.test('params failures are PARSE_ERROR -32700 with serde wording', async (t) => {
  const r = await h.rpc('query', {
    request_type: 'view_account',
    finality: 'final',
    account_id: 'Alice.near',
  });
  t.equal(r.status, 400);
  const msg =
    'Failed parsing args: invalid value: "Alice.near", the Account ID contains an invalid character \'A\' at index 0';
  t.same(r.json.error, {
    name: 'REQUEST_VALIDATION_ERROR',
    cause: { name: 'PARSE_ERROR', info: { error_message: msg } },
    code: -32700,
    message: 'Parse error',
    data: msg,
  });
  validError(t, r.json);
});

t.test('HANDLER_ERROR: cause with info, HTTP 200, data kept', async (t) => {
  const r = await h.rpc('query', {
    request_type: 'view_account',
    finality: 'final',
    account_id: 'nobody.near',
  });
  t.equal(r.status, 200);
  t.same(r.json.error, {
    name: 'HANDLER_ERROR',
    cause: {
      name: 'UNKNOWN_ACCOUNT',
      info: { requested_account_id: 'nobody.near', block_height: 17795474, block_hash: BLOCK_HASH },
    },
    code: -32000,
    message: 'Server error',
    data: 'account nobody.near does not exist while viewing',
  });
  validError(t, r.json);
  const objData = await h.rpc('EXPERIMENTAL_receipt', { receipt_id: HASH32 });
  t.same(objData.json.error.data, { name: 'UNKNOWN_RECEIPT' }, 'object data passes through');
});

t.test('unit variants have no info key', async (t) => {
  const r = await h.rpc('validators', { epoch_id: HASH32 });
  t.same(r.json.error.cause, { name: 'UNKNOWN_EPOCH' });
  t.notOk('info' in r.json.error.cause);
  validError(t, r.json);
});

t.test('TIMEOUT_ERROR is HTTP 408', async (t) => {
  const r = await h.rpc('tx', { tx_hash: HASH32, sender_account_id: 'slow.near' });
  t.equal(r.status, 408);
  t.same(r.json.error.cause, { name: 'TIMEOUT_ERROR' });
  t.equal(r.json.error.data, 'Timeout');
});

t.test('UNKNOWN_BLOCK is 422 only for an object params numeric block_id below the head', async (t) => {
  const below = await h.rpc('block', { block_id: 5 });
  t.equal(below.status, 422);
  t.same(below.json.error.cause, { name: 'UNKNOWN_BLOCK', info: {} });
  validError(t, below.json);
  t.equal((await h.rpc('block', { block_id: HEAD })).status, 200, 'at the head');
  t.equal((await h.rpc('block', { block_id: HEAD + 50 })).status, 200, 'above the head');
  t.equal((await h.rpc('block', [5])).status, 200, 'array form');
  t.equal((await h.rpc('gas_price', [5])).status, 200, 'array form of gas_price');
  t.equal((await h.rpc('gas_price', { block_id: 5 })).status, 422, 'object form of gas_price');
  const q = await h.rpc('query', { request_type: 'view_account', block_id: 7, account_id: 'a.near' });
  t.equal(q.status, 422);
  t.same(q.json.error.cause.info, { block_reference: { block_id: 7 } });
  t.equal(q.json.error.data, 'DB Not Found Error: BLOCK HEIGHT: 7 \n Cause: Unknown');
});

t.test('anything else thrown is INTERNAL_ERROR, HTTP 500', async (t) => {
  const r = await h.rpc('sandbox_fast_forward', { delta_height: 13 });
  t.equal(r.status, 500);
  const info = { error_message: 'disk on fire' };
  t.same(r.json.error, {
    name: 'INTERNAL_ERROR',
    cause: { name: 'INTERNAL_ERROR', info },
    code: -32000,
    message: 'Server error',
    data: { name: 'INTERNAL_ERROR', info },
  });
  validError(t, r.json);
});

t.test('a sandbox method refuses with its error enum serialized as data, as nearcore does', async (t) => {
  const r = await h.rpc('sandbox_patch_state', { records: ['keyless'] });
  t.equal(r.status, 500);
  const info = { error_message: 'this node holds no validator key' };
  t.same(r.json.error, {
    name: 'INTERNAL_ERROR',
    cause: { name: 'INTERNAL_ERROR', info },
    code: -32000,
    message: 'Server error',
    data: { name: 'INTERNAL_ERROR', info },
  });
  validError(t, r.json);
  const bad = await h.rpc('sandbox_patch_state', { records: ['bad'] });
  t.equal(bad.json.error.cause.name, 'PARSE_ERROR', 'a bad record stays a params error');
  t.equal(bad.json.error.data, 'Failed parsing args: unknown variant `Bad`');
});

t.test('INVALID_TRANSACTION keeps its object data for old clients', async (t) => {
  const tx = Buffer.from([1, 2, 3]).toString('base64');
  const r = await h.rpc('send_tx', { signed_tx_base64: tx });
  t.equal(r.status, 200);
  t.same(r.json.error.cause, { name: 'INVALID_TRANSACTION', info: {} });
  t.same(r.json.error.data, {
    TxExecutionError: { InvalidTxError: { InvalidNonce: { tx_nonce: 5, ak_nonce: 7 } } },
  });
  validError(t, r.json);
});

t.test('near-api-js 7 parses the errors into its classes', async (t) => {
  const provider = new JsonRpcProvider({ url: h.server.url }, { retries: 1, wait: 1, backoff: 1 });
  await t.rejects(provider.viewAccount({ accountId: 'nobody.near' }), E.AccountDoesNotExistError);
  await t.rejects(provider.viewBlock({ blockId: 5 }), E.UnknownBlockError, '422 is parsed too');
  await t.rejects(provider.viewBlock({ blockId: 500 }), E.UnknownBlockError);
  await t.rejects(provider.sendJsonRpc('nope', []), E.RpcMethodNotFoundError);
  await t.rejects(provider.sendJsonRpc('block', { finality: 'soon' }), E.RpcRequestParseError);
  await t.rejects(provider.sendJsonRpc('validators', { epoch_id: HASH32 }), E.UnknownEpochError);
  await t.rejects(
    provider.sendJsonRpc('EXPERIMENTAL_receipt', { receipt_id: HASH32 }),
    E.UnknownReceiptError,
  );
  await t.rejects(
    provider.sendJsonRpc('send_tx', { signed_tx_base64: Buffer.from([1]).toString('base64') }),
    E.InvalidNonceError,
  );
  const health = await provider.sendJsonRpc('health', []);
  t.equal(health, null);
  // The legacy "error inside result" forms become typed errors too.
  await t.rejects(
    provider.viewAccessKey({ accountId: 'a.near', publicKey: `ed25519:${HASH32}` }),
    E.AccessKeyDoesNotExistError,
  );
  await t.rejects(
    provider.callFunction({ contractId: 'a.near', method: 'missing', args: {} }),
    E.ContractMethodNotFoundError,
  );
});

t.test('internal failures are reported to the operator with the method, typed errors are not', async (t) => {
  const seen: [string, string][] = [];
  const r = await harness(t, { onInternalError: (err, where) => seen.push([where, (err as Error).message]) });
  await r.rpc('sandbox_fast_forward', { delta_height: 13 });
  await r.rpc('query', { request_type: 'view_account', block_id: 7, account_id: 'a.near' });
  await r.rpc('no_such_method', []);
  t.same(seen, [['sandbox_fast_forward', 'disk on fire']], 'only the untyped failure, once');
});

t.test('what the HTTP layer refuses is a JSON-RPC envelope, never fastify’s own codes', async (t) => {
  for (const path of ['/%E0%A4%A', `/${'a'.repeat(100_000)}`]) {
    const res = await fetch(h.server.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const text = await res.text();
    t.ok(res.status >= 400 && res.status < 500, `${path.slice(0, 12)}…: ${res.status}`);
    t.notMatch(text, /FST_|fastify|node_modules|at .*\.js/, 'nothing internal leaks');
    if (res.status !== 404) {
      const body = JSON.parse(text) as { jsonrpc: string; error: { cause: { name: string } }; id: null };
      t.equal(body.jsonrpc, '2.0');
      t.equal(body.id, null);
      t.equal(body.error.cause.name, 'PARSE_ERROR');
    }
  }
  const lengthLie = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const url = new URL(h.server.url);
    const sock = connect(Number(url.port), url.hostname, () => {
      sock.end(
        'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      );
    });
    let raw = '';
    sock.on('data', (d) => {
      raw += String(d);
    });
    sock.on('end', () => {
      const [head = '', body = ''] = raw.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), text: body });
    });
    sock.on('error', reject);
  });
  t.notMatch(
    lengthLie.text,
    /FST_|fastify/,
    `a contradictory request: ${lengthLie.status}, nothing internal`,
  );
});

t.test("every method of nearcore's OpenAPI spec is served", async (t) => {
  const url = new URL('./fixtures/openapi_paths.json', import.meta.url);
  const { paths } = JSON.parse(readFileSync(url, 'utf8')) as { paths: string[] };
  t.equal(paths.length, 31);
  for (const path of paths) {
    const r = await h.rpc(path.slice(1), {});
    t.not(r.json.error?.cause?.name, 'METHOD_NOT_FOUND', path);
  }
});
