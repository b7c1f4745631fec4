// Virtual guest memory, so one pre-allocated memory can serve call after call.
//
// nearcore gives every call a fresh memory of `initial_memory_pages` that the contract may grow to
// `max_memory_pages`. Allocating 64 MiB per call costs V8 milliseconds and a garbage collection
// under external-memory pressure, and a grown memory can never shrink back. So the host instead
// imports a memory that is already `max_memory_pages` large, and preparation rewrites each memory
// instruction against a virtual size kept in globals:
// - loads and stores trap with a real out-of-bounds access past the virtual size, exactly where a
//   memory of that size would;
// - memory.size reads the virtual page count and memory.grow moves it, up to the maximum;
// - stores (and memory.fill/copy/init) record how far into the initial pages they wrote, so the
//   host zeroes only that and the grown pages before handing the memory to the next call, and
//   where the lowest of them began, so a kept instance gets back only that part of its data image.
// None of the injected code is metered: gas is still charged per original instruction.
import { Reader, Sink } from './bytes.js';

export const PAGE = 65536;

/** Globals and functions the rewritten bodies refer to. */
export interface MemoryGuard {
  readonly pagesGlobal: number;
  readonly limitGlobal: number;
  readonly lowGlobal: number;
  /** Start of the lowest write into the initial pages (their size while nothing is written). */
  readonly minGlobal: number;
  readonly checkFunc: number;
  readonly growFunc: number;
}

/** Scratch locals each instrumented body declares: four i32, one i64, one f32, one f64. */
export interface GuardLocals {
  readonly addr: number;
  readonly i32: number;
  readonly len: number;
  readonly i64: number;
  readonly f32: number;
  readonly f64: number;
}

/** Access width and value type of loads (0x28–0x35) and stores (0x36–0x3e). */
const WIDTH = [4, 8, 4, 8, 1, 1, 2, 2, 1, 1, 2, 2, 4, 4, 4, 8, 4, 8, 1, 2, 1, 2, 4];
const STORE_TYPE = [0x7f, 0x7e, 0x7d, 0x7c, 0x7f, 0x7f, 0x7e, 0x7e, 0x7e];

/** A real out-of-bounds load: the trap V8 reports for it is the one nearcore reports. */
function emitTrap(out: Sink): void {
  out.byte(0x41).byte(0x7f).byte(0x28).byte(0x02).byte(0x00).byte(0x1a);
}

function storeLocal(t: number, l: GuardLocals): number {
  if (t === 0x7f) return l.i32;
  if (t === 0x7e) return l.i64;
  return t === 0x7d ? l.f32 : l.f64;
}

/** Whether the instruction at body[at] touches memory: loads, stores, memory.* (0xfc 8, 10, 11). */
export function isGuarded(body: Uint8Array, at: number): boolean {
  const op = body[at]!;
  if (op >= 0x28 && op <= 0x40) return true;
  if (op !== 0xfc) return false;
  const sub = new Reader(body, at + 1).u32();
  return sub === 8 || sub === 10 || sub === 11;
}

/**
 * Writes the replacement for the memory instruction at body[at..end), one `isGuarded` admits.
 * Operands are parked in scratch locals, checked, and pushed back for the original instruction.
 */
export function guardInstruction(
  body: Uint8Array,
  at: number,
  end: number,
  g: MemoryGuard,
  l: GuardLocals,
  out: Sink,
): void {
  const op = body[at]!;
  const original = body.subarray(at, end);
  if (op >= 0x28 && op <= 0x35) {
    const r = new Reader(body, at + 1, end);
    r.u32();
    const offset = r.u32();
    out
      .byte(0x22)
      .u32(l.addr)
      .byte(0xad)
      .byte(0x42)
      .sleb(BigInt(offset + WIDTH[op - 0x28]!))
      .byte(0x7c);
    out.byte(0x23).u32(g.limitGlobal).byte(0x56).byte(0x04).byte(0x40);
    emitTrap(out);
    out.byte(0x0b).byte(0x20).u32(l.addr).bytes(original);
    return;
  }
  if (op >= 0x36 && op <= 0x3e) {
    const r = new Reader(body, at + 1, end);
    r.u32();
    const offset = r.u32();
    const v = storeLocal(STORE_TYPE[op - 0x36]!, l);
    out.byte(0x21).u32(v).byte(0x22).u32(l.addr);
    out
      .byte(0x42)
      .sleb(BigInt(offset))
      .byte(0x42)
      .sleb(BigInt(WIDTH[op - 0x28]!));
    out.byte(0x10).u32(g.checkFunc).byte(0x20).u32(l.addr).byte(0x20).u32(v).bytes(original);
    return;
  }
  if (op === 0x3f) {
    out.byte(0x23).u32(g.pagesGlobal);
    return;
  }
  if (op === 0x40) {
    out.byte(0x10).u32(g.growFunc);
    return;
  }
  const sub = new Reader(body, at + 1, end).u32();
  // memory.init (8), memory.copy (10), memory.fill (11): operands [dest, src-or-value, len].
  out.byte(0x21).u32(l.len).byte(0x21).u32(l.i32).byte(0x22).u32(l.addr);
  out.byte(0x42).byte(0x00).byte(0x20).u32(l.len).byte(0xad).byte(0x10).u32(g.checkFunc);
  if (sub === 10) {
    out.byte(0x20).u32(l.i32).byte(0xad).byte(0x20).u32(l.len).byte(0xad).byte(0x7c);
    out.byte(0x23).u32(g.limitGlobal).byte(0x56).byte(0x04).byte(0x40);
    emitTrap(out);
    out.byte(0x0b);
  }
  out.byte(0x20).u32(l.addr).byte(0x20).u32(l.i32).byte(0x20).u32(l.len).bytes(original);
}

