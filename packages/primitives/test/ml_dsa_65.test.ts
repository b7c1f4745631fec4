// ML-DSA-65 keys (PostQuantumSignatures): near-crypto's known-answer public key, the trie handle as
// nearcore defines it (sha3-256 of the domain tag and the key, computed here with node:crypto), the
// string and borsh forms of both, and signature checks.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  BorshReader,
  BorshWriter,
  base58Encode,
  formatPublicKey,
  formatSignature,
  isValidStakingKey,
  KeyType,
  parsePublicKey,
  parsePublicKeyHandle,
  publicKeyHandle,
  publicKeyTrieIdLength,
  readPublicKey,
  readPublicKeyHandle,
  readSignature,
  verifySignature,
  writePublicKey,
  writeSignature,
} from '@nearlite/primitives';
import { ml_dsa65 } from '@noble/post-quantum/ml-dsa.js';
import t from 'tap';

// near-crypto's test_ml_dsa_65_known_answer: the key of the seed "kat-seed-v1", padded with spaces
// to 32 bytes (its ml_dsa_65_seed_bytes_from_str).
const KAT_PUBKEY = readFileSync(
  new URL('./fixtures/ml_dsa_65_kat_pubkey.txt', import.meta.url),
  'utf8',
).trim();

function seed(text: string): Uint8Array {
  const out = new Uint8Array(32).fill(0x20);
  out.set(new TextEncoder().encode(text).subarray(0, 32));
  return out;
}

const handleOf = (pk: Uint8Array): Uint8Array =>
  new Uint8Array(createHash('sha3-256').update('near:ml-dsa-65-pubkey-hash:v1').update(pk).digest());

t.test('the known-answer key parses, formats back and keeps its 1,952 bytes', async (t) => {
  const pk = parsePublicKey(KAT_PUBKEY);
  t.equal(pk.keyType, KeyType.MLDSA65);
  t.equal(pk.data.length, 1952);
  t.equal(formatPublicKey(pk), KAT_PUBKEY);
  // FIPS 204 key generation from the same seed gives the same key as aws-lc does for nearcore.
  t.equal(
    formatPublicKey({ keyType: KeyType.MLDSA65, data: ml_dsa65.keygen(seed('kat-seed-v1')).publicKey }),
    KAT_PUBKEY,
  );
  const w = new BorshWriter();
  writePublicKey(w, pk);
  const bytes = w.toBytes();
  t.equal(bytes.length, 1953);
  t.equal(bytes[0], 2, 'borsh tag 2');
  t.same(readPublicKey(new BorshReader(bytes)), pk);
  t.throws(() => readPublicKeyHandle(new BorshReader(bytes)), /unknown public key handle type 2/);
});

t.test('the trie handle is the domain-separated sha3-256 of the key, tag 3', async (t) => {
  const pk = parsePublicKey(KAT_PUBKEY);
  const h = publicKeyHandle(pk);
  t.equal(h.keyType, KeyType.MLDSA65_HASH);
  t.same(h.data, handleOf(pk.data));
  t.equal(publicKeyTrieIdLength(pk), 33);
  const text = formatPublicKey(h);
  t.equal(text, `ml-dsa-65-hash:${base58Encode(handleOf(pk.data))}`);
  t.same(parsePublicKeyHandle(text), h);
  t.throws(
    () => parsePublicKey(text),
    /unknown key type 'ml-dsa-65-hash'/,
    'not a key a transaction carries',
  );
  t.throws(() => parsePublicKeyHandle(KAT_PUBKEY), /use the `ml-dsa-65-hash:` form/);
  const w = new BorshWriter();
  writePublicKey(w, h);
  const bytes = w.toBytes();
  t.same(bytes, Uint8Array.of(3, ...handleOf(pk.data)));
  t.same(readPublicKeyHandle(new BorshReader(bytes)), h);
  t.throws(() => readPublicKey(new BorshReader(bytes)), /unknown key type '3'/);

  const ed = parsePublicKey('ed25519:6E8sCci9badyRkXb3JoRpBj5p8C6Tw41ELDZoiihKEtp');
  t.equal(publicKeyHandle(ed), ed, 'a classical key is its own handle');
  t.equal(publicKeyTrieIdLength(ed), 33);
  t.equal(publicKeyTrieIdLength(parsePublicKey(`secp256k1:${base58Encode(new Uint8Array(64).fill(1))}`)), 65);
});

