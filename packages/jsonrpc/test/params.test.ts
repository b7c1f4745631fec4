// Every method's params forms (object and legacy), what reaches the backend, and serde's wording
// for the mistakes.
import * as T from '@near-js/jsonrpc-types';
import { base58Decode } from '@nearlite/primitives';
import t from 'tap';
import { BLOCK_HASH as HASH, PUBLIC_KEY as PK } from './fixtures/fake_backend.js';
import { camel, harness, parseFailsOn, reachesOn } from './fixtures/http.js';

const h = await harness(t);
const hash = base58Decode(HASH);
const reaches = reachesOn(h);
const parseFails = parseFailsOn(h);

t.test('block: every block reference form and the legacy [block_id]', async (t) => {
  for (const f of ['optimistic', 'near-final', 'final']) {
    t.same(await reaches('block', { finality: f }), ['block', { finality: f }]);
  }
  t.same(await reaches('block', { block_id: 1200 }), ['block', { blockId: 1200 }]);
  t.same(await reaches('block', { block_id: HASH }), ['block', { blockId: hash }]);
  t.same(await reaches('block', { sync_checkpoint: 'genesis' }), ['block', { syncCheckpoint: 'genesis' }]);
  t.same(await reaches('block', { sync_checkpoint: 'earliest_available' }), [
    'block',
    { syncCheckpoint: 'earliest_available' },
  ]);
  t.same(await reaches('block', [1200]), ['block', { blockId: 1200 }]);
  t.same(await reaches('block', [HASH]), ['block', { blockId: hash }]);
  const r = await h.rpc('block', { finality: 'final' });
  t.ok(T.RpcBlockResponseSchema().safeParse(camel(r.json.result)).success, 'RpcBlockResponseSchema');

  // `block` reads the BlockReference enum from the params themselves (nearcore
  // chain/jsonrpc/src/api/blocks.rs), so serde_json's enum rules apply: a map of exactly one key
  // (serde_json value/de.rs deserialize_enum), or a string naming a variant.
  const singleKey = 'Failed parsing args: invalid value: map, expected map with a single key';
  await parseFails(t, 'block', {}, singleKey);
  await parseFails(t, 'block', { finality: 'final', foo: 1 }, singleKey);
  await parseFails(t, 'block', { block_id: 1, finality: 'final' }, singleKey);
  await parseFails(
    t,
    'block',
    { foo: 1 },
    'Failed parsing args: unknown variant `foo`, expected one of `block_id`, `finality`, `sync_checkpoint`',
  );
  await parseFails(
    t,
    'block',
    'finality',
    'Failed parsing args: invalid type: unit variant, expected newtype variant',
  );
  await parseFails(
    t,
    'block',
    { finality: 'soon' },
    'Failed parsing args: unknown variant `soon`, expected one of `optimistic`, `near-final`, `final`',
  );
  await parseFails(
    t,
    'block',
    { finality: 1 },
    'Failed parsing args: invalid type: integer `1`, expected string or map',
  );
  await parseFails(
    t,
    'block',
    { block_id: 'final' },
    'Failed parsing args: data did not match any variant of untagged enum BlockId',
  );
  await parseFails(t, 'block', { block_id: '5' }, /untagged enum BlockId/);
  await parseFails(t, 'block', { block_id: -1 }, /untagged enum BlockId/);
  await parseFails(
    t,
    'block',
    { sync_checkpoint: 'latest' },
    'Failed parsing args: unknown variant `latest`, expected `genesis` or `earliest_available`',
  );
  await parseFails(
    t,
    'block',
    'final',
    'Failed parsing args: unknown variant `final`, expected one of `block_id`, `finality`, `sync_checkpoint`',
  );
  await parseFails(t, 'block', [1, 2], 'Failed parsing args: invalid type: sequence, expected string or map');
  await parseFails(t, 'block', null, 'Failed parsing args: invalid type: null, expected string or map');
});

