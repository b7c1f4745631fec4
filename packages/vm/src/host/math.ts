// Math API: hashes, signature checks and the random seed. The curves are @noble's, loaded by primitives.

import { ed25519Verify, p256Curve, secp256k1Curve, sha256 as sha256Hash } from '@nearlite/primitives';
import type { p256 as P256 } from '@noble/curves/nist.js';
import { ripemd160 as ripemd160Hash } from '@noble/hashes/legacy.js';
import { keccak_256, keccak_512 } from '@noble/hashes/sha3.js';
import type { ExtCost } from '../config.js';
import { HostError } from '../errors.js';
import type { VMLogic } from '../logic.js';

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

export function random_seed(l: VMLogic, register_id: bigint): void {
  l.gas.payBase('base');
  l.setRegister(register_id, l.context.random_seed);
}

function hashInto(
  l: VMLogic,
  base: ExtCost,
  perByte: ExtCost,
  fn: (d: Uint8Array) => Uint8Array,
  len: bigint,
  ptr: bigint,
  register_id: bigint,
): void {
  l.gas.payBase(base);
  const value = l.read(ptr, len);
  l.gas.payPer(perByte, BigInt(value.length));
  l.setRegister(register_id, fn(value));
}

export function sha256(l: VMLogic, value_len: bigint, value_ptr: bigint, register_id: bigint): void {
  hashInto(l, 'sha256_base', 'sha256_byte', sha256Hash, value_len, value_ptr, register_id);
}

export function keccak256(l: VMLogic, value_len: bigint, value_ptr: bigint, register_id: bigint): void {
  hashInto(l, 'keccak256_base', 'keccak256_byte', keccak_256, value_len, value_ptr, register_id);
}

export function keccak512(l: VMLogic, value_len: bigint, value_ptr: bigint, register_id: bigint): void {
  hashInto(l, 'keccak512_base', 'keccak512_byte', keccak_512, value_len, value_ptr, register_id);
}

export function ripemd160(l: VMLogic, value_len: bigint, value_ptr: bigint, register_id: bigint): void {
  l.gas.payBase('ripemd160_base');
  const value = l.read(value_ptr, value_len);
  // RIPEMD-160 pads with 9+ bytes into 64-byte blocks; nearcore charges per block.
  const blocks = BigInt(Math.floor((value.length + 8) / 64) + 1);
  l.gas.payPer('ripemd160_block', blocks);
  l.setRegister(register_id, ripemd160Hash(value));
}

function beToBig(b: Uint8Array): bigint {
  let v = 0n;
  for (const x of b) v = (v << 8n) | BigInt(x);
  return v;
}

export function ecrecover(
  l: VMLogic,
  hash_len: bigint,
  hash_ptr: bigint,
  sig_len: bigint,
  sig_ptr: bigint,
  v: bigint,
  malleability_flag: bigint,
  register_id: bigint,
): bigint {
  l.gas.payBase('ecrecover_base');
  const sig = l.read(sig_ptr, sig_len);
  if (sig.length !== 64) {
    throw new HostError({
      ECRecoverError: { msg: `The length of the signature: ${sig.length}, exceeds the limit of 64 bytes` },
    });
  }
  if (v >= 4n) {
    throw new HostError({
      ECRecoverError: { msg: `V recovery byte 0 through 3 are valid but was provided ${v}` },
    });
  }
  const hash = l.read(hash_ptr, hash_len);
  if (hash.length !== 32) {
    throw new HostError({
      ECRecoverError: { msg: `The length of the hash: ${hash.length}, exceeds the limit of 32 bytes` },
    });
  }
  if (malleability_flag !== 0n && malleability_flag !== 1n) {
    throw new HostError({
      ECRecoverError: { msg: `Malleability flag needs to be 0 or 1, but is instead ${malleability_flag}` },
    });
  }
  const r = beToBig(sig.subarray(0, 32));
  const s = beToBig(sig.subarray(32, 64));
  const sOk = malleability_flag === 1n ? s < SECP256K1_N / 2n + 1n : s < SECP256K1_N;
  if (!(r < SECP256K1_N && sOk) || r === 0n || s === 0n) return 0n;
  let pk: Uint8Array;
  try {
    const point = new (secp256k1Curve().Signature)(r, s).addRecoveryBit(Number(v)).recoverPublicKey(hash);
    pk = point.toBytes(false).subarray(1);
  } catch {
    return 0n;
  }
  l.setRegister(register_id, pk);
  return 1n;
}

