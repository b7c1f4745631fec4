// The EXPERIMENTAL_ view methods' params and errors, and numbers in params read as serde_json reads
// them.
import { base58Decode } from '@nearlite/primitives';
import t from 'tap';
import { BLOCK_HASH as HASH, PUBLIC_KEY as PK } from './fixtures/fake_backend.js';
import { harness, parseFailsOn, reachesOn } from './fixtures/http.js';

const h = await harness(t);
const hash = base58Decode(HASH);
const reaches = reachesOn(h);
const parseFails = parseFailsOn(h);

t.test('EXPERIMENTAL_ view methods: query kinds without request_type, object params only', async (t) => {
  t.same(await reaches('EXPERIMENTAL_view_account', { account_id: 'a.near', finality: 'final' }), [
    'query',
    { finality: 'final' },
    { requestType: 'view_account', accountId: 'a.near' },
  ]);
  t.same(
    await reaches('EXPERIMENTAL_call_function', {
      block_id: 9,
      account_id: 'a.near',
      method_name: 'm',
      args_base64: 'AQI=',
    }),
    [
      'query',
      { blockId: 9 },
      { requestType: 'call_function', accountId: 'a.near', methodName: 'm', args: new Uint8Array([1, 2]) },
    ],
  );
  // A flattened reference without a check of its own: the first of its keys wins.
  t.same(
    await reaches('EXPERIMENTAL_view_code', { finality: 'optimistic', block_id: 3, account_id: 'a.near' }),
    ['query', { finality: 'optimistic' }, { requestType: 'view_code', accountId: 'a.near' }],
  );
  await parseFails(
    t,
    'EXPERIMENTAL_view_account',
    { finality: 'final' },
    'Failed parsing args: missing field `account_id`',
  );
  await parseFails(
    t,
    'EXPERIMENTAL_view_account',
    { account_id: 'a.near' },
    'Failed parsing args: no variant of enum BlockReference found in flattened data',
  );
  await parseFails(
    t,
    'EXPERIMENTAL_view_state',
    ['a.near'],
    'Failed parsing args: invalid type: sequence, expected struct RpcViewStateRequest',
  );
});

t.test('EXPERIMENTAL_ view methods answer query errors as errors of their own', async (t) => {
  const key = await h.rpc('EXPERIMENTAL_view_access_key', {
    account_id: 'a.near',
    public_key: PK,
    finality: 'final',
  });
  t.equal(key.json.error.cause.name, 'UNKNOWN_ACCESS_KEY');
  t.equal(key.json.error.data, `Access key for public key ${PK} does not exist while viewing`);
  const call = await h.rpc('EXPERIMENTAL_call_function', {
    account_id: 'a.near',
    method_name: 'missing',
    args_base64: '',
    finality: 'final',
  });
  t.same(call.json.error.cause.info.vm_error, { MethodResolveError: 'MethodNotFound' });
  t.equal(call.json.error.data, 'Function call returned an error: MethodResolveError(MethodNotFound)');
  const legacy = await h.rpc('query', {
    request_type: 'call_function',
    account_id: 'a.near',
    method_name: 'missing',
    args_base64: '',
    finality: 'final',
  });
  t.equal(legacy.json.result.error, 'wasm execution failed with error: MethodResolveError(MethodNotFound)');
  const block = await h.rpc('EXPERIMENTAL_view_account', { account_id: 'a.near', block_id: 7 });
  t.equal(block.status, 422);
  t.equal(
    block.json.error.data,
    'Block either has never been observed on the node or has been garbage collected: BlockId(Height(7))',
  );
});

t.test('numbers in params are read as serde_json reads them', async (t) => {
  const send = (method: string, params: string) =>
    h.post('/', `{"jsonrpc":"2.0","id":1,"method":"${method}","params":${params}}`);
  const reachesRaw = async (method: string, params: string) => {
    const r = await send(method, params);
    t.equal(r.status, 200, `${method} ${params}`);
    return h.backend.last();
  };
  const failsRaw = async (method: string, params: string, data: string) => {
    const r = await send(method, params);
    t.equal(r.status, 400, `${method} ${params} is HTTP 400`);
    t.equal(r.json.error?.data, data, `${method} ${params}`);
  };
  // A height above 2^53 is a u64 to serde: it reaches the node exactly (no block is there).
  t.same(await reachesRaw('block', '{"block_id":9007199254740993}'), [
    'block',
    { blockId: 9007199254740993n },
  ]);
  t.same(await reachesRaw('block', '[18446744073709551615]'), ['block', { blockId: 18446744073709551615n }]);
  t.same(await reachesRaw('chunk', `{"block_id":"${HASH}","shard_id":9007199254740993}`), [
    'chunk',
    { blockId: hash, shardId: 9007199254740993n },
  ]);
  // A float is no u64, though a double holds it as an integer; nor is an integer beyond u64.
  const noBlockId = 'Failed parsing args: data did not match any variant of untagged enum BlockId';
  for (const id of ['5.0', '5e0', '-0', '18446744073709551616', '-9007199254740993']) {
    await failsRaw('block', `{"block_id":${id}}`, noBlockId);
  }
  await failsRaw(
    'chunk',
    `[["${HASH}", 0.0]]`,
    'Failed parsing args: invalid type: floating point `0.0`, expected u64',
  );
  await failsRaw(
    'chunk',
    `[["${HASH}", -9007199254740993]]`,
    'Failed parsing args: invalid value: integer `-9007199254740993`, expected u64',
  );
  await failsRaw(
    'chunk',
    `{"block_id":"${HASH}","shard_id":1e0}`,
    'Failed parsing args: data did not match any variant of untagged enum ChunkReference',
  );
  await failsRaw(
    'query',
    '{"request_type":"view_account","finality":"final","account_id":1e10}',
    'Failed parsing args: invalid type: floating point `10000000000.0`, expected a string',
  );
  await failsRaw(
    'query',
    '{"request_type":"view_account","finality":"final","account_id":9007199254740993}',
    'Failed parsing args: invalid type: integer `9007199254740993`, expected a string',
  );
  await failsRaw(
    'block',
    '1e-7',
    'Failed parsing args: invalid type: floating point `0.0000001`, expected string or map',
  );
});
