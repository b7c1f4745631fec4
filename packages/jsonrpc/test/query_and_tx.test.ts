// `query` (every request_type, the legacy [path, data] form, the legacy error-in-result answers) and
// the transaction methods (params forms, decode failures worded per form).
import * as T from '@near-js/jsonrpc-types';
import { base58Encode } from '@nearlite/primitives';
import t from 'tap';
import { bs58Decoded } from '../dist/bs58.js';
import { BLOCK_HASH as HASH, PUBLIC_KEY as PK, UNDECODABLE_TX } from './fixtures/fake_backend.js';
import { camel, harness, parseFailsOn, reachesOn } from './fixtures/http.js';

const h = await harness(t);
const bytes = (s: string) => new Uint8Array(Buffer.from(s));

const reaches = reachesOn(h);
const queryReaches = async (params: unknown) => (await reaches('query', params)).slice(1);
const fails = parseFailsOn(h);

t.test('query: every request_type in object form', async (t) => {
  const ref = { finality: 'optimistic' };
  const base = { finality: 'optimistic', account_id: 'a.near' };
  // RpcQueryRequest flattens BlockReference (nearcore jsonrpc-primitives types/query.rs): serde's
  // FlatMapDeserializer takes the first of its keys in the document, the others are ignored.
  const view = { request_type: 'view_account', account_id: 'a.near' };
  t.same(await queryReaches({ ...view, finality: 'final', block_id: 1 }), [
    { finality: 'final' },
    { requestType: 'view_account', accountId: 'a.near' },
  ]);
  t.same(await queryReaches({ block_id: 1, ...view, sync_checkpoint: 'genesis', finality: 'final' }), [
    { blockId: 1 },
    { requestType: 'view_account', accountId: 'a.near' },
  ]);
  t.same(await queryReaches({ ...base, request_type: 'view_account' }), [
    ref,
    { requestType: 'view_account', accountId: 'a.near' },
  ]);
  t.same(await queryReaches({ ...base, request_type: 'view_code' }), [
    ref,
    { requestType: 'view_code', accountId: 'a.near' },
  ]);
  t.same(await queryReaches({ ...base, request_type: 'view_access_key_list' }), [
    ref,
    { requestType: 'view_access_key_list', accountId: 'a.near' },
  ]);
  t.same(await queryReaches({ ...base, request_type: 'view_state', prefix_base64: '' }), [
    ref,
    { requestType: 'view_state', accountId: 'a.near', prefix: new Uint8Array(), includeProof: false },
  ]);
  t.same(
    await queryReaches({
      ...base,
      request_type: 'view_state',
      prefix_base64: 'U1RBVEU=',
      include_proof: true,
    }),
    [ref, { requestType: 'view_state', accountId: 'a.near', prefix: bytes('STATE'), includeProof: true }],
  );
  t.same(
    await queryReaches({ ...base, request_type: 'call_function', method_name: 'get', args_base64: 'e30=' }),
    [ref, { requestType: 'call_function', accountId: 'a.near', methodName: 'get', args: bytes('{}') }],
  );
  t.same(
    await queryReaches({ block_id: 1200, request_type: 'view_account', account_id: 'a.near', extra: 1 }),
    [{ blockId: 1200 }, { requestType: 'view_account', accountId: 'a.near' }],
    'unknown keys are ignored, as nearcore does',
  );
  const r = await h.rpc('query', { ...base, request_type: 'view_account' });
  // The result is the fake backend's; only the envelope around it is dispatch's own output. Real
  // results are checked against the schemas end to end (test/foundation.test.ts, test/history.test.ts).
  t.ok(
    T.JsonRpcResponseFor_RpcQueryResponseAnd_RpcErrorSchema().safeParse(camel(r.json)).success,
    'envelope schema',
  );

  await fails(
    t,
    'query',
    { finality: 'final', account_id: 'a.near' },
    'Failed parsing args: missing field `request_type`',
  );
  await fails(
    t,
    'query',
    { ...base, request_type: 'view_everything' },
    /unknown variant `view_everything`, expected one of `view_account`/,
  );
  await fails(
    t,
    'query',
    { request_type: 'view_account', account_id: 'a.near' },
    /no variant of enum BlockReference/,
  );
  await fails(
    t,
    'query',
    { ...base, request_type: 'view_state' },
    'Failed parsing args: missing field `prefix_base64`',
  );
  await fails(
    t,
    'query',
    { ...base, request_type: 'view_state', prefix_base64: 'U1RBVEU' },
    'Failed parsing args: Invalid padding',
  );
  await fails(
    t,
    'query',
    { ...base, request_type: 'view_state', prefix_base64: 'U1RBVEU=====' },
    /Invalid symbol 61, offset 7\./,
  );
  await fails(
    t,
    'query',
    { ...base, request_type: 'view_state', prefix_base64: 'x', include_proof: 'yes' },
    /Invalid input length|expected a boolean/,
  );
  await fails(
    t,
    'query',
    { ...base, request_type: 'view_state', prefix_base64: '', include_proof: 'yes' },
    'Failed parsing args: invalid type: string "yes", expected a boolean',
  );
  await fails(
    t,
    'query',
    { ...base, request_type: 'call_function', args_base64: '' },
    'Failed parsing args: missing field `method_name`',
  );
  await fails(
    t,
    'query',
    { ...base, request_type: 'view_access_key', public_key: 'ed25519:0OIl' },
    "Failed parsing args: invalid key data: provided string contained invalid character '0' at byte 0",
  );
  await fails(
    t,
    'query',
    { finality: 'final', request_type: 'view_account', account_id: 'a' },
    'Failed parsing args: invalid value: "a", the Account ID is too short',
  );
});

