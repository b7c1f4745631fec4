// The node as a new user meets it: init a home, run the real CLI, read it with near-api-js 7 and
// check every read method's result against @near-js/jsonrpc-types.
import * as T from '@near-js/jsonrpc-types';
import { JsonRpcProvider } from 'near-api-js';
import t from 'tap';
import { camel, initHome, type RunningNode, readKeyFile, startNode, waitForHeight } from './helpers/node.js';
import { tempDir } from './helpers/tmp.js';

type Issue = { path: (string | number)[] };
type Schema = { safeParse(v: unknown): { success: boolean; error?: { issues: Issue[] } } };

/**
 * Where the client library's schemas (generated from an older nearcore) still require a field that
 * nearcore at the protocol nearlite reports no longer sends. nearcore's parameter snapshot 86
 * (packages/runtime/test/fixtures) has no `saturating_float_to_int` in `wasm_config`.
 */
const OLDER_THAN_PROTOCOL = new Set(['runtimeConfig.wasmConfig.saturatingFloatToInt']);

function valid(
  t: { ok(v: unknown, msg: string, extra: object): void },
  schema: Schema,
  value: unknown,
  what: string,
): void {
  const r = schema.safeParse(camel(value));
  const issues = (r.error?.issues ?? []).filter((i) => !OLDER_THAN_PROTOCOL.has(i.path.join('.')));
  t.ok(
    issues.length === 0,
    `${what} matches its schema`,
    issues.length === 0 ? {} : { issues: JSON.stringify(issues).slice(0, 2000) },
  );
}

t.test('a fresh node serves the read API to near-api-js and matches the schemas', async (t) => {
  const home = tempDir(t);
  initHome(home, ['--shards', '2', '--epoch-length', '10']);
  const key = readKeyFile(home);
  const node: RunningNode = await startNode(home, ['--block-time', '100']);
  t.teardown(() => node.stop());
  await waitForHeight(node, 4);

  const provider = new JsonRpcProvider({ url: node.url });
  const block = await provider.viewBlock({ finality: 'final' });
  t.equal(block.author, 'test.near');
  t.equal(block.chunks.length, 2, 'one chunk per shard');
  const head = await provider.viewBlock({ finality: 'optimistic' });
  t.ok(head.header.height >= block.header.height + 2, 'final is two blocks behind the head');
  const byHeight = await provider.viewBlock({ blockId: block.header.height });
  t.equal(byHeight.header.hash, block.header.hash);
  const byHash = await provider.viewBlock({ blockId: block.header.hash });
  t.equal(byHash.header.height, block.header.height);

  // At a block of the first epoch: the reward its end pays adds to the validator's locked balance, and
  // on a slow machine `final` may already be past it.
  const account = await provider.viewAccount({ accountId: 'test.near', blockQuery: { blockId: 2 } });
  t.equal(account.amount, 10n ** 33n);
  t.equal(account.locked, 5n * 10n ** 31n);
  t.equal(account.storage_usage, 182);
  const ak = await provider.viewAccessKey({
    accountId: 'test.near',
    publicKey: key.public_key,
    finalityQuery: { finality: 'final' },
  });
  t.equal(ak.permission, 'FullAccess');
  t.equal(ak.nonce, 0n);
  const gas = await provider.viewGasPrice();
  t.equal(gas.gas_price, '100000000');
  const status = await provider.viewNodeStatus();
  t.equal(status.chain_id, 'test-chain');
  t.equal(await provider.getNetworkId(), 'test-chain');
  const pc = await provider.experimental_protocolConfig({ finality: 'final' });
  t.equal(
    (pc.runtime_config as { storage_amount_per_byte: string }).storage_amount_per_byte,
    '10000000000000000000',
  );
  const validators = await provider.viewValidators();
  t.equal(validators.current_validators[0]?.account_id, 'test.near');

  const checks: [string, unknown, Schema][] = [
    ['block', { finality: 'final' }, T.RpcBlockResponseSchema()],
    ['chunk', { block_id: block.header.height, shard_id: 1 }, T.RpcChunkResponseSchema()],
    ['chunk', [block.chunks[0]!.chunk_hash], T.RpcChunkResponseSchema()],
    [
      'query',
      { request_type: 'view_account', account_id: 'test.near', finality: 'final' },
      T.RpcQueryResponseSchema(),
    ],
    [
      'query',
      {
        request_type: 'view_access_key',
        account_id: 'test.near',
        public_key: key.public_key,
        finality: 'final',
      },
      T.RpcQueryResponseSchema(),
    ],
    [
      'query',
      { request_type: 'view_access_key_list', account_id: 'test.near', finality: 'final' },
      T.RpcQueryResponseSchema(),
    ],
    [
      'query',
      { request_type: 'view_state', account_id: 'test.near', prefix_base64: '', finality: 'final' },
      T.RpcQueryResponseSchema(),
    ],
    ['status', [], T.RpcStatusResponseSchema()],
    ['network_info', [], T.RpcNetworkInfoResponseSchema()],
    ['validators', [null], T.RpcValidatorResponseSchema()],
    ['gas_price', [null], T.RpcGasPriceResponseSchema()],
    ['genesis_config', undefined, T.GenesisConfigSchema()],
    ['EXPERIMENTAL_genesis_config', undefined, T.GenesisConfigSchema()],
    ['EXPERIMENTAL_protocol_config', { finality: 'final' }, T.RpcProtocolConfigResponseSchema()],
  ];
  for (const [method, params, schema] of checks) {
    const { status: code, body } = await node.rpc(method, params);
    t.equal(code, 200, `${method} answers 200`);
    t.notOk(body.error, `${method} has no error`, { error: body.error });
    valid(t, schema, body.result, `${method} ${JSON.stringify(params)}`);
  }
  const health = await node.rpc('health', null);
  t.equal(health.body.result, null);

  const raw = await (
    await fetch(node.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'block',
        params: { block_id: block.header.height },
      }),
    })
  ).text();
  t.match(raw, /"timestamp":\d{19},/, 'timestamp is an exact integer beyond 2^53');
  const ts = /"timestamp_nanosec":"(\d+)"/.exec(raw)![1];
  t.ok(raw.includes(`"timestamp":${ts},`), 'timestamp equals timestamp_nanosec digit for digit');
});

