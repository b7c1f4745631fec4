// sandbox_patch_state records are checked field by field, as nearcore's StateRecord deserializes
// them, before anything is written.
import { StateRecordError, stateRecordsToWrites, stateRecordToWrite } from '@nearlite/chain';
import { decodeAccessKey, decodeAccount, JsonF64 } from '@nearlite/primitives';
import t from 'tap';

const HASH = '11111111111111111111111111111111';
const KEY = 'ed25519:6E8sCci9badyRkXb3JoRpBj5p8C6Tw41ELDZoiihKEtp';
const account = (a: Record<string, unknown>) => ({
  Account: {
    account_id: 'a.near',
    account: { amount: '10', locked: '0', code_hash: HASH, storage_usage: 100, ...a },
  },
});
const key = (k: unknown) => ({ AccessKey: { account_id: 'a.near', public_key: KEY, access_key: k } });

t.test('good records of every kind become writes', async (t) => {
  const writes = stateRecordsToWrites([
    account({}),
    key({ nonce: 0, permission: 'FullAccess' }),
    key({
      nonce: 5,
      permission: { FunctionCall: { allowance: null, receiver_id: 'b.near', method_names: ['m'] } },
    }),
    { Contract: { account_id: 'a.near', code: 'AGFzbQEAAAA=' } },
    { Data: { account_id: 'a.near', data_key: 'aw==', value: '' } },
  ]);
  t.equal(writes.length, 5);
  t.same(decodeAccount(writes[0]!.value), {
    amount: 10n,
    locked: 0n,
    codeHash: new Uint8Array(32),
    storageUsage: 100n,
  });
  t.ok(writes[3]!.codeHash, 'a Contract record sets its account’s code hash');
});

const HOSTILE: [string, unknown, RegExp][] = [
  [
    'a 46-byte code hash',
    account({ code_hash: '1'.repeat(46) }),
    /code_hash: expected a hash of 32 bytes, got 46/,
  ],
  ['an empty code hash', account({ code_hash: '' }), /code_hash: expected a hash of 32 bytes, got 0/],
  ['a non-base58 code hash', account({ code_hash: '0OIl' }), /code_hash: expected a base58 hash/],
  ['an amount object', account({ amount: {} }), /amount: expected a u128/],
  ['a negative amount', account({ amount: '-1' }), /amount: expected a u128/],
  ['an amount over u128', account({ amount: (1n << 128n).toString() }), /amount: out of range for u128/],
  ['a fractional amount', account({ amount: '1.5' }), /amount: expected a u128/],
  ['a missing locked', account({ locked: undefined }), /missing field `locked`/],
  ['a string storage_usage', account({ storage_usage: '100' }), /storage_usage: expected a u64/],
  ['a negative storage_usage', account({ storage_usage: -1 }), /storage_usage: expected a u64/],
  ['no account body', { Account: { account_id: 'a.near' } }, /account: expected an object/],
  ['a bad account id', { Data: { account_id: 'A!', data_key: '', value: '' } }, /account_id/],
  [
    'a numeric account id',
    { Data: { account_id: 7, data_key: '', value: '' } },
    /account_id: expected a string/,
  ],
  [
    'bad base64 data',
    { Data: { account_id: 'a.near', data_key: '%%%', value: '' } },
    /data_key: expected base64/,
  ],
  ['bad base64 code', { Contract: { account_id: 'a.near', code: 'a' } }, /code: expected base64/],
  [
    'a bad public key',
    { AccessKey: { account_id: 'a.near', public_key: 'ed25519:xyz', access_key: {} } },
    /public_key/,
  ],
  ['a key without a nonce', key({ permission: 'FullAccess' }), /missing field `nonce`/],
  ['an unknown permission', key({ nonce: 0, permission: 'Everything' }), /permission: expected an object/],
  [
    'a bad receiver',
    key({ nonce: 0, permission: { FunctionCall: { receiver_id: '', method_names: [] } } }),
    /receiver_id/,
  ],
  [
    'method names not strings',
    key({ nonce: 0, permission: { FunctionCall: { receiver_id: 'b.near', method_names: [1] } } }),
    /method_names/,
  ],
  [
    'a bad allowance',
    key({
      nonce: 0,
      permission: { FunctionCall: { allowance: 'x', receiver_id: 'b.near', method_names: [] } },
    }),
    /allowance/,
  ],
  [
    // nearcore writes these bytes and then cannot read the account back: they start with the marker
    // of a versioned account.
    'a V1 account holding u128::MAX',
    account({ amount: ((1n << 128n) - 1n).toString() }),
    /^records\[0\]\.Account\.account\.amount: an account of version V1 cannot hold u128::MAX/,
  ],
  ['an unknown variant', { Bogus: { account_id: 'a.near' } }, /unsupported record variant `Bogus`/],
  ['two variants', { Data: {}, Contract: {} }, /exactly one record variant/],
  ['not an object', 'Account', /expected an object/],
  ['null', null, /expected an object/],
  // The RPC's body parser hands a JSON float on as a JsonF64 (serde's f64): no u64, no object.
  ['a float storage_usage', account({ storage_usage: new JsonF64(100) }), /storage_usage: expected a u64/],
  ['a float record', new JsonF64(1), /expected an object/],
  ['a nonce over u64', key({ nonce: 1n << 64n, permission: 'FullAccess' }), /nonce: out of range for u64/],
];

