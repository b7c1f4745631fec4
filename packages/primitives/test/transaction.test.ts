import { createHash } from 'node:crypto';
import {
  base58Encode,
  decodeSignedTransaction,
  encodeSignedTransaction,
  fromBase64,
  receiptIdFromTransaction,
  signedTransactionView,
  TransactionDecodeError,
  verifySignature,
} from '@nearlite/primitives';
import {
  actions as A,
  createTransaction,
  KeyPair,
  KeyPairSigner,
  PublicKey as NapiPublicKey,
} from 'near-api-js';
import t from 'tap';

// rpc-wire.md §6.4, generated with near-api-js 7.2.0
const VECTOR =
  'DwAAAGFsaWNlLnRlc3QubmVhcgB5tVYuj+ZU+UB4sRLoqYunkB+FOuaVvtfg45ELrQSWZAUAAAAAAAAADQAAAGJvYi50ZXN0Lm5lYXIHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwEAAAADAAAAoe3MzhvC0wAAAAAAAACp8SL7O4aw2uyMd523mjnnb16SxWea0ITYCKhuRnTrtCl1vTgwMD/CeOM+DvAo5E9/Ym1fCa7Rxglf6Jjn8J4F';

t.test('the near-api-js vector decodes, hashes, verifies and derives its receipt id', async (t) => {
  const stx = decodeSignedTransaction(fromBase64(VECTOR));
  t.equal(base58Encode(stx.hash), '9wLp7j3fBKiBypiDEiYzxmqPch2UpanRRHrbouM1BMq2');
  t.equal(stx.transaction.signerId, 'alice.test.near');
  t.equal(stx.transaction.nonce, 5n);
  t.same(stx.transaction.actions, [{ type: 'Transfer', deposit: 10n ** 24n }]);
  t.ok(verifySignature(stx.hash, stx.signature, stx.transaction.publicKey));
  t.notOk(verifySignature(new Uint8Array(32), stx.signature, stx.transaction.publicKey));
  t.equal(
    base58Encode(receiptIdFromTransaction(stx.hash, 100)),
    'F87n3uqzpws2MUJYx8yxaXBzRmdjtsRSZsdrZ553n9W7',
  );
  t.same(encodeSignedTransaction(stx.transaction, stx.signature), stx.bytes, 're-encodes byte for byte');
  const view = signedTransactionView(stx) as { actions: unknown[]; signature: string; priority_fee: number };
  t.same(view.actions, [{ Transfer: { deposit: '1000000000000000000000000' } }]);
  t.equal(
    view.signature,
    'ed25519:4Q4oryc4PryLyHD7g4yWZK2vz6M9vG6oFrc3GantAYjWrzMxyTroSnz9HN8kq7X5HTpXTBCgwQG9zy7X7bgmvEhz',
  );
});

t.test('every action near-api-js builds round-trips with the same hash', async (t) => {
  const kp = KeyPair.fromRandom('ed25519');
  const pk = NapiPublicKey.fromString(kp.getPublicKey().toString());
  const actions = [
    A.createAccount(),
    A.deployContract(new Uint8Array([0, 97, 115, 109])),
    A.functionCall('go', new Uint8Array([1, 2]), 30_000_000_000_000n, 1n),
    A.transfer(5n),
    A.stake(7n, pk),
    A.addFullAccessKey(pk),
    A.addFunctionCallAccessKey(pk, 'c.near', ['a', 'b'], 10n),
    A.deleteKey(pk),
    A.deleteAccount('b.near'),
  ];
  const tx = createTransaction('a.near', pk, 'b.near', 9n, actions, new Uint8Array(32).fill(3));
  const { txHash: hash, signedTransaction: signed } = await new KeyPairSigner(kp).signTransaction(tx);
  const bytes = signed.encode();
  const stx = decodeSignedTransaction(bytes);
  t.same(stx.hash, hash);
  t.equal(stx.transaction.actions.length, actions.length);
  t.ok(verifySignature(stx.hash, stx.signature, stx.transaction.publicKey), 'near-api-js signatures verify');
});

t.test('bad bytes are typed errors, never crashes', async (t) => {
  const good = fromBase64(VECTOR);
  const cases: [string, Uint8Array][] = [
    ['empty', new Uint8Array(0)],
    ['truncated', good.subarray(0, good.length - 10)],
    ['trailing', Uint8Array.from([...good, 0])],
    ['v1', Uint8Array.from([1, 5, ...good])],
    ['garbage', Uint8Array.from({ length: 300 }, (_, i) => (i * 37) & 0xff)],
  ];
  for (const [name, bytes] of cases)
    t.throws(() => decodeSignedTransaction(bytes), TransactionDecodeError, name);
  const badAction = Uint8Array.from(good);
  badAction[good.indexOf(3, 95)] = 42;
  t.throws(() => decodeSignedTransaction(badAction), TransactionDecodeError, 'unknown action variant');
});