t.test('chunk: chunk_id, block_id + shard_id, [chunk_id], [[block_id, shard_id]]', async (t) => {
  t.same(await reaches('chunk', { chunk_id: HASH }), ['chunk', { chunkId: hash }]);
  t.same(await reaches('chunk', { block_id: 12, shard_id: 0 }), ['chunk', { blockId: 12, shardId: 0 }]);
  t.same(await reaches('chunk', { block_id: HASH, shard_id: 3 }), ['chunk', { blockId: hash, shardId: 3 }]);
  t.same(await reaches('chunk', [HASH]), ['chunk', { chunkId: hash }]);
  t.same(await reaches('chunk', [[12, 0]]), ['chunk', { blockId: 12, shardId: 0 }]);
  const invalidShard = await h.rpc('chunk', { block_id: 12, shard_id: 9 });
  t.same(invalidShard.json.error.cause, { name: 'INVALID_SHARD_ID', info: { shard_id: 9 } });
  await parseFails(
    t,
    'chunk',
    { block_id: 12 },
    'Failed parsing args: data did not match any variant of untagged enum ChunkReference',
  );
  await parseFails(t, 'chunk', [[12]], 'Failed parsing args: invalid length 1, expected a tuple of size 2');
  // Other params are the untagged ChunkReference itself (parse_chunk_reference), whose struct
  // variants serde also reads from a sequence of their fields.
  for (const params of [null, 'x', 7, [], [12, 0, 1]])
    await parseFails(
      t,
      'chunk',
      params,
      'Failed parsing args: data did not match any variant of untagged enum ChunkReference',
    );
  t.same(await reaches('chunk', [12, 0]), ['chunk', { blockId: 12, shardId: 0 }]);
  await parseFails(
    t,
    'chunk',
    ['xyz0'],
    "Failed parsing args: provided string contained invalid character '0' at byte 3",
  );
  await parseFails(
    t,
    'chunk',
    ['abc'],
    'Failed parsing args: invalid length 3, expected base58-encoded 256-bit hash',
  );
  await parseFails(
    t,
    'chunk',
    [7],
    'Failed parsing args: invalid type: integer `7`, expected base58-encoded 256-bit hash',
  );
});

t.test('methods that ignore their params accept anything', async (t) => {
  for (const [method, call] of [
    ['status', 'status'],
    ['health', 'health'],
    ['network_info', 'networkInfo'],
    ['genesis_config', 'genesisConfig'],
    ['EXPERIMENTAL_genesis_config', 'genesisConfig'],
    ['client_config', 'clientConfig'],
  ] as const) {
    for (const p of [[], null, {}, 'x'])
      t.same(await reaches(method, p), [call], `${method} ${JSON.stringify(p)}`);
  }
  const s = await h.rpc('status', []);
  t.ok(T.RpcStatusResponseSchema().safeParse(camel(s.json.result)).success, 'RpcStatusResponseSchema');
});

t.test('validators: [null], [block_id], {block_id}, {epoch_id}, {latest: null}', async (t) => {
  t.same(await reaches('validators', [null]), ['validators', null]);
  t.same(await reaches('validators', [1200]), ['validators', { blockId: 1200 }]);
  t.same(await reaches('validators', [HASH]), ['validators', { blockId: hash }]);
  t.same(await reaches('validators', { block_id: 1200 }), ['validators', { blockId: 1200 }]);
  t.same(await reaches('validators', { latest: null }), ['validators', null]);
  await h.rpc('validators', { epoch_id: HASH });
  t.same(h.backend.last(), ['validators', { epochId: hash }]);
  const v = await h.rpc('validators', [null]);
  t.ok(T.RpcValidatorResponseSchema().safeParse(camel(v.json.result)).success, 'RpcValidatorResponseSchema');
  // The EpochReference enum is read from the params themselves (nearcore
  // chain/jsonrpc/src/api/validator.rs): a string naming the unit variant, or one key only.
  t.same(await reaches('validators', 'latest'), ['validators', null]);
  const singleKey = 'Failed parsing args: invalid value: map, expected map with a single key';
  await parseFails(t, 'validators', {}, singleKey);
  await parseFails(t, 'validators', { latest: null, block_id: 5 }, singleKey);
  await parseFails(t, 'validators', { epoch_id: HASH, foo: 1 }, singleKey);
  await parseFails(
    t,
    'validators',
    'block_id',
    'Failed parsing args: invalid type: unit variant, expected newtype variant',
  );
  await parseFails(
    t,
    'validators',
    { final: 1 },
    'Failed parsing args: unknown variant `final`, expected one of `epoch_id`, `block_id`, `latest`',
  );
  await parseFails(
    t,
    'validators',
    [],
    'Failed parsing args: invalid type: sequence, expected string or map',
  );
  await parseFails(
    t,
    'validators',
    { latest: 1 },
    'Failed parsing args: invalid type: integer `1`, expected unit',
  );
});

