// The bls12381_* host functions with nearcore's semantics (near-vm-runner logic/bls12381.rs, which
// uses blst). Input whose length is not a whole number of items is a BLS12381InvalidInput host
// error; any malformed item (bad flags, coordinate ≥ p, point off the curve, point outside the
// subgroup where one is required, sign byte other than 0/1) makes the function return 1 and leave
// the register alone; success writes the register and returns 0. The pairing check returns 0 when
// the product is one, 2 when it is not, and 1 for malformed input.
import type { ExtCost } from '../config.js';
import { HostError } from '../errors.js';
import type { VMLogic } from '../logic.js';
import {
  bls,
  type Curve,
  deserialize,
  FP_SIZE,
  G1,
  type G1Point,
  G2,
  type G2Point,
  readLimbs,
  serialize,
  uncompress,
} from './bls12381_codec.js';

interface GroupPoint<P> {
  add(other: P): P;
  negate(): P;
  multiplyUnsafe(scalar: bigint): P;
  isTorsionFree(): boolean;
  is0(): boolean;
}

const SCALAR_SIZE = 32;
const PAIR_SIZE = 2 * FP_SIZE + 4 * FP_SIZE;

function checkInputSize(data: Uint8Array, itemSize: number, fnName: string): void {
  if (data.length % itemSize !== 0) {
    throw new HostError({
      BLS12381InvalidInput: {
        msg: `Incorrect input length for ${fnName}: ${data.length} is not divisible by ${itemSize}`,
      },
    });
  }
}

function* items(data: Uint8Array, size: number): Generator<Uint8Array> {
  for (let o = 0; o < data.length; o += size) yield data.subarray(o, o + size);
}

/**
 * nearcore's `parse_p`: an uncompressed point, the compressed flag refused. Without the NEP-488
 * fix (`bls12381_not_in_group_fix`) the points with x = 0 are refused too.
 */
function parse<F, P>(c: Curve<F, P>, raw: Uint8Array, fix: boolean): P | null {
  if ((raw[0]! & 0x80) !== 0) return null;
  const d = deserialize(c, raw);
  if (d === null || (d.xIsZero && !fix)) return null;
  return d.point;
}

function pointSize<F, P>(c: Curve<F, P>): number {
  return 2 * c.degree * FP_SIZE;
}

function sum<F, P extends GroupPoint<P>>(c: Curve<F, P>, name: string) {
  return (data: Uint8Array, fix: boolean): Uint8Array | null => {
    const size = 1 + pointSize(c);
    checkInputSize(data, size, name);
    let acc = c.zero();
    for (const item of items(data, size)) {
      const p = parse(c, item.subarray(1), fix);
      if (p === null) return null;
      const sign = item[0]!;
      if (sign > 1) return null;
      acc = acc.add(sign === 1 ? p.negate() : p);
    }
    return serialize(c, acc);
  };
}

function multiexp<F, P extends GroupPoint<P>>(c: Curve<F, P>, name: string) {
  return (data: Uint8Array, fix: boolean): Uint8Array | null => {
    const size = pointSize(c) + SCALAR_SIZE;
    checkInputSize(data, size, name);
    const r = bls().fields.Fr.ORDER;
    let acc = c.zero();
    for (const item of items(data, size)) {
      const p = parse(c, item.subarray(0, pointSize(c)), fix);
      if (p === null || (!p.is0() && !p.isTorsionFree())) return null;
      // A little-endian 256-bit scalar; on a point of order r only its residue matters.
      let s = 0n;
      for (let i = size - 1; i >= pointSize(c); i--) s = (s << 8n) | BigInt(item[i]!);
      acc = acc.add(p.multiplyUnsafe(s % r));
    }
    return serialize(c, acc);
  };
}

function decompress<F, P>(c: Curve<F, P>, name: string) {
  return (data: Uint8Array, fix: boolean): Uint8Array | null => {
    const size = c.degree * FP_SIZE;
    checkInputSize(data, size, name);
    const out = new Uint8Array(2 * data.length);
    let o = 0;
    for (const item of items(data, size)) {
      const d = uncompress(c, item);
      if (d === null || (d.xIsZero && !fix)) return null;
      out.set(serialize(c, d.point), o);
      o += 2 * size;
    }
    return out;
  };
}

function mapToCurve<F, P>(c: Curve<F, P>, name: string, map: (limbs: bigint[]) => P) {
  return (data: Uint8Array): Uint8Array | null => {
    const size = c.degree * FP_SIZE;
    checkInputSize(data, size, name);
    const out = new Uint8Array(2 * data.length);
    let o = 0;
    for (const item of items(data, size)) {
      const limbs = readLimbs(item, c.degree);
      if (limbs === null) return null;
      out.set(serialize(c, map(limbs)), o);
      o += 2 * size;
    }
    return out;
  };
}

/**
 * nearcore's `bls12381_impl`: the element cost is counted from the declared length before the
 * input is read (so a register input, length u64::MAX, overflows the gas counter), and only a
 * success touches the register.
 */
function run(
  l: VMLogic,
  value_len: bigint,
  value_ptr: bigint,
  register_id: bigint,
  costs: [ExtCost, ExtCost],
  itemSize: number,
  op: (data: Uint8Array, fix: boolean) => Uint8Array | null,
): bigint {
  l.gas.payBase(costs[0]);
  l.gas.payPer(costs[1], value_len / BigInt(itemSize));
  const data = l.read(value_ptr, value_len);
  const res = op(data, l.config.bls12381_not_in_group_fix);
  if (res === null) return 1n;
  l.setRegister(register_id, res);
  return 0n;
}

