// dispatch() and the server against an in-memory backend: envelopes, params forms, error shapes.
import * as T from '@near-js/jsonrpc-types';
import { dispatch, dispatchPath, type RpcBackend, startRpcServer } from '@nearlite/jsonrpc';
import { HandlerError } from '@nearlite/primitives';
import { JsonRpcProvider } from 'near-api-js';
import t from 'tap';

const calls: unknown[][] = [];
const HASH = '11111111111111111111111111111111';

const backend: RpcBackend = {
  headHeight: () => 100,
  block: (ref) => {
    calls.push(['block', ref]);
    if ('blockId' in ref && ref.blockId === 5)
      throw new HandlerError('UNKNOWN_BLOCK', {}, 'DB Not Found Error: BLOCK HEIGHT: 5 \n Cause: Unknown');
    return { header: { height: 1, timestamp: 1714000000123456789n } };
  },
  chunk: (id) => ({ chunk: id }),
  query: (ref, req) => {
    calls.push(['query', ref, req]);
    if (req.requestType === 'view_access_key') {
      throw new HandlerError(
        'UNKNOWN_ACCESS_KEY',
        { public_key: req.publicKey, block_height: 1, block_hash: HASH },
        `access key ${req.publicKey} does not exist while viewing`,
      );
    }
    if (req.requestType === 'call_function') {
      throw new HandlerError(
        'CONTRACT_EXECUTION_ERROR',
        { vm_error: 'MethodResolveError(MethodNotFound)', block_height: 1, block_hash: HASH },
        'x',
      );
    }
    if (req.requestType === 'view_account' && req.accountId === 'nobody.near') {
      throw new HandlerError(
        'UNKNOWN_ACCOUNT',
        { requested_account_id: 'nobody.near', block_height: 1, block_hash: HASH },
        'account nobody.near does not exist while viewing',
      );
    }
    return {
      amount: '1',
      locked: '0',
      code_hash: HASH,
      storage_usage: 1,
      storage_paid_at: 0,
      block_height: 1,
      block_hash: HASH,
    };
  },
  changes: () => ({ block_hash: HASH, changes: [] }),
  changesInBlock: () => ({ block_hash: HASH, changes: [] }),
  status: () => ({ chain_id: 'x' }),
  health: () => undefined,
  networkInfo: () => ({ active_peers: [] }),
  validators: (ref) => ({ ref }),
  gasPrice: (id) => ({ gas_price: String(id ?? 'latest') }),
  genesisConfig: () => ({ chain_id: 'x' }),
  protocolConfig: () => ({}),
  sendTx: async () => {
    throw new HandlerError(
      'INVALID_TRANSACTION',
      {},
      { TxExecutionError: { InvalidTxError: { InvalidNonce: { tx_nonce: 1, ak_nonce: 2 } } } },
    );
  },
  broadcastTxAsync: () => 'hash',
  txStatus: async () => {
    throw new HandlerError('TIMEOUT_ERROR', undefined, 'Timeout');
  },
  receipt: () => ({}),
  lightClientProof: () => ({}),
  nextLightClientBlock: () => null,
  sandboxPatchState: async () => ({}),
  sandboxFastForward: async () => {
    throw new Error('disk on fire');
  },
};

const req = (method: string, params?: unknown, id: unknown = 'dontcare') => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
});
const run = async (body: unknown) => {
  const r = await dispatch(body, backend);
  return { status: r.status, json: JSON.parse(r.body) };
};

t.test('envelopes', async (t) => {
  const ok = await dispatch(req('status', [], 7), backend);
  t.equal(ok.body, '{"jsonrpc":"2.0","result":{"chain_id":"x"},"id":7}', 'key order and id echoed');
  for (const bad of [
    [req('status')],
    { ...req('status'), extra: 1 },
    { jsonrpc: '1.0', id: 1, method: 'status' },
    { jsonrpc: '2.0', method: 'status' },
    'x',
    null,
  ]) {
    const r = await run(bad);
    t.equal(r.status, 400);
    t.equal(r.json.id, null);
    t.same(r.json.error.cause, {
      name: 'PARSE_ERROR',
      info: { error_message: 'JSON RPC Request format was expected' },
    });
    t.equal(r.json.error.code, -32700);
  }
  const nf = await run(req('nope'));
  t.same(nf.json.error, {
    name: 'REQUEST_VALIDATION_ERROR',
    cause: { name: 'METHOD_NOT_FOUND', info: { method_name: 'nope' } },
    code: -32601,
    message: 'Method not found',
    data: 'nope',
  });
  t.equal((await run(req('toString'))).json.error.cause.name, 'METHOD_NOT_FOUND', 'no prototype lookups');
  const big = await dispatch(req('block', { finality: 'final' }), backend);
  t.match(big.body, /"timestamp":1714000000123456789/);
});