t.test('gas_price: [null], [height|hash], {block_id}', async (t) => {
  t.same(await reaches('gas_price', [null]), ['gasPrice', null]);
  t.same(await reaches('gas_price', [1200]), ['gasPrice', 1200]);
  t.same(await reaches('gas_price', [HASH]), ['gasPrice', hash]);
  t.same(await reaches('gas_price', { block_id: 1200 }), ['gasPrice', 1200]);
  t.same(await reaches('gas_price', { block_id: null }), ['gasPrice', null]);
  t.same(await reaches('gas_price', {}), ['gasPrice', null]);
  const r = await h.rpc('gas_price', [null]);
  t.ok(T.RpcGasPriceResponseSchema().safeParse(camel(r.json.result)).success, 'RpcGasPriceResponseSchema');
  await parseFails(
    t,
    'gas_price',
    [],
    'Failed parsing args: invalid length 0, expected struct RpcGasPriceRequest with 1 element',
  );
  await parseFails(t, 'gas_price', ['x'], /untagged enum BlockId/);
});

t.test('EXPERIMENTAL_protocol_config, block_effects and their aliases take a block reference', async (t) => {
  t.same(await reaches('EXPERIMENTAL_protocol_config', { finality: 'final' }), [
    'protocolConfig',
    { finality: 'final' },
  ]);
  for (const m of ['block_effects', 'EXPERIMENTAL_changes_in_block']) {
    t.same(await reaches(m, { block_id: 3 }), ['changesInBlock', { blockId: 3 }]);
  }
  // EXPERIMENTAL_protocol_config parses the BlockReference enum itself (nearcore
  // chain/jsonrpc/src/api/config.rs); block_effects flattens it into its request, where serde takes
  // the first of its keys in the document and ignores the rest.
  await parseFails(
    t,
    'EXPERIMENTAL_protocol_config',
    [],
    'Failed parsing args: invalid type: sequence, expected string or map',
  );
  await parseFails(
    t,
    'EXPERIMENTAL_protocol_config',
    { finality: 'final', block_id: 1 },
    'Failed parsing args: invalid value: map, expected map with a single key',
  );
  for (const m of ['block_effects', 'EXPERIMENTAL_changes_in_block']) {
    t.same(await reaches(m, { finality: 'final', block_id: 3, foo: 1 }), [
      'changesInBlock',
      { finality: 'final' },
    ]);
    t.same(await reaches(m, { block_id: 3, finality: 'final' }), ['changesInBlock', { blockId: 3 }]);
  }
});

t.test('changes / EXPERIMENTAL_changes: every changes_type', async (t) => {
  for (const m of ['changes', 'EXPERIMENTAL_changes']) {
    const ids = { account_ids: ['a.near', 'b.near'] };
    for (const type of ['account_changes', 'all_access_key_changes', 'contract_code_changes']) {
      t.same(await reaches(m, { finality: 'final', changes_type: type, ...ids }), [
        'changes',
        { finality: 'final' },
        { changesType: type, accountIds: ['a.near', 'b.near'] },
      ]);
    }
    t.same(
      await reaches(m, { block_id: 9, changes_type: 'data_changes', ...ids, key_prefix_base64: 'U1RBVEU=' }),
      [
        'changes',
        { blockId: 9 },
        {
          changesType: 'data_changes',
          accountIds: ['a.near', 'b.near'],
          keyPrefix: new Uint8Array(Buffer.from('STATE')),
        },
      ],
    );
    t.same(
      await reaches(m, {
        finality: 'final',
        changes_type: 'single_access_key_changes',
        keys: [{ account_id: 'a.near', public_key: PK }],
      }),
      [
        'changes',
        { finality: 'final' },
        { changesType: 'single_access_key_changes', keys: [{ accountId: 'a.near', publicKey: PK }] },
      ],
    );
  }
  await parseFails(
    t,
    'changes',
    { finality: 'final', account_ids: [] },
    'Failed parsing args: missing field `changes_type`',
  );
  await parseFails(
    t,
    'changes',
    { finality: 'final', changes_type: 'all', account_ids: [] },
    /unknown variant `all`, expected one of `account_changes`/,
  );
  await parseFails(
    t,
    'changes',
    { finality: 'final', changes_type: 'account_changes', account_ids: 'a.near' },
    'Failed parsing args: invalid type: string "a.near", expected a sequence',
  );
  await parseFails(
    t,
    'changes',
    { finality: 'final', changes_type: 'account_changes', account_ids: 'a"b\\c\u0000\n' },
    'Failed parsing args: invalid type: string "a\\"b\\\\c\\0\\n", expected a sequence',
  );
  await parseFails(
    t,
    'changes',
    { finality: 'final', changes_type: 'data_changes', account_ids: [], key_prefix_base64: '!!' },
    'Failed parsing args: Invalid symbol 33, offset 0.',
  );
  await parseFails(
    t,
    'changes',
    {
      finality: 'final',
      changes_type: 'single_access_key_changes',
      keys: [{ account_id: 'a.near', public_key: 'ed25519:abc' }],
    },
    'Failed parsing args: invalid key length: expected the input of 32 bytes, but 3 was given',
  );
  await parseFails(
    t,
    'changes',
    {
      finality: 'final',
      changes_type: 'single_access_key_changes',
      keys: [{ account_id: 'a.near', public_key: 'rsa:abc' }],
    },
    "Failed parsing args: unknown key type 'rsa'",
  );
  for (const type of ['constructor', 'toString', '__proto__'])
    await parseFails(
      t,
      'changes',
      {
        finality: 'final',
        changes_type: 'single_access_key_changes',
        keys: [{ account_id: 'a.near', public_key: `${type}:abc` }],
      },
      // near-crypto's KeyType::from_str names the type it refuses lowercased.
      `Failed parsing args: unknown key type '${type.toLowerCase()}'`,
    );
});