t.test('wrong lengths and unknown types are refused with near-crypto-style messages', async (t) => {
  t.throws(
    () => parsePublicKey(`ml-dsa-65:${base58Encode(new Uint8Array(32))}`),
    /length 32 for ml-dsa-65, expected 1952/,
  );
  t.throws(() => parsePublicKeyHandle(`ml-dsa-65-hash:${base58Encode(new Uint8Array(33))}`), /expected 32/);
  t.throws(
    () => parsePublicKey(`ml-dsa-87:${base58Encode(new Uint8Array(32))}`),
    /unknown key type 'ml-dsa-87'/,
  );
  t.throws(() => readSignature(new BorshReader(Uint8Array.of(3, 0))), /unknown key type '3'/);
});

t.test('signatures verify over the message and nothing else', async (t) => {
  const kp = ml_dsa65.keygen(seed('nearlite-signer'));
  const pk = { keyType: KeyType.MLDSA65, data: kp.publicKey } as const;
  const message = new Uint8Array(createHash('sha256').update('a transaction').digest());
  const sig = { keyType: KeyType.MLDSA65, data: ml_dsa65.sign(message, kp.secretKey) } as const;
  t.equal(sig.data.length, 3309);
  t.ok(verifySignature(message, sig, pk));
  t.match(formatSignature(sig), /^ml-dsa-65:/);
  const w = new BorshWriter();
  writeSignature(w, sig);
  const bytes = w.toBytes();
  t.equal(bytes.length, 3310);
  t.same(readSignature(new BorshReader(bytes)), sig);

  const other = new Uint8Array(message);
  other[0]! ^= 1;
  t.notOk(verifySignature(other, sig, pk), 'another message');
  const bent = new Uint8Array(sig.data);
  bent[100]! ^= 1;
  t.notOk(verifySignature(message, { ...sig, data: bent }, pk), 'a changed signature');
  const stranger = ml_dsa65.keygen(seed('someone else')).publicKey;
  t.notOk(verifySignature(message, sig, { ...pk, data: stranger }), 'another key');
  t.notOk(verifySignature(message, { ...sig, keyType: KeyType.ED25519 }, pk), 'types that differ');
});

t.test('only an ed25519 key on the prime-order subgroup can stake', async (t) => {
  t.ok(isValidStakingKey(parsePublicKey('ed25519:6E8sCci9badyRkXb3JoRpBj5p8C6Tw41ELDZoiihKEtp')));
  t.notOk(isValidStakingKey(parsePublicKey(KAT_PUBKEY)));
  t.notOk(isValidStakingKey({ keyType: KeyType.SECP256K1, data: new Uint8Array(64).fill(1) }));
  // The point of order 2 (y = -1) decompresses but has torsion: near-crypto refuses it.
  const orderTwo = new Uint8Array(32).fill(0xff);
  orderTwo[0] = 0xec;
  orderTwo[31] = 0x7f;
  t.notOk(isValidStakingKey({ keyType: KeyType.ED25519, data: orderTwo }));
  // y = 2 is not on the curve.
  const offCurve = new Uint8Array(32);
  offCurve[0] = 2;
  t.notOk(isValidStakingKey({ keyType: KeyType.ED25519, data: offCurve }));
});

t.test("an ed25519 signature near-crypto's decoder refuses: a top bit of its last byte set", async (t) => {
  // core/crypto/src/signature.rs: no canonical signature has any of them.
  for (const last of [0x20, 0x40, 0x80, 0xff]) {
    const bytes = new Uint8Array(65);
    bytes[64] = last;
    t.throws(() => readSignature(new BorshReader(bytes)), /^signature error$/, `last byte ${last}`);
  }
  const bytes = new Uint8Array(65);
  bytes[64] = 0x1f;
  t.equal(readSignature(new BorshReader(bytes)).data[63], 0x1f, 'the bits below them are no concern');
});