t.test('block references and params errors', async (t) => {
  calls.length = 0;
  await run(req('block', { finality: 'near-final' }));
  await run(req('block', { block_id: 7 }));
  await run(req('block', [9]));
  await run(req('block', { sync_checkpoint: 'genesis' }));
  t.same(
    calls.map((c) => c[1]),
    [{ finality: 'near-final' }, { blockId: 7 }, { blockId: 9 }, { syncCheckpoint: 'genesis' }],
  );
  const both = await run(req('block', { finality: 'final', block_id: 1 }));
  t.equal(both.json.error.cause.name, 'PARSE_ERROR');
  const badFinality = await run(req('block', { finality: 'soon' }));
  t.match(badFinality.json.error.data, /^Failed parsing args: unknown variant/);
  const account = await run(
    req('query', { request_type: 'view_account', account_id: 'Alice.near', finality: 'final' }),
  );
  t.equal(
    account.json.error.data,
    `Failed parsing args: invalid value: "Alice.near", the Account ID contains an invalid character 'A' at index 0`,
  );
  const unknownField = await run(
    req('query', { request_type: 'view_account', account_id: 'a.near', finality: 'final', zzz: 1 }),
  );
  t.match(unknownField.json.error.data, /unknown field `zzz`/);
});

t.test('handler errors: shapes and HTTP codes', async (t) => {
  const below = await run(req('block', { block_id: 5 }));
  t.equal(below.status, 422, 'numeric block_id below head');
  t.same(below.json.error.cause, { name: 'UNKNOWN_BLOCK', info: {} });
  const account = await run(
    req('query', { request_type: 'view_account', account_id: 'nobody.near', finality: 'final' }),
  );
  t.equal(account.status, 200);
  t.same(Object.keys(account.json.error), ['name', 'cause', 'code', 'message', 'data']);
  const timeout = await run(req('tx', { tx_hash: HASH, sender_account_id: 'a.near' }));
  t.equal(timeout.status, 408);
  t.same(timeout.json.error.cause, { name: 'TIMEOUT_ERROR' }, 'unit variants have no info');
  const internal = await run(req('sandbox_fast_forward', { delta_height: 1 }));
  t.equal(internal.status, 500);
  t.same(internal.json.error.cause, { name: 'INTERNAL_ERROR', info: { error_message: 'disk on fire' } });
  const tx = await run(req('send_tx', { signed_tx_base64: 'AAAA' }));
  t.same(tx.json.error.data, {
    TxExecutionError: { InvalidTxError: { InvalidNonce: { tx_nonce: 1, ak_nonce: 2 } } },
  });
  const two = await run(req('broadcast_tx_commit', ['AAAA', 'AAAA']));
  t.equal(two.json.error.data, 'Failed parsing args: Unable to parse send request: too many params passed');
  for (const r of [account, timeout, internal, tx])
    t.ok(T.RpcErrorSchema().safeParse(r.json.error).success, 'RpcErrorSchema');
});

t.test('query legacy forms', async (t) => {
  const key = await run(
    req('query', {
      request_type: 'view_access_key',
      account_id: 'a.near',
      public_key: 'ed25519:9C6hybhQ6Aycep9jaUnP6uL9ZYvDjUp1aSkFWPUFJtpj',
      finality: 'final',
    }),
  );
  t.same(key.json.result, {
    error: 'access key ed25519:9C6hybhQ6Aycep9jaUnP6uL9ZYvDjUp1aSkFWPUFJtpj does not exist while viewing',
    logs: [],
    block_height: 1,
    block_hash: HASH,
  });
  const call = await run(
    req('query', {
      request_type: 'call_function',
      account_id: 'a.near',
      method_name: 'm',
      args_base64: '',
      finality: 'final',
    }),
  );
  t.equal(call.json.result.error, 'wasm execution failed with error: MethodResolveError(MethodNotFound)');
  calls.length = 0;
  await run(req('query', ['account/a.near', '']));
  await run(req('query', ['contract/a.near', '3yZe7d']));
  t.same(calls[0]!.slice(1), [
    { finality: 'optimistic' },
    { requestType: 'view_account', accountId: 'a.near' },
  ]);
  t.same((calls[1]![2] as { prefix: Uint8Array }).prefix, new Uint8Array(Buffer.from('test')));
  t.match((await run(req('query', ['nope/a.near', '']))).json.error.data, /Unknown path nope/);
});

t.test('path form', async (t) => {
  const bare = JSON.parse((await dispatchPath('status', {}, backend)).body);
  t.same(bare, { jsonrpc: '2.0', result: { chain_id: 'x' }, id: null });
  const full = JSON.parse((await dispatchPath('status', req('status', [], 'a'), backend)).body);
  t.equal(full.id, 'a');
  const mismatch = JSON.parse((await dispatchPath('block', req('status', [], 'a'), backend)).body);
  t.equal(mismatch.error.cause.name, 'PARSE_ERROR');
});

t.test('near-api-js parses the error responses of a real server', async (t) => {
  const server = await startRpcServer({ backend, host: '127.0.0.1', port: 0 });
  t.teardown(() => server.close());
  const provider = new JsonRpcProvider({ url: server.url });
  await t.rejects(provider.viewAccount({ accountId: 'nobody.near' }), /nobody\.near/);
  const res = await fetch(`${server.url}/health`);
  t.equal(res.status, 200);
  t.equal(await res.text(), 'null');
  t.equal((await fetch(server.url)).status, 405);
  const pre = await fetch(server.url, { method: 'OPTIONS' });
  t.equal(pre.status, 204);
  t.equal(pre.headers.get('access-control-allow-origin'), '*');
});