t.test('keys, hashes and account ids are read and refused as nearcore’s crates read them', async (t) => {
  const keyQuery = (public_key: string) => ({
    request_type: 'view_access_key',
    finality: 'final',
    account_id: 'a.near',
    public_key,
  });
  const data = PK.slice('ed25519:'.length);
  // KeyType::from_str takes the type in any ASCII case (core/crypto/src/signature.rs).
  for (const typed of [`ED25519:${data}`, `Ed25519:${data}`]) {
    const got = (await reaches('query', keyQuery(typed)))[2] as { publicKey: string };
    t.equal(got.publicKey, PK, `${typed.slice(0, 8)} is an ed25519 key`);
  }
  await parseFails(t, 'query', keyQuery(`RSA:${data}`), "Failed parsing args: unknown key type 'rsa'");
  // decode_bs58_impl decodes into the key's 32 bytes: digits past them are one byte too many, even
  // when a character outside the alphabet follows.
  await parseFails(
    t,
    'query',
    keyQuery(`${PK}zz`),
    'Failed parsing args: invalid key length: expected the input of 32 bytes, but 33 was given',
  );
  await parseFails(
    t,
    'query',
    keyQuery(`${PK}zz0`),
    'Failed parsing args: invalid key length: expected the input of 32 bytes, but 33 was given',
  );
  await parseFails(
    t,
    'query',
    keyQuery('ed25519:aé'),
    'Failed parsing args: invalid key data: provided string contained non-ascii character starting at byte 1',
  );
  await parseFails(
    t,
    'query',
    keyQuery("ed25519:a'b"),
    "Failed parsing args: invalid key data: provided string contained invalid character '\\'' at byte 1",
  );
  // A hash: bs58 stops at the 32nd byte before it reads the bad digit after (hash.rs from_base58_impl).
  await parseFails(
    t,
    'EXPERIMENTAL_receipt',
    { receipt_id: `${'z'.repeat(44)}0` },
    'Failed parsing args: invalid length 45, expected base58-encoded 256-bit hash',
  );
  await parseFails(
    t,
    'EXPERIMENTAL_receipt',
    { receipt_id: '1'.repeat(1000) },
    'Failed parsing args: invalid length 1000, expected base58-encoded 256-bit hash',
  );
  await parseFails(
    t,
    'EXPERIMENTAL_receipt',
    { receipt_id: 'aé' },
    'Failed parsing args: provided string contained non-ascii character starting at byte 1',
  );
  await parseFails(
    t,
    'EXPERIMENTAL_receipt',
    { receipt_id: 'a\\b' },
    "Failed parsing args: provided string contained invalid character '\\\\' at byte 1",
  );
  // near-account-id prints the character with {:?} (errors.rs).
  const accountFails = (id: string, shown: string) =>
    parseFails(
      t,
      'query',
      { request_type: 'view_account', finality: 'final', account_id: id },
      `Failed parsing args: invalid value: "${id}", the Account ID contains an invalid character ${shown} at index 1`,
    );
  await accountFails('a\tb', "'\\t'");
  await accountFails("a'b", "'\\''");
  await accountFails('a"b', `'"'`);
  await accountFails('a\u200bb', "'\\u{200b}'");
  await accountFails('aé', "'é'");
});