t.test('query: the legacy [path, data] form, always optimistic', async (t) => {
  const ref = { finality: 'optimistic' };
  t.same(await queryReaches(['account/a.near', '']), [
    ref,
    { requestType: 'view_account', accountId: 'a.near' },
  ]);
  t.same(await queryReaches(['code/a.near', '']), [ref, { requestType: 'view_code', accountId: 'a.near' }]);
  t.same(await queryReaches(['access_key/a.near', '']), [
    ref,
    { requestType: 'view_access_key_list', accountId: 'a.near' },
  ]);
  t.same(await queryReaches(['contract/a.near', base58Encode(bytes('STATE'))]), [
    ref,
    { requestType: 'view_state', accountId: 'a.near', prefix: bytes('STATE'), includeProof: false },
  ]);
  t.same(await queryReaches(['call/a.near/get/x', base58Encode(bytes('{}'))]), [
    ref,
    { requestType: 'call_function', accountId: 'a.near', methodName: 'get/x', args: bytes('{}') },
  ]);
  const legacyKey = await h.rpc('query', [`access_key/a.near/${PK}`, '']);
  t.same(h.backend.last(), [
    'query',
    ref,
    { requestType: 'view_access_key', accountId: 'a.near', publicKey: PK },
  ]);
  t.match(legacyKey.json.result.error, /^access key ed25519:.* does not exist while viewing$/);

  await fails(t, 'query', ['account', ''], 'Not enough query parameters provided');
  await fails(
    t,
    'query',
    ['account/Alice', ''],
    "the Account ID contains an invalid character 'A' at index 0",
  );
  await fails(t, 'query', ['balance/a.near', ''], 'Unknown path balance');
  await fails(t, 'query', ['call/a.near', ''], 'Method name is missing');
  await fails(t, 'query', ['access_key/a.near/nope', ''], 'Invalid public key');
  await fails(
    t,
    'query',
    ['contract/a.near', '0OIl'],
    "provided string contained invalid character '0' at byte 0",
  );
  await fails(t, 'query', ['contract/a.near', 'z'.repeat(20_000)], 'Query data size is too large');
  // nearcore decodes into a buffer of 10 KiB less the path: a bad character is reported only where
  // the digits before it still fit, else the buffer is too small first.
  await fails(
    t,
    'query',
    ['contract/a.near', `${'z'.repeat(100)}0`],
    "provided string contained invalid character '0' at byte 100",
  );
  await fails(t, 'query', ['contract/a.near', `${'z'.repeat(14_000)}0`], 'Query data size is too large');
  const capacity = 10 * 1024 - 'contract/a.near'.length;
  for (const k of [13_962, 13_963, 13_964, 13_965]) {
    // bs58's own decode onto a buffer of that size (bs58.ts) says where it overflows.
    const overflows = typeof bs58Decoded('z'.repeat(k), capacity) !== 'number';
    await fails(
      t,
      'query',
      ['contract/a.near', `${'z'.repeat(k)}0`],
      overflows
        ? 'Query data size is too large'
        : `provided string contained invalid character '0' at byte ${k}`,
    );
  }
  await fails(
    t,
    'query',
    ['account/a.near', 5],
    'Failed parsing args: invalid type: integer `5`, expected a string',
  );
  await fails(
    t,
    'query',
    ['account/a.near'],
    'Failed parsing args: invalid type: sequence, expected struct RpcQueryRequest',
  );
});