export function ed25519_verify(
  l: VMLogic,
  sig_len: bigint,
  sig_ptr: bigint,
  msg_len: bigint,
  msg_ptr: bigint,
  pub_key_len: bigint,
  pub_key_ptr: bigint,
): bigint {
  l.gas.payBase('ed25519_verify_base');
  const sig = l.read(sig_ptr, sig_len);
  if (sig.length !== 64)
    throw new HostError({ Ed25519VerifyInvalidInput: { msg: 'invalid signature length' } });
  // ed25519-dalek 1.x rejected these before verifying; nearcore keeps the check so costs do not change.
  if ((sig[63]! & 0b1110_0000) !== 0) return 0n;
  const msg = l.read(msg_ptr, msg_len);
  l.gas.payPer('ed25519_verify_byte', BigInt(msg.length));
  const pk = l.read(pub_key_ptr, pub_key_len);
  if (pk.length !== 32)
    throw new HostError({ Ed25519VerifyInvalidInput: { msg: 'invalid public key length' } });
  // ed25519-dalek's verify, as for transactions: cofactorless, small-order keys and R allowed.
  return ed25519Verify(msg, sig, pk) ? 1n : 0n;
}

/** RustCrypto's bits2field: a digest under 16 bytes is refused, a shorter one left-padded, a longer one cut. */
function p256Digest(message: Uint8Array): Uint8Array | null {
  if (message.length < 16) return null;
  if (message.length >= 32) return message.subarray(0, 32);
  const out = new Uint8Array(32);
  out.set(message, 32 - message.length);
  return out;
}

/**
 * A 33-byte SEC1 key as the p256 crate reads it: compressed (0x02, 0x03), or compact (0x05: the point
 * of that x whose y is the smaller of y and p − y). Anything else is no key.
 */
function p256Key(bytes: Uint8Array): InstanceType<typeof P256.Point> | null {
  const tag = bytes[0];
  if (tag !== 0x02 && tag !== 0x03 && tag !== 0x05) return null;
  try {
    const compressed = Uint8Array.from(bytes);
    if (tag === 0x05) compressed[0] = 0x02;
    const point = p256Curve().Point.fromBytes(compressed);
    if (tag !== 0x05) return point;
    const { y } = point.toAffine();
    return y <= p256Curve().Point.Fp.ORDER - y ? point : point.negate();
  } catch {
    return null;
  }
}

/**
 * NEP-635's secp256r1 check of a prehashed message, as nearcore's (p256 0.13): a 64-byte r ‖ s (high
 * s accepted) and a 33-byte key; a malformed signature answers 0 before the message and key are read.
 */
export function p256_verify(
  l: VMLogic,
  sig_len: bigint,
  sig_ptr: bigint,
  msg_len: bigint,
  msg_ptr: bigint,
  pub_key_len: bigint,
  pub_key_ptr: bigint,
): bigint {
  l.gas.payBase('p256_verify_base');
  const sig = l.read(sig_ptr, sig_len);
  if (sig.length !== 64) throw new HostError({ P256VerifyInvalidInput: { msg: 'invalid signature length' } });
  const n = p256Curve().Point.Fn.ORDER;
  const r = beToBig(sig.subarray(0, 32));
  const s = beToBig(sig.subarray(32));
  if (r === 0n || s === 0n || r >= n || s >= n) return 0n;
  const msg = l.read(msg_ptr, msg_len);
  l.gas.payPer('p256_verify_byte', BigInt(msg.length));
  const pk = l.read(pub_key_ptr, pub_key_len);
  if (pk.length !== 33) throw new HostError({ P256VerifyInvalidInput: { msg: 'invalid public key length' } });
  const key = p256Key(pk);
  const digest = p256Digest(msg);
  if (key === null || digest === null) return 0n;
  try {
    return p256Curve().verify(sig, digest, key.toBytes(true), { prehash: false, lowS: false }) ? 1n : 0n;
  } catch {
    return 0n;
  }
}
