// Signature checks: ed25519 as ed25519-dalek's verify decides (../ed25519_verify.ts); secp256k1 by
// @noble/curves (NEAR's r ‖ s ‖ v over the 32-byte hash); ML-DSA-65 (FIPS 204, empty context, as
// near-crypto's aws-lc verifies it) by @noble/post-quantum.
import { ed25519Curve, mlDsa65Scheme, secp256k1Curve } from '../curves.js';
import { ed25519Verify } from '../ed25519_verify.js';
import { KeyType, type PublicKey, type Signature } from '../public_key.js';

export function verifySignature(message: Uint8Array, signature: Signature, publicKey: PublicKey): boolean {
  if (signature.keyType !== publicKey.keyType) return false;
  try {
    if (publicKey.keyType === KeyType.ED25519) return ed25519Verify(message, signature.data, publicKey.data);
    if (publicKey.keyType === KeyType.MLDSA65)
      return mlDsa65Scheme().verify(signature.data, message, publicKey.data);
    if (publicKey.keyType !== KeyType.SECP256K1) return false;
    const uncompressed = new Uint8Array(65);
    uncompressed[0] = 4;
    uncompressed.set(publicKey.data, 1);
    return secp256k1Curve().verify(signature.data.subarray(0, 64), message, uncompressed, {
      prehash: false,
      format: 'compact',
    });
  } catch {
    return false;
  }
}

/**
 * near-crypto's is_valid_staking_key: an ed25519 key that decompresses to a torsion-free point (so
 * it converts to the Ristretto key a validator's VRF uses); never a secp256k1 or ML-DSA-65 one.
 */
export function isValidStakingKey(pk: PublicKey): boolean {
  if (pk.keyType !== KeyType.ED25519) return false;
  try {
    // zip215: curve25519-dalek's decompress reads y modulo p, as ZIP-215 does.
    return ed25519Curve().Point.fromBytes(pk.data, true).isTorsionFree();
  } catch {
    return false;
  }
}