t.test('query: UNKNOWN_ACCESS_KEY and contract failures come back as results', async (t) => {
  const key = await h.rpc('query', {
    finality: 'final',
    request_type: 'view_access_key',
    account_id: 'a.near',
    public_key: PK,
  });
  t.equal(key.status, 200);
  t.same(key.json.result, {
    error: `access key ${PK} does not exist while viewing`,
    logs: [],
    block_height: 17795474,
    block_hash: HASH,
  });
  t.same(Object.keys(key.json), ['jsonrpc', 'result', 'id']);
  const call = await h.rpc('query', {
    finality: 'final',
    request_type: 'call_function',
    account_id: 'a.near',
    method_name: 'missing',
    args_base64: '',
  });
  t.equal(call.status, 200);
  t.same(call.json.result, {
    error: 'wasm execution failed with error: MethodResolveError(MethodNotFound)',
    logs: [],
    block_height: 17795474,
    block_hash: HASH,
  });
  const legacyCall = await h.rpc('query', ['call/a.near/missing', '']);
  t.same(legacyCall.json.result, call.json.result, 'the path form behaves identically');
});

const tx = Buffer.from([9, 9, 9]).toString('base64');
const undecodable = Buffer.from(UNDECODABLE_TX).toString('base64');

t.test('send_tx, broadcast_tx_commit, broadcast_tx_async params', async (t) => {
  await h.rpc('send_tx', { signed_tx_base64: tx });
  t.same(
    h.backend.last(),
    ['sendTx', new Uint8Array([9, 9, 9]), 'EXECUTED_OPTIMISTIC'],
    'default wait_until',
  );
  const none = await h.rpc('send_tx', { signed_tx_base64: tx, wait_until: 'NONE' });
  t.same(none.json.result, { final_execution_status: 'NONE' });
  await h.rpc('send_tx', [tx]);
  t.same(h.backend.last(), ['sendTx', new Uint8Array([9, 9, 9]), 'EXECUTED_OPTIMISTIC']);
  await h.rpc('broadcast_tx_commit', { signed_tx_base64: tx, wait_until: 'FINAL' });
  t.same(
    h.backend.last(),
    ['sendTx', new Uint8Array([9, 9, 9]), 'EXECUTED_OPTIMISTIC'],
    'wait_until ignored',
  );
  const sent = await h.rpc('broadcast_tx_commit', [tx]);
  t.notOk(sent.json.error, 'broadcast_tx_commit answers a result');
  const async = await h.rpc('broadcast_tx_async', [tx]);
  t.equal(async.json.result, '9wLp7j3fBKiBypiDEiYzxmqPch2UpanRRHrbouM1BMq2');
  t.same(h.backend.last(), ['broadcastTxAsync', new Uint8Array([9, 9, 9])]);

  for (const m of ['send_tx', 'broadcast_tx_commit', 'broadcast_tx_async']) {
    await fails(t, m, [tx, 'FINAL'], 'Unable to parse send request: too many params passed');
    await fails(t, m, ['!!!!'], 'Failed to decode transaction: Invalid symbol 33, offset 0.');
    await fails(t, m, [undecodable], 'Failed to decode transaction: Unexpected length of input');
    // SignedTransaction's Deserialize (nearcore core/primitives/src/transaction.rs) words these.
    await fails(
      t,
      m,
      { signed_tx_base64: undecodable },
      'Failed parsing args: the value could not decoded from borsh due to: Unexpected length of input',
    );
    await fails(
      t,
      m,
      { signed_tx_base64: '!!!!' },
      'Failed parsing args: the value could not decoded from base64 due to: Invalid symbol 33, offset 0.',
    );
    await fails(t, m, {}, 'Failed parsing args: missing field `signed_tx_base64`');
    await fails(t, m, [5], 'Failed parsing args: invalid type: integer `5`, expected a string');
  }
  await fails(
    t,
    'send_tx',
    { signed_tx_base64: tx, wait_until: 'SOON' },
    /unknown variant `SOON`, expected one of `NONE`, `INCLUDED`/,
  );
  // Any other array is the struct read from a sequence (nearcore's unwrap_or_parse): its two
  // fields from the first two elements, each failing as it would in the object, then the rest
  // refused.
  const { actions, createTransaction, KeyPair, KeyPairSigner } = await import('near-api-js');
  const kp = KeyPair.fromRandom('ed25519');
  const made = createTransaction(
    'a.near',
    kp.getPublicKey(),
    'b.near',
    1n,
    [actions.transfer(1n)],
    new Uint8Array(32),
  );
  const real = Buffer.from(
    (await new KeyPairSigner(kp).signTransaction(made)).signedTransaction.encode(),
  ).toString('base64');
  await fails(
    t,
    'send_tx',
    [real, 'FINAL', 'x'],
    'Failed parsing args: invalid length 3, expected fewer elements in array',
  );
  await fails(t, 'send_tx', [real, 'SOON', 'x'], /^Failed parsing args: unknown variant `SOON`/);
  await fails(
    t,
    'send_tx',
    ['!!!!', 'FINAL', 'x'],
    'Failed parsing args: the value could not decoded from base64 due to: Invalid symbol 33, offset 0.',
  );
  await fails(
    t,
    'send_tx',
    [tx, 'FINAL', 'x'],
    /^Failed parsing args: the value could not decoded from borsh due to: /,
  );
  await fails(
    t,
    'send_tx',
    [],
    'Failed parsing args: invalid length 0, expected struct RpcSendTransactionRequest with 2 elements',
  );
});