const base58Zero = '11111111111111111111111111111111';

t.test('path form, GET routes and errors in nearcore shape', async (t) => {
  const home = tempDir(t);
  initHome(home);
  const node = await startNode(home, ['--block-time', '100']);
  t.teardown(() => node.stop());
  await waitForHeight(node, 2);

  const post = (path: string, body: unknown) =>
    fetch(`${node.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  let res = await post('/status', {});
  t.equal(res.status, 200);
  let body = (await res.json()) as { result: { chain_id: string }; id: unknown };
  t.equal(body.result.chain_id, 'test-chain');
  t.equal(body.id, null);
  res = await post('/block', { jsonrpc: '2.0', id: 'x', method: 'block', params: { finality: 'final' } });
  body = (await res.json()) as never;
  t.equal(body.id, 'x');
  res = await fetch(`${node.url}/status`);
  t.equal(res.status, 200);
  t.equal(((await res.json()) as { chain_id: string }).chain_id, 'test-chain');
  t.equal((await fetch(`${node.url}/health`)).status, 200);

  const unknownAccount = await node.rpc('query', {
    request_type: 'view_account',
    account_id: 'nobody.near',
    finality: 'final',
  });
  t.equal(unknownAccount.body.error?.cause.name, 'UNKNOWN_ACCOUNT');
  t.equal(unknownAccount.body.error?.data, 'account nobody.near does not exist while viewing');
  const badAccount = await node.rpc('query', {
    request_type: 'view_account',
    account_id: 'Bad.near',
    finality: 'final',
  });
  t.equal(badAccount.status, 400);
  t.equal(badAccount.body.error?.cause.name, 'PARSE_ERROR');
  const belowHead = await node.rpc('block', { block_id: base58Zero });
  t.equal(belowHead.body.error?.cause.name, 'UNKNOWN_BLOCK', 'an unknown hash');
  const future = await node.rpc('block', { block_id: 10_000_000 });
  t.equal(future.status, 200);
  t.equal(future.body.error?.cause.name, 'UNKNOWN_BLOCK');
  const badChunk = await node.rpc('chunk', { block_id: 1, shard_id: 7 });
  t.equal(badChunk.body.error?.cause.name, 'INVALID_SHARD_ID');
  const noKey = await node.rpc<{ error: string }>('query', {
    request_type: 'view_access_key',
    account_id: 'test.near',
    public_key: 'ed25519:9C6hybhQ6Aycep9jaUnP6uL9ZYvDjUp1aSkFWPUFJtpj',
    finality: 'final',
  });
  t.match(noKey.body.result?.error, /^access key ed25519:9C6h.* does not exist while viewing$/);
  const noCode = await node.rpc('query', {
    request_type: 'view_code',
    account_id: 'test.near',
    finality: 'final',
  });
  t.equal(noCode.body.error?.cause.name, 'NO_CONTRACT_CODE');
  const method = await node.rpc('nope', {});
  t.equal(method.status, 400);
  t.equal(method.body.error?.cause.name, 'METHOD_NOT_FOUND');
  const malformed = await fetch(node.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"jsonrpc":',
  });
  t.equal(malformed.status, 400);
  const deep = `{"jsonrpc":"2.0","id":1,"method":"block","params":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
  const nested = await fetch(node.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: deep,
  });
  t.equal(nested.status, 400, 'deeply nested params are a parse error');
  // The server answers 413 as soon as the limit is crossed; the client may still be writing and see
  // the connection close first, so either is a refusal.
  const huge = await fetch(node.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: 'x'.repeat(11 * 1024 * 1024),
  }).then(
    (r) => r.status,
    () => 'closed',
  );
  t.ok(huge === 413 || huge === 'closed', `bodies over 10 MiB are refused (${huge})`);
  const wrongType = await fetch(node.url, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: '{}',
  });
  t.equal(wrongType.status, 415);
  const batch = await post('/', [{ jsonrpc: '2.0', id: 1, method: 'status', params: [] }]);
  t.equal(batch.status, 400, 'batches are not supported');
  const extraKey = await post('/', { jsonrpc: '2.0', id: 1, method: 'status', params: [], extra: 1 });
  t.equal(
    ((await extraKey.json()) as { error: { cause: { name: string } } }).error.cause.name,
    'PARSE_ERROR',
  );
  const after = await node.rpc('status', []);
  t.equal(after.status, 200, 'the node keeps serving after bad input');
});
