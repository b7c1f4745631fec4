// BLS12-381 point encodings as nearcore reads and writes them through blst (the ZCash format):
// field elements are 48-byte big-endian integers below p, an Fp2 element c0 + c1·u is c1 ‖ c0,
// an uncompressed point is x ‖ y, a compressed one is x with its top three bits as flags
// (0x80 compressed, 0x40 infinity, 0x20 "y is the lexicographically larger root"), and the point
// at infinity is 0x40 followed by zeros. Decoding accepts any point on the curve: subgroup checks
// are left to the host functions that need them.
import { createRequire } from 'node:module';
import { lazy } from '@nearlite/primitives';
import type { bls12_381 as Bls12381 } from '@noble/curves/bls12-381.js';

type Bls = typeof Bls12381;
export type G1Point = InstanceType<Bls['G1']['Point']>;
export type G2Point = InstanceType<Bls['G2']['Point']>;
type Fp2 = { c0: bigint; c1: bigint };

/** The curve, loaded on first use: its towers and tables cost start-up time few contracts need. */
export const bls = lazy(
  () => (createRequire(import.meta.url)('@noble/curves/bls12-381.js') as { bls12_381: Bls }).bls12_381,
);

export const FP_SIZE = 48;

/** What nearcore needs of one curve (E over Fp for G1, its twist over Fp2 for G2). */
export interface Curve<F, P> {
  /** Fp elements per coordinate: 1 or 2. */
  readonly degree: number;
  field(): {
    is0(a: F): boolean;
    eql(a: F, b: F): boolean;
    add(a: F, b: F): F;
    mul(a: F, b: F): F;
    sqr(a: F): F;
    neg(a: F): F;
  };
  b(): F;
  zero(): P;
  fromAffine(x: F, y: F): P;
  toAffine(p: P): { x: F; y: F } | null;
  /** Coordinates from Fp limbs in encoding order, and back. */
  fromLimbs(limbs: readonly bigint[]): F;
  toLimbs(v: F): bigint[];
  /** A square root, or null when there is none (blst's BLST_POINT_NOT_ON_CURVE). */
  sqrt(a: F): F | null;
  /** blst's sgn0 "sign" bit: the coordinate is the larger of ±y. */
  isLarger(y: F): boolean;
}

const pHalf = lazy(() => (bls().fields.Fp.ORDER - 1n) / 2n);
const pQuarter = lazy(() => (bls().fields.Fp.ORDER + 1n) / 4n);

// p ≡ 3 (mod 4): a^((p+1)/4) is a root of a whenever a has one; one exponentiation decides both.
function fpSqrt(a: bigint): bigint | null {
  const Fp = bls().fields.Fp;
  const r = Fp.pow(a, pQuarter());
  return Fp.eql(Fp.sqr(r), a) ? r : null;
}

export const G1: Curve<bigint, G1Point> = {
  degree: 1,
  field: () => bls().fields.Fp,
  b: () => 4n,
  zero: () => bls().G1.Point.ZERO,
  fromAffine: (x, y) => bls().G1.Point.fromAffine({ x, y }),
  toAffine: (p) => (p.is0() ? null : p.toAffine()),
  fromLimbs: (l) => l[0]!,
  toLimbs: (v) => [v],
  sqrt: fpSqrt,
  isLarger: (y) => y > pHalf(),
};

export const G2: Curve<Fp2, G2Point> = {
  degree: 2,
  field: () => bls().fields.Fp2,
  b: () => ({ c0: 4n, c1: 4n }),
  zero: () => bls().G2.Point.ZERO,
  fromAffine: (x, y) => bls().G2.Point.fromAffine({ x, y }),
  toAffine: (p) => (p.is0() ? null : p.toAffine()),
  fromLimbs: (l) => ({ c1: l[0]!, c0: l[1]! }),
  toLimbs: (v) => [v.c1, v.c0],
  // u² = −1: an element of Fp2 is a square exactly when its norm c0² + c1² is one in Fp (noble's
  // Fp2 square root throws on non-squares, so that is checked first).
  sqrt: (a) => {
    const Fp = bls().fields.Fp;
    if (fpSqrt(Fp.add(Fp.sqr(a.c0), Fp.sqr(a.c1))) === null) return null;
    return bls().fields.Fp2.sqrt(a);
  },
  isLarger: (y) => (y.c1 !== 0n ? y.c1 > pHalf() : y.c0 > pHalf()),
};