t.test('tx and EXPERIMENTAL_tx_status params', async (t) => {
  for (const [m, receipts] of [
    ['tx', false],
    ['EXPERIMENTAL_tx_status', true],
  ] as const) {
    await h.rpc(m, { tx_hash: HASH, sender_account_id: 'a.near', wait_until: 'FINAL' });
    const [, q1, w1, r1] = h.backend.last();
    t.equal(base58Encode((q1 as { txHash: Uint8Array }).txHash), HASH);
    t.same([(q1 as { senderAccountId: string }).senderAccountId, w1, r1], ['a.near', 'FINAL', receipts]);
    await h.rpc(m, [HASH, 'a.near']);
    t.same(h.backend.last().slice(2), ['EXECUTED_OPTIMISTIC', receipts]);
    await h.rpc(m, [tx]);
    t.same(h.backend.last().slice(1), [
      { signedTx: new Uint8Array([9, 9, 9]) },
      'EXECUTED_OPTIMISTIC',
      receipts,
    ]);
    await h.rpc(m, { signed_tx_base64: tx, wait_until: 'INCLUDED' });
    t.same(h.backend.last().slice(1), [{ signedTx: new Uint8Array([9, 9, 9]) }, 'INCLUDED', receipts]);
    const r = await h.rpc(m, [HASH, 'a.near']);
    t.notOk(r.json.error, `${m} answers a result`);

    await fails(
      t,
      m,
      [HASH, 'Alice'],
      /^Failed parsing args: invalid value: "Alice", the Account ID contains/,
    );
    await fails(
      t,
      m,
      ['abc', 'a.near'],
      'Failed parsing args: invalid length 3, expected base58-encoded 256-bit hash',
    );
    await fails(t, m, [undecodable], 'Failed to decode transaction: Unexpected length of input');
    await fails(
      t,
      m,
      { signed_tx_base64: undecodable },
      'Failed parsing args: data did not match any variant of untagged enum TransactionInfo',
    );
    // The untagged TransactionInfo tries the hash form when the signed one does not decode.
    const fallback = await h.rpc(m, {
      signed_tx_base64: undecodable,
      tx_hash: HASH,
      sender_account_id: 'a.near',
      wait_until: 'NONE',
    });
    t.notOk(fallback.json.error, `${m}: an undecodable transaction beside a hash answers for the hash`);
    const [, q2, w2] = h.backend.last();
    t.equal(base58Encode((q2 as { txHash: Uint8Array }).txHash), HASH);
    t.same([(q2 as { senderAccountId: string }).senderAccountId, w2], ['a.near', 'NONE']);
    await fails(
      t,
      m,
      { tx_hash: HASH },
      'Failed parsing args: data did not match any variant of untagged enum TransactionInfo',
    );
  }
});
