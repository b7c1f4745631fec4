// A stream's access-key changes name an ML-DSA-65 key by its `ml-dsa-65-hash:` handle, as nearcore's
// StateChangeValueView does: the write lands on the trie key the handle makes, the one a view of the
// full key reads.
import { base58Encode, decodeAccount, KeyType, utf8 } from '@nearlite/primitives';
import { trieKeyAccessKey } from '@nearlite/trie';
import t from 'tap';
import { stateChangeWrite } from '../src/state_change_keys.js';

const digest = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
const fullKey = { keyType: KeyType.MLDSA65, data: new Uint8Array(1952).fill(9) };

t.test('an access-key change by handle writes the key the handle names', async (t) => {
  const w = stateChangeWrite({
    cause: { type: 'transaction_processing', tx_hash: '11111111111111111111111111111111' },
    type: 'access_key_update',
    change: {
      account_id: 'alice.near',
      public_key: `ml-dsa-65-hash:${base58Encode(digest)}`,
      access_key: { nonce: 5, permission: 'FullAccess' },
    },
  } as never);
  // col 2, the account, the 0x02 separator, then PublicKeyHandle's borsh: tag 3 and the digest.
  t.same(w?.key, Uint8Array.of(2, ...utf8('alice.near'), 2, 3, ...digest));
  t.same(w?.value, Uint8Array.of(5, 0, 0, 0, 0, 0, 0, 0, 1));
  const del = stateChangeWrite({
    cause: { type: 'transaction_processing', tx_hash: '11111111111111111111111111111111' },
    type: 'access_key_deletion',
    change: { account_id: 'alice.near', public_key: `ml-dsa-65-hash:${base58Encode(digest)}` },
  } as never);
  t.same(del, { key: w?.key, value: null });
  // The full key's trie key is its handle's: what a view by the full key reads.
  t.equal(trieKeyAccessKey('alice.near', fullKey).length, 1 + 10 + 1 + 33);
  t.equal(trieKeyAccessKey('alice.near', fullKey)[12], 3);
});

t.test('a change naming a full ML-DSA-65 key is refused, as nearcore cannot represent it', async (t) => {
  t.throws(() =>
    stateChangeWrite({
      cause: { type: 'transaction_processing', tx_hash: '11111111111111111111111111111111' },
      type: 'access_key_deletion',
      change: { account_id: 'alice.near', public_key: `ml-dsa-65:${base58Encode(fullKey.data)}` },
    } as never),
  );
});

t.test(
  'a gas key and its nonces, as a stream reports them, land where the producer keeps them',
  async (t) => {
    const cause = { type: 'transaction_processing', tx_hash: '11111111111111111111111111111111' };
    const pk = `ed25519:${base58Encode(digest)}`;
    const key = stateChangeWrite({
      cause,
      type: 'access_key_update',
      change: {
        account_id: 'alice.near',
        public_key: pk,
        access_key: { nonce: 0, permission: { GasKeyFullAccess: { balance: '5', num_nonces: 2 } } },
      },
    } as never);
    // nonce 0, GasKeyFullAccess (tag 3), balance 5 (u128), 2 nonces (u16).
    t.same([...key!.value!], [...new Uint8Array(8), 3, 5, ...new Uint8Array(15), 2, 0]);
    const nonce = stateChangeWrite({
      cause,
      type: 'gas_key_nonce_update',
      change: { account_id: 'alice.near', public_key: pk, index: 1, nonce: 7_000_000 },
    } as never);
    t.same([...nonce!.key], [...key!.key, 1, 0]);
    t.same([...nonce!.value!], [0xc0, 0xcf, 0x6a, 0, 0, 0, 0, 0]);
  },
);

t.test('an account update keeps the global contract its view names, as nearcore’s AccountV2', async (t) => {
  const cause = { type: 'transaction_processing', tx_hash: '11111111111111111111111111111111' };
  const update = (extra: Record<string, unknown>) =>
    stateChangeWrite({
      cause,
      type: 'account_update',
      change: {
        account_id: 'carol.near',
        amount: '5',
        locked: '0',
        code_hash: '11111111111111111111111111111111',
        storage_usage: 100,
        storage_paid_at: 0,
        ...extra,
      },
    } as never);
  const globalHash = base58Encode(digest);
  t.same(decodeAccount(update({ global_contract_hash: globalHash })!.value!).v2, {
    contract: { kind: 'Global', hash: digest },
  });
  t.same(decodeAccount(update({ global_contract_account_id: 'owner.near' })!.value!).v2, {
    contract: { kind: 'GlobalByAccount', accountId: 'owner.near' },
  });
  t.equal(decodeAccount(update({})!.value!).v2, undefined, 'without either, unversioned');
  t.throws(() => update({ global_contract_hash: globalHash, global_contract_account_id: 'owner.near' }), {
    name: 'StateChangeError',
  });
  t.throws(() => update({ code_hash: globalHash, global_contract_hash: globalHash }), {
    name: 'StateChangeError',
  });
  t.throws(() => update({ global_contract_account_id: 'A!' }), { name: 'StateChangeError' });
  t.throws(() => update({ code_hash: '1111' }), /code_hash is not a hash of 32 bytes/, 'a short code hash');
  t.throws(() => update({ global_contract_hash: '1111' }), /global_contract_hash is not a hash of 32 bytes/);
});