t.test('EXPERIMENTAL_receipt and the light client methods', async (t) => {
  await h.rpc('EXPERIMENTAL_receipt', { receipt_id: HASH });
  t.same(h.backend.last(), ['receipt', hash]);
  await parseFails(t, 'EXPERIMENTAL_receipt', {}, 'Failed parsing args: missing field `receipt_id`');
  // nearcore parses the plain struct ReceiptReference (chain/jsonrpc/src/api/receipts.rs), which
  // serde reads from a sequence of its fields too, with serde's own wording for the wrong lengths.
  t.same(await reaches('EXPERIMENTAL_receipt', [HASH]), ['receipt', hash]);
  await parseFails(
    t,
    'EXPERIMENTAL_receipt',
    [],
    'Failed parsing args: invalid length 0, expected struct ReceiptReference with 1 element',
  );
  await parseFails(
    t,
    'EXPERIMENTAL_receipt',
    [HASH, HASH],
    'Failed parsing args: invalid length 2, expected fewer elements in array',
  );
  await parseFails(
    t,
    'EXPERIMENTAL_receipt',
    'x',
    'Failed parsing args: invalid type: string "x", expected struct ReceiptReference',
  );

  for (const m of ['light_client_proof', 'EXPERIMENTAL_light_client_proof']) {
    t.same(
      await reaches(m, {
        type: 'transaction',
        transaction_hash: HASH,
        sender_id: 'a.near',
        light_client_head: HASH,
      }),
      ['lightClientProof', { type: 'transaction', transactionHash: hash, senderId: 'a.near' }, hash],
    );
    t.same(
      await reaches(m, { type: 'receipt', receipt_id: HASH, receiver_id: 'b.near', light_client_head: HASH }),
      ['lightClientProof', { type: 'receipt', receiptId: hash, receiverId: 'b.near' }, hash],
    );
  }
  await parseFails(
    t,
    'light_client_proof',
    { type: 'block', light_client_head: HASH },
    'Failed parsing args: unknown variant `block`, expected `transaction` or `receipt`',
  );
  await parseFails(
    t,
    'light_client_proof',
    { type: 'receipt', receipt_id: HASH, receiver_id: 'b.near' },
    'Failed parsing args: missing field `light_client_head`',
  );

  const next = await h.rpc('next_light_client_block', { last_block_hash: HASH });
  t.same(next.json.result, {}, 'None is {}');
  t.same(h.backend.last(), ['nextLightClientBlock', hash]);
  t.same(await reaches('next_light_client_block', [HASH]), ['nextLightClientBlock', hash]);
});

t.test('sandbox methods', async (t) => {
  const records = [{ Account: { account_id: 'a.near', account: {} } }];
  const r = await h.rpc('sandbox_patch_state', { records, account_id: 'ignored.near' });
  t.same(r.json.result, {});
  t.same(h.backend.last(), ['sandboxPatchState', records]);
  await parseFails(
    t,
    'sandbox_patch_state',
    { records: ['bad'] },
    'Failed parsing args: unknown variant `Bad`',
  );
  await parseFails(t, 'sandbox_patch_state', {}, 'Failed parsing args: missing field `records`');
  // RpcSandboxPatchStateRequest is a plain struct (nearcore chain/jsonrpc-primitives/src/types/
  // sandbox.rs): serde reads it from `[records]` as well.
  t.same(await reaches('sandbox_patch_state', [records]), ['sandboxPatchState', records]);
  t.same(await reaches('sandbox_fast_forward', { delta_height: 10 }), ['sandboxFastForward', 10]);
  await parseFails(
    t,
    'sandbox_fast_forward',
    { delta_height: '10' },
    'Failed parsing args: invalid type: string "10", expected u64',
  );
  await parseFails(
    t,
    'sandbox_fast_forward',
    { delta_height: -1 },
    'Failed parsing args: invalid value: integer `-1`, expected u64',
  );
  t.same(h.backend.last(), ['sandboxFastForward', 10], 'a refused delta never reaches the node');
});

