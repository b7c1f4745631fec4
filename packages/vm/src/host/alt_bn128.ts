// alt_bn128 (BN254) host functions with nearcore's encodings (near-vm-runner logic/alt_bn128.rs):
// field elements are 32-byte little-endian integers, G1 = x ‖ y, G2 = x ‖ y over Fq2 (real ‖
// imaginary), (0, 0) is the point at infinity. Gas: a base cost plus a cost per element.
import { createRequire } from 'node:module';
import { lazy, uintLE } from '@nearlite/primitives';
import type { bn254 as Bn254 } from '@noble/curves/bn254.js';
import { HostError } from '../errors.js';
import type { VMLogic } from '../logic.js';

type G1Point = InstanceType<typeof Bn254.G1.Point>;
type G2Point = InstanceType<typeof Bn254.G2.Point>;

/**
 * The curve, loaded on first use: building its tower at import costs ~100 ms, which a node's
 * start-up (and every view worker's) need not pay for a host function few contracts call.
 */
const bn254 = lazy(
  () => (createRequire(import.meta.url)('@noble/curves/bn254.js') as { bn254: typeof Bn254 }).bn254,
);

function invalid(msg: string, raw: Uint8Array): HostError {
  const bytes = [...raw].map((b) => b.toString(16).toUpperCase()).join(', ');
  return new HostError({ AltBn128InvalidInput: { msg: `${msg}: [${bytes}]` } });
}

function le32(v: bigint): Uint8Array {
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

function fq(raw: Uint8Array): bigint {
  const v = uintLE(raw);
  if (v >= bn254().fields.Fp.ORDER) throw invalid('invalid fq', raw);
  return v;
}

function decodeG1(raw: Uint8Array): G1Point {
  const x = fq(raw.subarray(0, 32));
  const y = fq(raw.subarray(32, 64));
  if (x === 0n && y === 0n) return bn254().G1.Point.ZERO;
  try {
    const p = bn254().G1.Point.fromAffine({ x, y });
    p.assertValidity();
    return p;
  } catch {
    throw invalid('invalid g1', raw);
  }
}

function decodeG2(raw: Uint8Array): G2Point {
  const x = { c0: fq(raw.subarray(0, 32)), c1: fq(raw.subarray(32, 64)) };
  const y = { c0: fq(raw.subarray(64, 96)), c1: fq(raw.subarray(96, 128)) };
  if (x.c0 === 0n && x.c1 === 0n && y.c0 === 0n && y.c1 === 0n) return bn254().G2.Point.ZERO;
  try {
    const p = bn254().G2.Point.fromAffine({ x, y });
    p.assertValidity();
    return p;
  } catch {
    throw invalid('invalid g2', raw);
  }
}

function encodeG1(p: G1Point): Uint8Array {
  const out = new Uint8Array(64);
  if (p.is0()) return out;
  const a = p.toAffine();
  out.set(le32(a.x), 0);
  out.set(le32(a.y), 32);
  return out;
}

function split(data: Uint8Array, size: number): Uint8Array[] {
  if (data.length % size !== 0) {
    throw new HostError({
      AltBn128InvalidInput: {
        msg: `slice of size ${data.length} cannot be precisely split into chunks of size ${size}`,
      },
    });
  }
  const out: Uint8Array[] = [];
  for (let o = 0; o < data.length; o += size) out.push(data.subarray(o, o + size));
  return out;
}

export function alt_bn128_g1_multiexp(
  l: VMLogic,
  value_len: bigint,
  value_ptr: bigint,
  register_id: bigint,
): void {
  l.gas.payBase('alt_bn128_g1_multiexp_base');
  const elements = split(l.read(value_ptr, value_len), 96);
  l.gas.payPer('alt_bn128_g1_multiexp_element', BigInt(elements.length));
  let acc = bn254().G1.Point.ZERO;
  for (const e of elements) {
    const p = decodeG1(e.subarray(0, 64));
    const s = uintLE(e.subarray(64, 96));
    if (s >= bn254().fields.Fr.ORDER) throw invalid('invalid fr', e.subarray(64, 96));
    if (s !== 0n && !p.is0()) acc = acc.add(p.multiplyUnsafe(s));
  }
  l.setRegister(register_id, encodeG1(acc));
}

export function alt_bn128_g1_sum(
  l: VMLogic,
  value_len: bigint,
  value_ptr: bigint,
  register_id: bigint,
): void {
  l.gas.payBase('alt_bn128_g1_sum_base');
  const elements = split(l.read(value_ptr, value_len), 65);
  l.gas.payPer('alt_bn128_g1_sum_element', BigInt(elements.length));
  let acc = bn254().G1.Point.ZERO;
  for (const e of elements) {
    const sign = e[0]!;
    if (sign > 1) throw invalid('invalid bool', e.subarray(0, 1));
    const p = decodeG1(e.subarray(1, 65));
    acc = sign === 1 ? acc.subtract(p) : acc.add(p);
  }
  l.setRegister(register_id, encodeG1(acc));
}

export function alt_bn128_pairing_check(l: VMLogic, value_len: bigint, value_ptr: bigint): bigint {
  l.gas.payBase('alt_bn128_pairing_check_base');
  const elements = split(l.read(value_ptr, value_len), 192);
  l.gas.payPer('alt_bn128_pairing_check_element', BigInt(elements.length));
  const pairs = elements
    .map((e) => ({ g1: decodeG1(e.subarray(0, 64)), g2: decodeG2(e.subarray(64, 192)) }))
    .filter((p) => !p.g1.is0() && !p.g2.is0());
  if (pairs.length === 0) return 1n;
  const c = bn254();
  return c.fields.Fp12.eql(c.pairingBatch(pairs), c.fields.Fp12.ONE) ? 1n : 0n;
}