t.test('TransactionV1: a version byte, the nonce as TransactionNonce, the nonce mode last', async (t) => {
  const v0 = decodeSignedTransaction(fromBase64(VECTOR));
  const v0Tx = encodeSignedTransaction(v0.transaction, v0.signature).subarray(0, -65);
  const strict = { ...v0.transaction, version: 1 as const, nonceMode: 'Strict' as const };
  const bytes = encodeSignedTransaction(strict, v0.signature);
  // nearcore's layout: 1 ‖ signer ‖ public key ‖ Nonce{nonce} (tag 0) ‖ receiver ‖ block hash ‖
  // actions ‖ nonce_mode (Strict = 1) — the V0 fields with the tag before the nonce.
  const nonceAt = 4 + 'alice.test.near'.length + 33;
  t.same(
    bytes.subarray(0, bytes.length - 65),
    Uint8Array.from([1, ...v0Tx.subarray(0, nonceAt), 0, ...v0Tx.subarray(nonceAt), 1]),
  );
  const back = decodeSignedTransaction(bytes);
  t.equal(back.transaction.version, 1);
  t.equal(back.transaction.nonceMode, 'Strict');
  t.equal(back.transaction.nonce, 5n);
  t.same(back.transaction.actions, v0.transaction.actions);
  t.equal(
    base58Encode(back.hash),
    base58Encode(
      createHash('sha256')
        .update(bytes.subarray(0, bytes.length - 65))
        .digest(),
    ),
    'the hash covers the version byte and the mode',
  );
  const view = signedTransactionView(back) as Record<string, unknown>;
  t.equal(Object.keys(view).at(-1), 'nonce_mode');
  t.equal(view.nonce_mode, 'strict');
  const monotonic = encodeSignedTransaction({ ...strict, nonceMode: 'Monotonic' }, v0.signature);
  const mv = signedTransactionView(decodeSignedTransaction(monotonic)) as Record<string, unknown>;
  t.notOk('nonce_mode' in mv, 'the default mode is not named');
  t.equal(monotonic.at(-66), 0, 'Monotonic is 0');
});

t.test('a V1 GasKeyNonce: tag 1, the nonce, then the u16 index; its view names the index', async (t) => {
  const v0 = decodeSignedTransaction(fromBase64(VECTOR));
  const bytes = encodeSignedTransaction({ ...v0.transaction, version: 1, nonceIndex: 513 }, v0.signature);
  const nonceAt = 1 + 4 + 'alice.test.near'.length + 33;
  t.same([...bytes.subarray(nonceAt, nonceAt + 11)], [1, 5, 0, 0, 0, 0, 0, 0, 0, 1, 2]);
  const back = decodeSignedTransaction(bytes);
  t.equal(back.transaction.nonceIndex, 513);
  t.equal(back.transaction.nonce, 5n);
  t.same(encodeSignedTransaction(back.transaction, back.signature), bytes);
  const view = signedTransactionView(back) as Record<string, unknown>;
  t.equal(view.nonce_index, 513);
  t.notOk('nonce_mode' in view);
  t.notOk('nonce_index' in (signedTransactionView(v0) as object), 'a plain nonce has no index');
  const badTag = Uint8Array.from(bytes);
  badTag[nonceAt] = 2;
  t.throws(() => decodeSignedTransaction(badTag), TransactionDecodeError, 'a third TransactionNonce');
});

t.test('V1 refusals: an unknown mode, an unknown version tag', async (t) => {
  const v0 = decodeSignedTransaction(fromBase64(VECTOR));
  const bytes = encodeSignedTransaction({ ...v0.transaction, version: 1 }, v0.signature);
  const badMode = Uint8Array.from(bytes);
  badMode[badMode.length - 66] = 2;
  t.throws(() => decodeSignedTransaction(badMode), TransactionDecodeError, 'a third nonce mode');
  // nearcore's test_deserialize_invalid_version_tag.
  t.throws(() => decodeSignedTransaction(Uint8Array.from([2, 5, 0, 0, 0, 0, 0, 0])), {
    name: 'TransactionDecodeError',
    message: /invalid transaction version tag: 2/,
  });
});
