import { createPublicKey, verify } from 'node:crypto';
import { ed25519Verifier, KeyType, verifySignature } from '@nearlite/primitives';
import t from 'tap';

const hex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s, 'hex'));
const key = (data: Uint8Array) => ({ keyType: KeyType.ED25519, data });
const sig = (data: Uint8Array) => ({ keyType: KeyType.ED25519, data });

/** What node:crypto (OpenSSL), the only verifier before libsodium answered first, says. */
function openssl(message: Uint8Array, signature: Uint8Array, publicKey: Uint8Array): boolean {
  const der = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), publicKey]);
  return verify(null, message, createPublicKey({ key: der, format: 'der', type: 'spki' }), signature);
}

// RFC 8032 §7.1, TEST 1–3: public key, message, signature.
const RFC8032 = [
  [
    'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
    '',
    'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
  ],
  [
    '3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c',
    '72',
    '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00',
  ],
  [
    'fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025',
    'af82',
    '6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a',
  ],
] as const;

t.test('libsodium answers ed25519 checks first (sodium-native has a linux-x64 binary)', async (t) => {
  t.equal(ed25519Verifier(), 'libsodium');
});

t.test('RFC 8032 signatures verify; changed bytes do not', async (t) => {
  for (const [pk, msg, s] of RFC8032) {
    t.ok(verifySignature(hex(msg), sig(hex(s)), key(hex(pk))), `TEST with message "${msg}"`);
    const other = hex(s);
    other[10] = other[10]! ^ 1;
    t.notOk(verifySignature(hex(msg), sig(other), key(hex(pk))), 'a changed R');
    t.notOk(verifySignature(hex(`${msg}00`), sig(hex(s)), key(hex(pk))), 'another message');
  }
});

t.test('edge cases get the verdict node:crypto gave before libsodium answered first', async (t) => {
  const [pk, msg, s] = RFC8032[0];
  // S + ℓ: the same point equation, a non-canonical scalar; both libraries and nearcore refuse it.
  const L = (1n << 252n) + 27742317777372353535851937790883648493n;
  const bytes = hex(s);
  let scalar = 0n;
  for (let i = 31; i >= 0; i--) scalar = (scalar << 8n) | BigInt(bytes[32 + i]!);
  scalar += L;
  for (let i = 0; i < 32; i++, scalar >>= 8n) bytes[32 + i] = Number(scalar & 0xffn);
  t.equal(verifySignature(hex(msg), sig(bytes), key(hex(pk))), openssl(hex(msg), bytes, hex(pk)));
  t.notOk(verifySignature(hex(msg), sig(bytes), key(hex(pk))), 'non-canonical S is refused');

  // The identity as key, R the identity and S = 0: the cofactorless equation holds for any message.
  // libsodium refuses small-order keys, OpenSSL (and ed25519-dalek's verify, nearcore's) accept it:
  // the verdict stays OpenSSL's.
  const identity = new Uint8Array(32);
  identity[0] = 1;
  const zeroSig = new Uint8Array(64);
  zeroSig[0] = 1;
  const m = hex('01');
  t.equal(verifySignature(m, sig(zeroSig), key(identity)), openssl(m, zeroSig, identity));
  t.ok(verifySignature(m, sig(zeroSig), key(identity)), 'accepted, as OpenSSL accepts it');
});
