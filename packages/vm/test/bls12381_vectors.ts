// Loads nearcore's bls12381 test vectors (fixtures/bls12381, copied from near-vm-runner's
// src/logic/tests/bls12381_test_vectors) and converts their EIP-2537 encodings to nearcore's the
// way nearcore's tests do: field elements lose their 16 bytes of zero padding, Fp2 elements swap
// to c1 ‖ c0, scalars turn little-endian, and the all-zero point becomes 0x40 followed by zeros.
import { readFileSync } from 'node:fs';

export interface Vector {
  readonly input: Uint8Array;
  readonly output: Uint8Array;
}

const dir = new URL('./fixtures/bls12381/', import.meta.url);

export function hex(s: string): Uint8Array {
  return Uint8Array.from(Buffer.from(s, 'hex'));
}

/** `input,result` rows of a CSV vector file. */
export function csv(name: string): Vector[] {
  const lines = readFileSync(new URL(name, dir), 'utf8').split('\n').slice(1);
  return lines
    .filter((l) => l.trim() !== '')
    .map((l) => {
      // Error files put a quoted message where the result would be.
      const [input, output = ''] = l.trim().split(',');
      return { input: hex(input!), output: /^[0-9a-f]*$/.test(output) ? hex(output) : new Uint8Array(0) };
    });
}

/** `precompile_data` entries of a JSON vector file. */
export function json(name: string): Vector[] {
  const doc = JSON.parse(readFileSync(new URL(name, dir), 'utf8')) as {
    precompile_data: { input: string; output: string }[];
  };
  return doc.precompile_data.map((v) => ({ input: hex(v.input), output: hex(v.output) }));
}

const cat = (parts: Uint8Array[]): Uint8Array => Uint8Array.from(parts.flatMap((p) => [...p]));

export const fp = (b: Uint8Array): Uint8Array => b.slice(16, 64);
export const fp2 = (b: Uint8Array): Uint8Array => cat([fp(b.subarray(64, 128)), fp(b.subarray(0, 64))]);

function withInfinityFlag(p: Uint8Array): Uint8Array {
  if (p.every((b) => b === 0)) p[0] = 0x40;
  return p;
}

export const g1 = (b: Uint8Array): Uint8Array =>
  withInfinityFlag(cat([fp(b.subarray(0, 64)), fp(b.subarray(64, 128))]));
export const g2 = (b: Uint8Array): Uint8Array =>
  withInfinityFlag(cat([fp2(b.subarray(0, 128)), fp2(b.subarray(128, 256))]));
export const scalar = (b: Uint8Array): Uint8Array => b.slice().reverse();

/** Splits `b` into items of `size` bytes, converts each with `f`, and joins them. */
export function each(b: Uint8Array, size: number, f: (item: Uint8Array) => Uint8Array): Uint8Array {
  const out: Uint8Array[] = [];
  for (let o = 0; o < b.length; o += size) out.push(f(b.subarray(o, o + size)));
  return cat(out);
}

export const join = cat;