t.test('without a sandbox, the sandbox methods do not exist', async (t) => {
  const plain = await harness(t, { sandbox: false });
  for (const method of ['sandbox_patch_state', 'sandbox_fast_forward']) {
    const r = await plain.rpc(method, { records: [], delta_height: 1 });
    t.equal(r.status, 400);
    t.same(r.json.error, {
      name: 'REQUEST_VALIDATION_ERROR',
      cause: { name: 'METHOD_NOT_FOUND', info: { method_name: method } },
      code: -32601,
      message: 'Method not found',
      data: method,
    });
    t.equal(plain.backend.calls.length, 0, `${method} never reaches the backend`);
  }
});

t.test('EXPERIMENTAL_validators_ordered: {block_id}, {}, [id | null]', async (t) => {
  const m = 'EXPERIMENTAL_validators_ordered';
  t.same(await reaches(m, { block_id: 12 }), ['validatorsOrdered', 12]);
  t.same(await reaches(m, { block_id: HASH }), ['validatorsOrdered', hash]);
  t.same(await reaches(m, { block_id: null }), ['validatorsOrdered', null]);
  t.same(await reaches(m, {}), ['validatorsOrdered', null]);
  t.same(await reaches(m, [null]), ['validatorsOrdered', null]);
  t.same(await reaches(m, [12]), ['validatorsOrdered', 12]);
  await parseFails(
    t,
    m,
    null,
    'Failed parsing args: invalid type: null, expected struct RpcValidatorsOrderedRequest',
  );
  await parseFails(
    t,
    m,
    [],
    'Failed parsing args: invalid length 0, expected struct RpcValidatorsOrderedRequest with 1 element',
  );
  await parseFails(t, m, [1, 2], 'Failed parsing args: invalid length 2, expected fewer elements in array');
  await parseFails(t, m, { block_id: 'x' }, /untagged enum BlockId/);
});

t.test('EXPERIMENTAL_light_client_block_proof: both hashes, as an object or a pair', async (t) => {
  const m = 'EXPERIMENTAL_light_client_block_proof';
  t.same(await reaches(m, { block_hash: HASH, light_client_head: HASH }), [
    'lightClientBlockProof',
    hash,
    hash,
  ]);
  t.same(await reaches(m, [HASH, HASH]), ['lightClientBlockProof', hash, hash]);
  await parseFails(t, m, { block_hash: HASH }, 'Failed parsing args: missing field `light_client_head`');
  await parseFails(
    t,
    m,
    [HASH],
    'Failed parsing args: invalid length 1, expected struct RpcLightClientBlockProofRequest with 2 elements',
  );
});

t.test('EXPERIMENTAL_congestion_level names its chunk as chunk does', async (t) => {
  const m = 'EXPERIMENTAL_congestion_level';
  t.same(await reaches(m, { chunk_id: HASH }), ['congestionLevel', { chunkId: hash }]);
  t.same(await reaches(m, { block_id: 5, shard_id: 1 }), ['congestionLevel', { blockId: 5, shardId: 1 }]);
  t.same(await reaches(m, [[5, 0]]), ['congestionLevel', { blockId: 5, shardId: 0 }]);
  await parseFails(t, m, { shard_id: 1 }, /untagged enum ChunkReference/);
});

t.test('maintenance_windows and its EXPERIMENTAL_ alias take an account id', async (t) => {
  for (const m of ['maintenance_windows', 'EXPERIMENTAL_maintenance_windows']) {
    t.same(await reaches(m, { account_id: 'alice.near' }), ['maintenanceWindows', 'alice.near']);
    t.same(await reaches(m, ['alice.near']), ['maintenanceWindows', 'alice.near']);
    await parseFails(t, m, {}, 'Failed parsing args: missing field `account_id`');
    await parseFails(t, m, { account_id: 'Alice' }, /invalid value: "Alice"/);
  }
});

t.test('EXPERIMENTAL_split_storage_info takes an empty struct', async (t) => {
  const m = 'EXPERIMENTAL_split_storage_info';
  for (const p of [{}, [], { anything: 1 }]) t.same(await reaches(m, p), ['splitStorageInfo']);
  await parseFails(
    t,
    m,
    null,
    'Failed parsing args: invalid type: null, expected struct RpcSplitStorageInfoRequest',
  );
  await parseFails(t, m, [1], 'Failed parsing args: invalid length 1, expected fewer elements in array');
  const r = await h.rpc(m, {});
  t.ok(
    T.RpcSplitStorageInfoResponseSchema().safeParse(camel(r.json.result)).success,
    'RpcSplitStorageInfoResponseSchema',
  );
});