t.test('a u64 above 2^53 is kept exactly, as the RPC body parser hands it on (a bigint)', async (t) => {
  const [write] = stateRecordsToWrites([key({ nonce: 9007199254740993n, permission: 'FullAccess' })]);
  t.equal(decodeAccessKey(write!.value).nonce, 9007199254740993n);
  const [acc] = stateRecordsToWrites([account({ amount: 10n ** 30n, storage_usage: 18446744073709551615n })]);
  t.equal(decodeAccount(acc!.value).amount, 10n ** 30n);
  t.equal(decodeAccount(acc!.value).storageUsage, 18446744073709551615n);
});

t.test('hostile records are refused, naming the field', async (t) => {
  for (const [what, record, message] of HOSTILE) {
    t.throws(() => stateRecordToWrite(record), { name: 'StateRecordError', message }, what);
  }
});

t.test('one bad record refuses the whole patch', async (t) => {
  t.throws(() => stateRecordsToWrites([account({}), account({ code_hash: '' })]), {
    message: /^records\[1\]\.Account\.account\.code_hash/,
  });
  t.throws(() => stateRecordsToWrites([null]), StateRecordError);
});

t.test('V2 account records keep a global contract, as nearcore’s Account deserializer does', async (t) => {
  const globalHash = '4reLvkAWfqk5fsqio1KLudk46cqRz9erQdaHkWZKMJDZ';
  const byHash = decodeAccount(
    stateRecordToWrite(account({ version: 'V2', global_contract_hash: globalHash })).value,
  );
  t.same(byHash.v2?.contract.kind, 'Global');
  t.same(byHash.codeHash, new Uint8Array(32));
  const byAccount = decodeAccount(
    stateRecordToWrite(account({ version: 'V2', global_contract_account_id: 'owner.near' })).value,
  );
  t.same(byAccount.v2, { contract: { kind: 'GlobalByAccount', accountId: 'owner.near' } });
  // A V1 record ignores the global fields; a V2 record without them has no contract.
  t.equal(
    decodeAccount(stateRecordToWrite(account({ global_contract_hash: globalHash })).value).v2,
    undefined,
  );
  t.same(decodeAccount(stateRecordToWrite(account({ version: 'V2' })).value).v2, {
    contract: { kind: 'None' },
  });
  t.throws(
    () =>
      stateRecordToWrite(account({ version: 'V2', code_hash: globalHash, global_contract_hash: globalHash })),
    /both a local and global contract/,
  );
  t.throws(
    () =>
      stateRecordToWrite(
        account({
          version: 'V2',
          global_contract_hash: globalHash,
          global_contract_account_id: 'owner.near',
        }),
      ),
    /both types of global contracts/,
  );
  t.throws(() => stateRecordToWrite(account({ version: 'V3' })), StateRecordError);
  // A versioned account holds u128::MAX as any other amount, after its marker.
  const max = (1n << 128n) - 1n;
  t.equal(
    decodeAccount(stateRecordToWrite(account({ version: 'V2', amount: max.toString() })).value).amount,
    max,
  );
});

t.test('gas keys: their permissions and their nonces, as nearcore writes them', async (t) => {
  const [full, calls, nonce] = stateRecordsToWrites([
    key({ nonce: 0, permission: { GasKeyFullAccess: { balance: '7', num_nonces: 2 } } }),
    key({
      nonce: 0,
      permission: {
        GasKeyFunctionCall: {
          balance: '0',
          num_nonces: 1,
          allowance: null,
          receiver_id: 'b.near',
          method_names: [],
        },
      },
    }),
    { GasKeyNonce: { account_id: 'a.near', public_key: KEY, index: 1, nonce: 42 } },
  ]);
  // nonce u64, tag 3, balance u128, num_nonces u16.
  t.same([...full!.value], [...new Uint8Array(8), 3, 7, ...new Uint8Array(15), 2, 0]);
  t.equal(calls!.value[8], 2, 'GasKeyFunctionCall is tag 2');
  // nearcore's serde of the tuple variant, [GasKeyInfo, FunctionCallPermission], writes the same.
  const tuple = stateRecordToWrite(
    key({
      nonce: 0,
      permission: {
        GasKeyFunctionCall: [
          { balance: '0', num_nonces: 1 },
          { allowance: null, receiver_id: 'b.near', method_names: [] },
        ],
      },
    }),
  );
  t.same([...tuple.value], [...calls!.value]);
  t.throws(
    () =>
      stateRecordToWrite(
        key({ nonce: 0, permission: { GasKeyFunctionCall: [{ balance: '0', num_nonces: 1 }] } }),
      ),
    { message: /GasKeyFunctionCall: expected a tuple of 2 elements/ },
  );
  // The nonce's key is its access key's and the u16 index; its value a u64.
  t.same([...nonce!.key], [...full!.key, 1, 0]);
  t.same([...nonce!.value], [42, 0, 0, 0, 0, 0, 0, 0]);
  t.throws(
    () =>
      stateRecordToWrite(
        { GasKeyNonce: { account_id: 'a.near', public_key: KEY, index: 70000, nonce: 1 } },
        0,
      ),
    /index: out of range for u16/,
  );
});
