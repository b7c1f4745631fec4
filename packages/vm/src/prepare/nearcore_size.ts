// The byte length of the module nearcore's instrument_v3 writes for a contract, which nearcore caps
// with max_instrumented_code_size (InstrumentedCodeTooLarge). nearlite instruments differently, so it
// measures the module nearcore would have written instead: wasm_encoder re-encodes every section
// with minimal LEBs, shifts function indices by the three functions instrument_v3 imports, copies
// the table, data count and data sections and the bodies' own instructions as they are, and adds its
// globals, imports, exports and per-function code. These are the sizes of those pieces.
import type { Reader } from './bytes.js';
import { type Features, readInstruction } from './opcodes.js';

/** Functions instrument_v3 imports ahead of the contract's own. */
export const INJECTED_FUNCTIONS = 3;

export function lebSize(n: number): number {
  let size = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 128);
    size++;
  }
  return size;
}

export function slebSize(v: bigint): number {
  let size = 1;
  while (v >= 64n || v < -64n) {
    v >>= 7n;
    size++;
  }
  return size;
}

export function sectionSize(content: number): number {
  return 1 + lebSize(content) + content;
}

export function nameSize(byteLength: number): number {
  return lebSize(byteLength) + byteLength;
}

/** Reads a signed LEB128 as a bigint. */
function readSleb(r: Reader): bigint {
  let v = 0n;
  let shift = 0n;
  for (;;) {
    const b = r.u8();
    v |= BigInt(b & 0x7f) << shift;
    shift += 7n;
    if ((b & 0x80) === 0) return b & 0x40 ? v - (1n << shift) : v;
  }
}

/** Reads a constant expression; returns its size once re-encoded. */
export function constExprSize(r: Reader, f: Features): number {
  let size = 0;
  for (;;) {
    const at = r.pos;
    const op = r.b[at]!;
    if (op === 0x41 || op === 0x42) {
      r.pos++;
      size += 1 + slebSize(readSleb(r));
      continue;
    }
    if (op === 0xd2) {
      r.pos++;
      size += 1 + lebSize(r.u32() + INJECTED_FUNCTIONS);
      continue;
    }
    if (op === 0x23) {
      r.pos++;
      size += 1 + lebSize(r.u32());
      continue;
    }
    const kind = readInstruction(r, f);
    size += r.pos - at;
    if (kind === 'end') return size;
  }
}

/** A constant gas charge (`Fee::ZERO` writes nothing). */
export function constantChargeSize(gasGlobal: number, fee: bigint): number {
  if (fee === 0n) return 0;
  return 3 * (1 + lebSize(gasGlobal)) + 3 * (1 + slebSize(BigInt.asIntN(64, fee))) + 9;
}

/** The charge before a bulk instruction; `local` is the first local instrument_v3 adds. */
export function linearChargeSize(gasGlobal: number, local: number, base: bigint, unit: bigint): number {
  return (
    2 * (1 + lebSize(local + 1)) +
    3 * (1 + lebSize(local)) +
    3 * (1 + lebSize(gasGlobal)) +
    (1 + slebSize(BigInt.asIntN(64, unit))) +
    (1 + slebSize(BigInt.asIntN(64, base))) +
    34
  );
}

/** Reserving (on entry) or releasing (on return) a function's stack: the same instructions. */
export function stackChargeSize(stackGlobal: number, charge: bigint): number {
  return 2 * (1 + lebSize(stackGlobal)) + 4 + (1 + slebSize(BigInt.asIntN(64, charge))) + 10;
}
