// ed25519 verdicts as nearcore gives them, for transactions and for the `ed25519_verify` host function:
// ed25519-dalek's `verify` after `VerifyingKey::from_bytes`. That is the cofactorless check that R's
// bytes equal the canonical encoding of [S]B − [k]A, with S canonical, the key decompressed leniently
// (y taken modulo p, a negative zero allowed) and k = SHA-512(R ‖ A ‖ M) over the bytes as given.
//
// libsodium answers first where it loads: it checks the same equation on the same bytes and refuses
// more besides, so what it accepts dalek accepts. OpenSSL decides the rest, except where the key or R
// is a point of small order. There OpenSSL's answer depends on its release (3.0, in Node 20, accepts
// as dalek does; 3.5, in Node 24, refuses), so those few are computed here, with @noble's points.
import { createHash, createPublicKey, type KeyObject, verify as nodeVerify } from 'node:crypto';
import { ed25519Curve } from './curves.js';
import { bytesEqual, fromHex, toHex } from './hash.js';
import { uintLE } from './ints.js';
import { sodium } from './sodium.js';

const SPKI_ED25519_PREFIX = Uint8Array.from([
  0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00,
]);

/** The group's order ℓ. */
const L = (1n << 252n) + 27742317777372353535851937790883648493n;

/**
 * The encodings, sign bit cleared, that decompress to one of the eight points of small order: y = 1,
 * 0, −1 and the two of order 8, and y = p and p + 1, which dalek reads as 0 and 1 (libsodium's list).
 */
const SMALL_ORDER = [
  '0100000000000000000000000000000000000000000000000000000000000000',
  '0000000000000000000000000000000000000000000000000000000000000000',
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05',
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a',
  'edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
  'eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
].map(fromHex);

/** Whether 32 bytes, read as a point, are one of small order. */
export function isSmallOrderEncoding(b: Uint8Array): boolean {
  for (const e of SMALL_ORDER) {
    let i = 0;
    while (i < 31 && b[i] === e[i]) i++;
    if (i === 31 && ((b[31] ?? 0) & 0x7f) === e[31]) return true;
  }
  return false;
}

const keyObjects = new Map<string, KeyObject>();
const KEY_CACHE_LIMIT = 50_000;

function ed25519KeyObject(raw: Uint8Array): KeyObject {
  const k = toHex(raw);
  let ko = keyObjects.get(k);
  if (!ko) {
    const der = new Uint8Array(SPKI_ED25519_PREFIX.length + 32);
    der.set(SPKI_ED25519_PREFIX);
    der.set(raw, SPKI_ED25519_PREFIX.length);
    ko = createPublicKey({ key: Buffer.from(der), format: 'der', type: 'spki' });
    if (keyObjects.size >= KEY_CACHE_LIMIT) keyObjects.clear();
    keyObjects.set(k, ko);
  }
  return ko;
}

/** dalek's `verify`, step by step: for the signatures whose key or R has small order. */
function cofactorless(message: Uint8Array, signature: Uint8Array, publicKey: Uint8Array): boolean {
  const s = uintLE(signature.subarray(32));
  if (s >= L) return false;
  const { Point } = ed25519Curve();
  let a: InstanceType<typeof Point>;
  try {
    a = Point.fromBytes(publicKey, true);
  } catch {
    return false;
  }
  const r = signature.subarray(0, 32);
  const k = uintLE(createHash('sha512').update(r).update(publicKey).update(message).digest()) % L;
  const expected = Point.BASE.multiplyUnsafe(s).subtract(a.multiplyUnsafe(k)).toBytes();
  return bytesEqual(expected, r);
}

/** nearcore's verdict on a 64-byte ed25519 signature of `message` by a 32-byte key; false for other lengths. */
export function ed25519Verify(message: Uint8Array, signature: Uint8Array, publicKey: Uint8Array): boolean {
  if (signature.length !== 64 || publicKey.length !== 32) return false;
  const s = sodium();
  if (s?.crypto_sign_verify_detached(signature, message, publicKey)) return true;
  if (isSmallOrderEncoding(publicKey) || isSmallOrderEncoding(signature.subarray(0, 32)))
    return cofactorless(message, signature, publicKey);
  try {
    return nodeVerify(null, message, ed25519KeyObject(publicKey), signature);
  } catch {
    return false;
  }
}

/** Which library answers an ed25519 check first (libsodium's no is never the last word). */
export function ed25519Verifier(): 'libsodium' | 'node:crypto' {
  return sodium() === null ? 'node:crypto' : 'libsodium';
}
