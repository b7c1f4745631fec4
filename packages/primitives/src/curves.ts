// @noble/curves' ed25519 and secp256k1, loaded on first use: their precomputation at import is start-up
// time most nodes never need. One copy for the transaction checks here and the VM's host functions.
import { createRequire } from 'node:module';
import type { ed25519 as Ed25519 } from '@noble/curves/ed25519.js';
import type { secp256k1 as Secp256k1 } from '@noble/curves/secp256k1.js';
import { lazy } from './lazy.js';

const load = createRequire(import.meta.url);

export const ed25519Curve = lazy(
  () => (load('@noble/curves/ed25519.js') as { ed25519: typeof Ed25519 }).ed25519,
);

export const secp256k1Curve = lazy(
  () => (load('@noble/curves/secp256k1.js') as { secp256k1: typeof Secp256k1 }).secp256k1,
);
