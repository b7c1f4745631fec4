// Rewrites one function body with deterministic metering, so a call burns the same gas everywhere
// and can never run away:
// - gas: at the start of every straight-line segment, subtract `ops × regular_op_cost` from a mutable
//   i64 global and trap (`unreachable`) once it goes negative; the host reads the global to tell an
//   out-of-gas trap from a contract's own trap and to settle the GasCounter around host calls;
// - stack: on entry, subtract the frame size from an i32 global (restored by the caller after each
//   call) and trap once it goes negative, so deep recursion fails deterministically before V8's own
//   native stack limit would.
// Segments start at function entry and after loop/if/else/end/br/br_if/br_table/return/unreachable;
// block/else/end cost nothing, every other instruction one op (finite-wasm's accounting in nearcore).
import { fail, PrepareFailure, Reader, Sink } from './bytes.js';
import { type GuardLocals, guardInstruction, type MemoryGuard } from './memory_guard.js';
import { type Features, type InstrKind, isValType, readInstruction, valTypeSize } from './opcodes.js';

export interface InstrumentContext {
  readonly features: Features;
  readonly opCost: bigint;
  readonly gasGlobal: number;
  readonly stackGlobal: number;
  readonly memory: MemoryGuard;
  /** Locals still allowed across the whole contract (max_locals_per_contract). */
  localBudget: bigint;
  /**
   * Set once a body changes instance state other than memory and globals: a table (table.set,
   * table.grow, table.fill, table.copy, table.init) or a segment (memory.init, data.drop, elem.drop).
   */
  mutatesInstance: boolean;
}

/** The 0xfc-prefixed instructions that change a table or drop a segment. */
const MUTATES_INSTANCE: ReadonlySet<number> = new Set([8, 9, 12, 13, 14, 15, 17]);

const FRAME_OVERHEAD = 64;
const ENDS_SEGMENT: ReadonlySet<InstrKind> = new Set(['loop', 'if', 'else', 'end', 'branch', 'br_if']);

function emitCharge(out: Sink, ctx: InstrumentContext, ops: number): void {
  if (ops === 0) return;
  const g = ctx.gasGlobal;
  out
    .byte(0x23)
    .u32(g)
    .byte(0x42)
    .sleb(BigInt(ops) * ctx.opCost)
    .byte(0x7d)
    .byte(0x24)
    .u32(g);
  out.byte(0x23).u32(g).byte(0x42).byte(0x00).byte(0x53);
  out.byte(0x04).byte(0x40).byte(0x00).byte(0x0b);
}

/** `body` is one code-section entry without its size prefix; returns the rewritten entry. */
export function instrumentBody(
  body: Uint8Array,
  params: readonly number[],
  ctx: InstrumentContext,
): Uint8Array {
  const r = new Reader(body);
  const declCount = r.u32();
  const declStart = r.pos;
  let numLocals = 0;
  let frame = FRAME_OVERHEAD;
  for (const p of params) frame += valTypeSize(p);
  for (let i = 0; i < declCount; i++) {
    const n = r.u32();
    const t = r.u8();
    if (!isValType(t, ctx.features)) fail();
    ctx.localBudget -= BigInt(n);
    if (ctx.localBudget < 0n) throw new PrepareFailure('TooManyLocals');
    numLocals += n;
    frame += n * valTypeSize(t);
  }
  const saved = params.length + numLocals;
  if (saved >= 50000) fail();

  const out = new Sink();
  // Injected locals, outside the contract's local budget and frame size: the saved stack budget and
  // the memory guard's scratch locals.
  out
    .u32(declCount + 4)
    .bytes(body.subarray(declStart, r.pos))
    .u32(4)
    .byte(0x7f)
    .u32(1)
    .byte(0x7e)
    .u32(1)
    .byte(0x7d)
    .u32(1)
    .byte(0x7c);
  const scratch: GuardLocals = {
    addr: saved + 1,
    i32: saved + 2,
    len: saved + 3,
    i64: saved + 4,
    f32: saved + 5,
    f64: saved + 6,
  };
  const s = ctx.stackGlobal;
  out.byte(0x23).u32(s).byte(0x41).sleb(BigInt(frame)).byte(0x6b).byte(0x22).u32(saved).byte(0x24).u32(s);
  out.byte(0x20).u32(saved).byte(0x41).byte(0x00).byte(0x48).byte(0x04).byte(0x40).byte(0x00).byte(0x0b);

  let depth = 0;
  let segStart = r.pos;
  let ops = 0;
  // Edits within the current segment, in order: body[at..end) becomes `bytes`.
  const edits: { at: number; end: number; bytes: Uint8Array }[] = [];
  const restoreStack = new Sink().byte(0x20).u32(saved).byte(0x24).u32(s).toBytes();
  const flush = (end: number): void => {
    emitCharge(out, ctx, ops);
    let from = segStart;
    for (const e of edits) {
      out.bytes(body.subarray(from, e.at)).bytes(e.bytes);
      from = e.end;
    }
    out.bytes(body.subarray(from, end));
    edits.length = 0;
    ops = 0;
    segStart = end;
  };
  for (;;) {
    const at = r.pos;
    const kind = readInstruction(r, ctx.features);
    if (kind !== 'block' && kind !== 'else' && kind !== 'end' && kind !== 'free') ops++;
    if (kind === 'call') edits.push({ at: r.pos, end: r.pos, bytes: restoreStack });
    const op = body[at]!;
    if (op === 0x26 || (op === 0xfc && MUTATES_INSTANCE.has(new Reader(body, at + 1).u32())))
      ctx.mutatesInstance = true;
    if (kind === 'plain' && ((op >= 0x28 && op <= 0x40) || op === 0xfc)) {
      const guarded = guardInstruction(body, at, r.pos, ctx.memory, scratch);
      if (guarded !== null) edits.push({ at, end: r.pos, bytes: guarded });
    }
    if (kind === 'block' || kind === 'loop' || kind === 'if') depth++;
    if (kind === 'end') depth--;
    if (ENDS_SEGMENT.has(kind)) flush(r.pos);
    if (depth < 0) break;
  }
  if (!r.done()) fail();
  return out.toBytes();
}