function beToBig(raw: Uint8Array): bigint {
  let v = 0n;
  for (const b of raw) v = (v << 8n) | BigInt(b);
  return v;
}

function bigToBe(v: bigint, out: Uint8Array, offset: number): void {
  for (let i = FP_SIZE - 1; i >= 0; i--) {
    out[offset + i] = Number(v & 0xffn);
    v >>= 8n;
  }
}

/** `count` consecutive field elements; null if one is not below p (blst's BLST_BAD_ENCODING). */
export function readLimbs(raw: Uint8Array, count: number): bigint[] | null {
  const p = bls().fields.Fp.ORDER;
  const out: bigint[] = [];
  for (let i = 0; i < count; i++) {
    const v = beToBig(raw.subarray(i * FP_SIZE, (i + 1) * FP_SIZE));
    if (v >= p) return null;
    out.push(v);
  }
  return out;
}

function restIsZero(raw: Uint8Array): boolean {
  if ((raw[0]! & 0x3f) !== 0) return false;
  for (let i = 1; i < raw.length; i++) if (raw[i] !== 0) return false;
  return true;
}

/**
 * A decoded point, and whether blst called it BLST_POINT_NOT_IN_GROUP: it does so, on decoding,
 * only for points with x = 0 (G1's (0, ±2)), whatever their order, and for no others.
 */
export interface Decoded<P> {
  readonly point: P;
  readonly xIsZero: boolean;
}

/** blst's uncompressed decoding (`blst_p1_deserialize`/`blst_p2_deserialize`) of x ‖ y. */
export function deserialize<F, P>(c: Curve<F, P>, raw: Uint8Array): Decoded<P> | null {
  const flags = raw[0]! & 0xe0;
  if (flags === 0x40) return restIsZero(raw) ? { point: c.zero(), xIsZero: false } : null;
  if (flags !== 0) return null;
  const limbs = readLimbs(raw, 2 * c.degree);
  if (limbs === null) return null;
  const x = c.fromLimbs(limbs.slice(0, c.degree));
  const y = c.fromLimbs(limbs.slice(c.degree));
  const F = c.field();
  if (!F.eql(F.sqr(y), F.add(F.mul(F.sqr(x), x), c.b()))) return null;
  return { point: c.fromAffine(x, y), xIsZero: F.is0(x) };
}

/** blst's compressed decoding (`blst_p1_uncompress`/`blst_p2_uncompress`) of flagged x. */
export function uncompress<F, P>(c: Curve<F, P>, raw: Uint8Array): Decoded<P> | null {
  const in0 = raw[0]!;
  if ((in0 & 0x80) === 0) return null;
  if ((in0 & 0x40) !== 0) return restIsZero(raw) ? { point: c.zero(), xIsZero: false } : null;
  const bare = raw.slice();
  bare[0] = in0 & 0x1f;
  const limbs = readLimbs(bare, c.degree);
  if (limbs === null) return null;
  const x = c.fromLimbs(limbs);
  const F = c.field();
  const root = c.sqrt(F.add(F.mul(F.sqr(x), x), c.b()));
  if (root === null) return null;
  const y = c.isLarger(root) === ((in0 & 0x20) !== 0) ? root : F.neg(root);
  return { point: c.fromAffine(x, y), xIsZero: F.is0(x) };
}

/** `blst_p*_affine_serialize`: x ‖ y, or 0x40 and zeros for the point at infinity. */
export function serialize<F, P>(c: Curve<F, P>, p: P): Uint8Array {
  const out = new Uint8Array(2 * c.degree * FP_SIZE);
  const a = c.toAffine(p);
  if (a === null) {
    out[0] = 0x40;
    return out;
  }
  const limbs = [...c.toLimbs(a.x), ...c.toLimbs(a.y)];
  for (const [i, v] of limbs.entries()) bigToBe(v, out, i * FP_SIZE);
  return out;
}
