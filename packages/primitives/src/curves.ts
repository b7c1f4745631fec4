// @noble's signature schemes, each loaded on first use: their precomputation at import is start-up
// time most nodes never need. One copy of each for the transaction checks here and the VM's host
// functions.
import { createRequire } from 'node:module';
import type { ed25519 as Ed25519 } from '@noble/curves/ed25519.js';
import type { p256 as P256 } from '@noble/curves/nist.js';
import type { secp256k1 as Secp256k1 } from '@noble/curves/secp256k1.js';
import type { ml_dsa65 as MlDsa65 } from '@noble/post-quantum/ml-dsa.js';
import { lazy } from './lazy.js';

const load = createRequire(import.meta.url);

export const ed25519Curve = lazy(
  () => (load('@noble/curves/ed25519.js') as { ed25519: typeof Ed25519 }).ed25519,
);

export const secp256k1Curve = lazy(
  () => (load('@noble/curves/secp256k1.js') as { secp256k1: typeof Secp256k1 }).secp256k1,
);

/** secp256r1, for NEP-635's `p256_verify`. */
export const p256Curve = lazy(() => (load('@noble/curves/nist.js') as { p256: typeof P256 }).p256);

/** ML-DSA-65 (FIPS 204), for PostQuantumSignatures. */
export const mlDsa65Scheme = lazy(
  () => (load('@noble/post-quantum/ml-dsa.js') as { ml_dsa65: typeof MlDsa65 }).ml_dsa65,
);