/** Function types of the two helpers, appended to the type section: check, then grow. */
export function helperTypes(): Uint8Array {
  return new Sink()
    .bytes(Uint8Array.of(0x60, 3, 0x7f, 0x7e, 0x7e, 0))
    .bytes(Uint8Array.of(0x60, 1, 0x7f, 1, 0x7f))
    .toBytes();
}

/** Code-section entries (size-prefixed) of the helpers: check(addr, offset, len), grow(pages). */
export function helperBodies(g: MemoryGuard, initialPages: number, maxPages: number): Uint8Array {
  const init = BigInt(initialPages * PAGE);
  // check: locals 3 = start, 4 = end (i64). Trap past the virtual size; note where writes that start
  // in the initial pages end (clipped to them: grown pages are zeroed whole) and begin.
  const check = new Sink().u32(1).u32(2).byte(0x7e);
  check.byte(0x20).u32(0).byte(0xad).byte(0x20).u32(1).byte(0x7c).byte(0x22).u32(3);
  check.byte(0x20).u32(2).byte(0x7c).byte(0x22).u32(4);
  check.byte(0x23).u32(g.limitGlobal).byte(0x56).byte(0x04).byte(0x40);
  emitTrap(check);
  check.byte(0x0b);
  check.byte(0x20).u32(3).byte(0x42).sleb(init).byte(0x54).byte(0x04).byte(0x40);
  check.byte(0x20).u32(4).byte(0x42).sleb(init).byte(0x20).u32(4).byte(0x42).sleb(init).byte(0x54).byte(0x1b);
  check.byte(0x22).u32(4).byte(0xa7).byte(0x23).u32(g.lowGlobal).byte(0x4b).byte(0x04).byte(0x40);
  check.byte(0x20).u32(4).byte(0xa7).byte(0x24).u32(g.lowGlobal).byte(0x0b);
  check.byte(0x20).u32(3).byte(0xa7).byte(0x23).u32(g.minGlobal).byte(0x49).byte(0x04).byte(0x40);
  check.byte(0x20).u32(3).byte(0xa7).byte(0x24).u32(g.minGlobal).byte(0x0b);
  check.byte(0x0b).byte(0x0b);
  // grow: -1 past the maximum, else the old page count; the byte limit follows the page count.
  const grow = new Sink().u32(0);
  grow.byte(0x20).u32(0).byte(0x41).sleb(BigInt(maxPages)).byte(0x23).u32(g.pagesGlobal).byte(0x6b);
  grow.byte(0x4b).byte(0x04).byte(0x40).byte(0x41).byte(0x7f).byte(0x0f).byte(0x0b);
  grow.byte(0x23).u32(g.pagesGlobal);
  grow.byte(0x23).u32(g.pagesGlobal).byte(0x20).u32(0).byte(0x6a).byte(0x24).u32(g.pagesGlobal);
  grow
    .byte(0x23)
    .u32(g.pagesGlobal)
    .byte(0xad)
    .byte(0x42)
    .byte(0x10)
    .byte(0x86)
    .byte(0x24)
    .u32(g.limitGlobal);
  grow.byte(0x0b);
  const c = check.toBytes();
  const gr = grow.toBytes();
  return new Sink().u32(c.length).bytes(c).u32(gr.length).bytes(gr).toBytes();
}

/** Globals the guard adds: the virtual page count, the byte limit and the two write marks. */
export const GUARD_GLOBALS = 4;

/** Globals (type, mutability, init) for the virtual page count, byte limit and write marks. */
export function guardGlobals(initialPages: number): Uint8Array {
  return new Sink()
    .byte(0x7f)
    .byte(0x01)
    .byte(0x41)
    .sleb(BigInt(initialPages))
    .byte(0x0b)
    .byte(0x7e)
    .byte(0x01)
    .byte(0x42)
    .sleb(BigInt(initialPages * PAGE))
    .byte(0x0b)
    .byte(0x7f)
    .byte(0x01)
    .byte(0x41)
    .byte(0x00)
    .byte(0x0b)
    .byte(0x7f)
    .byte(0x01)
    .byte(0x41)
    .sleb(BigInt(initialPages * PAGE))
    .byte(0x0b)
    .toBytes();
}
