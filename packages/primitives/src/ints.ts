// Fixed-width integers written into byte arrays without a DataView. Making a DataView over a small
// new typed array costs ~1 µs in V8 (it moves the array's bytes off the heap), fifteen times writing
// the eight bytes here; keys by height and refcounts are written for every row.

const TWO_32 = 4294967296;

/**
 * Writes the u64 `n` at `at`: a safe non-negative integer, or any bigint taken modulo 2^64 (two's
 * complement for a negative one, as DataView's setBigUint64 and setBigInt64 write it).
 */
export function setU64(out: Uint8Array, at: number, n: number | bigint, littleEndian: boolean): void {
  let hi: number;
  let lo: number;
  if (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0) {
    hi = Math.floor(n / TWO_32);
    lo = n >>> 0;
  } else {
    const b = BigInt.asUintN(64, BigInt(n));
    hi = Number(b >> 32n);
    lo = Number(b & 0xffffffffn);
  }
  if (littleEndian) {
    setU32(out, at, lo, true);
    setU32(out, at + 4, hi, true);
  } else {
    setU32(out, at, hi, false);
    setU32(out, at + 4, lo, false);
  }
}

/** Writes the u32 `n` (taken modulo 2^32) at `at`. */
export function setU32(out: Uint8Array, at: number, n: number, littleEndian: boolean): void {
  const v = n >>> 0;
  if (littleEndian) {
    out[at] = v & 0xff;
    out[at + 1] = (v >>> 8) & 0xff;
    out[at + 2] = (v >>> 16) & 0xff;
    out[at + 3] = v >>> 24;
  } else {
    out[at] = v >>> 24;
    out[at + 1] = (v >>> 16) & 0xff;
    out[at + 2] = (v >>> 8) & 0xff;
    out[at + 3] = v & 0xff;
  }
}

/** The unsigned integer whose little-endian bytes these are, of any width. */
export function uintLE(b: Uint8Array): bigint {
  let v = 0n;
  for (let i = b.length - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[i]!);
  return v;
}
