import { readFileSync } from 'node:fs';
import {
  ed25519Verifier,
  ed25519Verify,
  isSmallOrderEncoding,
  KeyType,
  verifySignature,
} from '@nearlite/primitives';
import t from 'tap';

const hex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s, 'hex'));
const key = (data: Uint8Array) => ({ keyType: KeyType.ED25519, data });
const sig = (data: Uint8Array) => ({ keyType: KeyType.ED25519, data });

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

t.test("edge cases get ed25519-dalek verify's verdict, whatever OpenSSL the runtime carries", async (t) => {
  const [pk, msg, s] = RFC8032[0];
  // S + ℓ: the same point equation, a non-canonical scalar; dalek refuses it.
  const L = (1n << 252n) + 27742317777372353535851937790883648493n;
  const bytes = hex(s);
  let scalar = 0n;
  for (let i = 31; i >= 0; i--) scalar = (scalar << 8n) | BigInt(bytes[32 + i]!);
  scalar += L;
  for (let i = 0; i < 32; i++, scalar >>= 8n) bytes[32 + i] = Number(scalar & 0xffn);
  t.notOk(verifySignature(hex(msg), sig(bytes), key(hex(pk))), 'non-canonical S is refused');

  // The identity as key, R the identity and S = 0: the cofactorless equation holds for any message.
  // libsodium and OpenSSL 3.5 refuse small-order keys; ed25519-dalek's verify (nearcore's) accepts.
  const identity = new Uint8Array(32);
  identity[0] = 1;
  const zeroSig = new Uint8Array(64);
  zeroSig[0] = 1;
  t.ok(verifySignature(hex('01'), sig(zeroSig), key(identity)), 'accepted, as dalek accepts it');
  t.ok(ed25519Verify(hex('02'), zeroSig, identity), 'for any message');
  const other = zeroSig.slice();
  other[32] = 1;
  t.notOk(ed25519Verify(hex('01'), other, identity), 'S = 1 gives R = B, not the identity');
});

// The twelve edge cases of "Taming the many EdDSAs" (ed25519-speccheck), with the verdicts its table
// gives for ed25519-dalek's verify: small-order keys and R, mixed-order points, S out of range,
// non-canonical R and A, each hashed as given or reduced.
const SPECCHECK = JSON.parse(
  readFileSync(new URL('./fixtures/ed25519_speccheck.json', import.meta.url), 'utf8'),
) as { verdicts: Record<string, string>; cases: { message: string; pub_key: string; signature: string }[] };

t.test("ed25519-speccheck's twelve cases get dalek's verdicts", async (t) => {
  const verdicts = SPECCHECK.cases
    .map((c) => (verifySignature(hex(c.message), sig(hex(c.signature)), key(hex(c.pub_key))) ? 'V' : 'X'))
    .join('');
  t.equal(verdicts, SPECCHECK.verdicts.Dalek);
  t.equal(verdicts, 'VVVVXXXXXXXV');
});

t.test('libsodium refuses what the table says it refuses, so its no is never the last word', async (t) => {
  const sodium = (await import('sodium-native')).default as {
    crypto_sign_verify_detached(s: Uint8Array, m: Uint8Array, k: Uint8Array): boolean;
  };
  const verdicts = SPECCHECK.cases
    .map((c) =>
      sodium.crypto_sign_verify_detached(hex(c.signature), hex(c.message), hex(c.pub_key)) ? 'V' : 'X',
    )
    .join('');
  t.equal(verdicts, SPECCHECK.verdicts.LibSodium);
});

t.test('the small-order encodings are the eight points of small order, as dalek reads them', async (t) => {
  const { ed25519 } = await import('@noble/curves/ed25519.js');
  const { Point } = ed25519;
  const p = (1n << 255n) - 19n;
  const le = (x: bigint) => Uint8Array.from({ length: 32 }, (_, i) => Number((x >> BigInt(8 * i)) & 0xffn));
  // Every y below 2^255 that decodes to a point of small order, each with both sign bits.
  const order8 = Point.fromBytes(
    hex('26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05'),
    true,
  );
  const ys = new Set<bigint>();
  for (let i = 0, q = Point.ZERO; i < 8; i++, q = q.add(order8)) {
    const y = q.toAffine().y;
    ys.add(y);
    if (y + p < 1n << 255n) ys.add(y + p);
  }
  t.equal(ys.size, 7, 'five y values and two non-canonical ones');
  for (const y of ys)
    for (const sign of [0, 0x80]) {
      const b = le(y);
      b[31]! |= sign;
      t.ok(isSmallOrderEncoding(b), `y = ${y}, sign ${sign >> 7}`);
    }
  for (let i = 2n; i < 8n; i++)
    t.notOk(isSmallOrderEncoding(Point.BASE.multiply(i).toBytes()), `[${i}]B, of the prime-order group`);
  t.notOk(isSmallOrderEncoding(hex(RFC8032[0][0])), 'an RFC 8032 key');
});