const p1Sum = sum(G1, 'bls12381_p1_sum');
const p2Sum = sum(G2, 'bls12381_p2_sum');
const g1Multiexp = multiexp(G1, 'bls12381_p1_multiexp');
const g2Multiexp = multiexp(G2, 'bls12381_p2_multiexp');
const p1Decompress = decompress(G1, 'bls12381_p1_decompress');
const p2Decompress = decompress(G2, 'bls12381_p2_decompress');
// noble types mapToCurve as returning an affine point of an array of scalars; at run time it
// returns a projective point with its cofactor cleared, and takes G1's single scalar bare.
const mapFpToG1 = mapToCurve(G1, 'bls12381_map_fp_to_g1', ([u]) =>
  (bls().G1.mapToCurve as unknown as (u: bigint) => G1Point)(u!),
);
const mapFp2ToG2 = mapToCurve(G2, 'bls12381_map_fp2_to_g2', ([c1, c0]) =>
  (bls().G2.mapToCurve as unknown as (u: bigint[]) => G2Point)([c0!, c1!]),
);

export const bls12381_p1_sum = (l: VMLogic, len: bigint, ptr: bigint, reg: bigint): bigint =>
  run(l, len, ptr, reg, ['bls12381_p1_sum_base', 'bls12381_p1_sum_element'], 97, p1Sum);

export const bls12381_p2_sum = (l: VMLogic, len: bigint, ptr: bigint, reg: bigint): bigint =>
  run(l, len, ptr, reg, ['bls12381_p2_sum_base', 'bls12381_p2_sum_element'], 193, p2Sum);

export const bls12381_g1_multiexp = (l: VMLogic, len: bigint, ptr: bigint, reg: bigint): bigint =>
  run(l, len, ptr, reg, ['bls12381_g1_multiexp_base', 'bls12381_g1_multiexp_element'], 128, g1Multiexp);

export const bls12381_g2_multiexp = (l: VMLogic, len: bigint, ptr: bigint, reg: bigint): bigint =>
  run(l, len, ptr, reg, ['bls12381_g2_multiexp_base', 'bls12381_g2_multiexp_element'], 224, g2Multiexp);

export const bls12381_map_fp_to_g1 = (l: VMLogic, len: bigint, ptr: bigint, reg: bigint): bigint =>
  run(l, len, ptr, reg, ['bls12381_map_fp_to_g1_base', 'bls12381_map_fp_to_g1_element'], 48, mapFpToG1);

export const bls12381_map_fp2_to_g2 = (l: VMLogic, len: bigint, ptr: bigint, reg: bigint): bigint =>
  run(l, len, ptr, reg, ['bls12381_map_fp2_to_g2_base', 'bls12381_map_fp2_to_g2_element'], 96, mapFp2ToG2);

export const bls12381_p1_decompress = (l: VMLogic, len: bigint, ptr: bigint, reg: bigint): bigint =>
  run(l, len, ptr, reg, ['bls12381_p1_decompress_base', 'bls12381_p1_decompress_element'], 48, p1Decompress);

export const bls12381_p2_decompress = (l: VMLogic, len: bigint, ptr: bigint, reg: bigint): bigint =>
  run(l, len, ptr, reg, ['bls12381_p2_decompress_base', 'bls12381_p2_decompress_element'], 96, p2Decompress);

/** A pairing operand: uncompressed, exactly valid (x = 0 refused whatever the fix), in the subgroup. */
function pairingOperand<F, P extends GroupPoint<P>>(c: Curve<F, P>, raw: Uint8Array): P | null {
  if ((raw[0]! & 0x80) !== 0) return null;
  const d = deserialize(c, raw);
  if (d === null || d.xIsZero) return null;
  return d.point.is0() || d.point.isTorsionFree() ? d.point : null;
}

/** Unlike the others, nearcore counts its elements from the bytes actually read. */
export function bls12381_pairing_check(l: VMLogic, value_len: bigint, value_ptr: bigint): bigint {
  l.gas.payBase('bls12381_pairing_base');
  const data = l.read(value_ptr, value_len);
  l.gas.payPer('bls12381_pairing_element', BigInt(Math.floor(data.length / PAIR_SIZE)));
  checkInputSize(data, PAIR_SIZE, 'bls12381_pairing_check');
  const pairs: { g1: G1Point; g2: G2Point }[] = [];
  for (const item of items(data, PAIR_SIZE)) {
    const g1 = pairingOperand(G1, item.subarray(0, pointSize(G1)));
    if (g1 === null) return 1n;
    const g2 = pairingOperand(G2, item.subarray(pointSize(G1)));
    if (g2 === null) return 1n;
    // e(O, Q) = e(P, O) = 1: such a pair leaves the product unchanged.
    if (!g1.is0() && !g2.is0()) pairs.push({ g1, g2 });
  }
  if (pairs.length === 0) return 0n;
  const c = bls();
  return c.fields.Fp12.eql(c.pairingBatch(pairs), c.fields.Fp12.ONE) ? 0n : 2n;
}
