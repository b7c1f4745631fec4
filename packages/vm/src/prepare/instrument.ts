// Rewrites one function body with deterministic metering, so a call burns exactly the gas nearcore's
// prepare_v3 + instrument_v3 burn (finite-wasm's analysis) and can never run away:
// - gas: each charge subtracts its fee from a mutable i64 global and traps (`unreachable`) once the
//   global goes negative; the host reads the global to tell an out-of-gas trap from a contract's own
//   trap and to settle the GasCounter around host calls. Where the charges go and what they add up
//   is finite-wasm's: every instruction costs `regular_op_cost` except block/else/end (free) and the
//   bulk instructions (`linear_op_base_cost + linear_op_unit_cost × n`, n their last operand); a
//   charge covers a run of instructions that cannot observe the gas in between, so a run ends at
//   branches, branch targets and every instruction that may trap or call out. Function entry pays
//   `ceil(frame / 8) × regular_op_cost` besides.
// - stack: on entry, subtract the function's maximal operand stack plus its frame from an i32 global
//   (restored by the caller after each call) and trap once it goes negative, so deep recursion fails
//   deterministically where nearcore's does, before V8's own native stack limit would.
// - NaNs: the results of float arithmetic are canonicalized as Cranelift does when nearcore enables
//   its NaN canonicalization, so no NaN sign or payload differs between machines.
// None of the injected code is metered.
import type { PrepareError } from '../errors.js';
import { fail, PrepareFailure, Reader, Sink } from './bytes.js';
import { type GuardLocals, guardInstruction, isGuarded, type MemoryGuard } from './memory_guard.js';
import {
  constantChargeSize,
  INJECTED_FUNCTIONS,
  lebSize,
  linearChargeSize,
  stackChargeSize,
} from './nearcore_size.js';
import { type Features, isValType, readInstruction, valTypeSize } from './opcodes.js';

export interface FuncType {
  readonly params: readonly number[];
  /** The result's value type, or 0 for none (multi-value is not admitted). */
  readonly result: number;
}

export interface InstrumentContext {
  readonly features: Features;
  readonly opCost: bigint;
  readonly linearBase: bigint;
  readonly linearUnit: bigint;
  readonly gasGlobal: number;
  readonly stackGlobal: number;
  readonly memory: MemoryGuard;
  /** The type section. */
  readonly types: readonly FuncType[];
  /** Every function's type, imports first. */
  readonly funcTypes: readonly FuncType[];
  /** Value types of the contract's own globals. */
  readonly globalTypes: readonly number[];
  /** Locals still allowed across the whole contract (max_locals_per_contract). */
  localBudget: bigint;
  readonly maxParamsPerFunction: bigint | null;
  /** Parameters still allowed across the contract's bodies (max_params_per_contract). */
  paramBudget: bigint | null;
  readonly maxOperandStack: bigint | null;
  readonly maxBlocksPerFunction: bigint | null;
  /** Blocks still allowed across the contract (max_blocks_per_contract). */
  blockBudget: bigint | null;
  /**
   * The first limit instrument_v3 found exceeded. nearcore checks these only once the whole module
   * validated, so preparation reports it only if nothing else fails first.
   */
  deferred: PrepareError | null;
  /** Size of the code-section entries nearcore's instrument_v3 writes for the bodies so far. */
  nearcoreCode: number;
  /**
   * Set once a body changes instance state other than memory and globals: a table (table.set,
   * table.grow, table.fill, table.copy, table.init) or a segment (memory.init, data.drop, elem.drop).
   */
  mutatesInstance: boolean;
}

/** The 0xfc-prefixed instructions that change a table or drop a segment. */
const MUTATES_INSTANCE: ReadonlySet<number> = new Set([8, 9, 12, 13, 14, 15, 17]);

const FRAME_OVERHEAD = 64;

// finite-wasm's instrumentation kinds. A charge before a Pure instruction may move up into the
// charge before it; Pre precedes and Post follows an instruction that branches, is a branch target
// or may trap; Between is both; Linear precedes a bulk instruction; Unreachable is dead code.
const PURE = 0;
const UNREACHABLE = 1;
const PRE = 2;
const POST = 3;
const BETWEEN = 4;
const LINEAR = 5;

// How a branch to a frame affects the charges: a block nobody branches to is no branch target at
// all; a taken block or an `if` ends where it is branched to; a loop restarts at its head.
const UNTAKEN = 0;
const FORWARD = 1;
const LOOP = 2;

function mergeSamePoint(a: number, b: number): number {
  if (a === UNREACHABLE || b === UNREACHABLE) return UNREACHABLE;
  if (b === LINEAR || a === PURE) return b;
  if (a === LINEAR) return -1;
  if (a === BETWEEN) return BETWEEN;
  if (a === PRE) return b === PRE || b === PURE ? PRE : BETWEEN;
  return b === POST || b === PURE ? POST : BETWEEN;
}

function mergeAcross(a: number, b: number): number {
  if (a === PURE) return b === PURE || b === PRE ? b : -1;
  if (a === UNREACHABLE) return b === UNREACHABLE ? UNREACHABLE : -1;
  if (a === POST) return b === PRE ? BETWEEN : b === PURE ? POST : -1;
  return -1;
}

/** The charge points of one body, in order: before the instruction at `offset`, charge `cost`. */
class Points {
  offset: number[] = [];
  kind: number[] = [];
  cost: number[] = [];
  /** Nonzero only for bulk instructions: the fee per unit of their count operand. */
  linear: number[] = [];

  push(offset: number, kind: number, cost: number, linear: number): void {
    this.offset.push(offset);
    this.kind.push(kind);
    this.cost.push(cost);
    this.linear.push(linear);
  }

  /** Merges neighbouring points the way finite-wasm does: at the same offset first, then across. */
  optimize(): void {
    this.pass(true);
    this.pass(false);
  }

  private pass(sameOffset: boolean): void {
    const { offset, kind, cost, linear } = this;
    const n = offset.length;
    if (n === 0) return;
    let out = 0;
    for (let i = 1; i < n; i++) {
      let merged = -1;
      // Fees with a linear part never merge.
      if (linear[out] === 0 && linear[i] === 0) {
        if (!sameOffset) merged = mergeAcross(kind[out]!, kind[i]!);
        else if (offset[out] === offset[i]) merged = mergeSamePoint(kind[out]!, kind[i]!);
      }
      if (merged >= 0) {
        kind[out] = merged;
        cost[out]! += cost[i]!;
      } else {
        out++;
        offset[out] = offset[i]!;
        kind[out] = kind[i]!;
        cost[out] = cost[i]!;
        linear[out] = linear[i]!;
      }
    }
    out++;
    offset.length = out;
    kind.length = out;
    cost.length = out;
    linear.length = out;
  }
}

// Operand-stack classes of the numeric opcodes 0x45..0xc4 (finite-wasm's categories); the
// trapping ones (integer division and remainder, float-to-int truncation) end a charge.
const UNOP = 0;
const BINOP = 1;
const TESTOP = 2;
const RELOP = 3;
const CVT_I32 = 4;
const CVT_I64 = 5;
const CVT_F32 = 6;
const CVT_F64 = 7;
const TRAPPING_BINOP = 8;
const TRAPPING_CVT_I32 = 9;
const TRAPPING_CVT_I64 = 10;

const NUMERIC: readonly number[] = (() => {
  const t: number[] = [];
  const set = (from: number, to: number, cls: number): void => {
    for (let c = from; c <= to; c++) t[c - 0x45] = cls;
  };
  set(0x45, 0x45, TESTOP);
  set(0x46, 0x4f, RELOP);
  set(0x50, 0x50, TESTOP);
  set(0x51, 0x66, RELOP);
  set(0x67, 0x69, UNOP);
  set(0x6a, 0x78, BINOP);
  set(0x6d, 0x70, TRAPPING_BINOP);
  set(0x79, 0x7b, UNOP);
  set(0x7c, 0x8a, BINOP);
  set(0x7f, 0x82, TRAPPING_BINOP);
  set(0x8b, 0x91, UNOP);
  set(0x92, 0x98, BINOP);
  set(0x99, 0x9f, UNOP);
  set(0xa0, 0xa6, BINOP);
  set(0xa7, 0xa7, CVT_I32);
  set(0xa8, 0xab, TRAPPING_CVT_I32);
  set(0xac, 0xad, CVT_I64);
  set(0xae, 0xb1, TRAPPING_CVT_I64);
  set(0xb2, 0xb6, CVT_F32);
  set(0xb7, 0xbb, CVT_F64);
  set(0xbc, 0xbc, CVT_I32);
  set(0xbd, 0xbd, CVT_I64);
  set(0xbe, 0xbe, CVT_F32);
  set(0xbf, 0xbf, CVT_F64);
  set(0xc0, 0xc1, CVT_I32);
  set(0xc2, 0xc4, CVT_I64);
  return t;
})();

/** Result types of the loads 0x28..0x35. */
const LOAD_TYPE = [0x7f, 0x7e, 0x7d, 0x7c, 0x7f, 0x7f, 0x7f, 0x7f, 0x7e, 0x7e, 0x7e, 0x7e, 0x7e, 0x7e];

interface Frame {
  /** The operand stack is polymorphic for the rest of the frame: what follows never runs. */
  polymorphic: boolean;
  branch: number;
  loopPre: number;
  loopPost: number;
  /** Operand count when the frame began. */
  height: number;
  /** Block result type, or 0. */
  result: number;
}

interface Analysis {
  readonly points: Points;
  readonly maxStack: number;
  readonly blocks: number;
  /** Where the body's instructions end. */
  readonly end: number;
}

/**
 * finite-wasm's gas and operand-stack analysis of one body's instructions, from `start`. The
 * operand stack is counted in bytes per value type (4 for i32/f32, 8 for i64/f64/references); the
 * analysis follows finite-wasm's accounting exactly, including where it is coarser than validation
 * (call_indirect leaves its table index counted, br_table its selector).
 */
function analyze(body: Uint8Array, start: number, localTypes: Uint8Array, ctx: InstrumentContext): Analysis {
  const r = new Reader(body, start);
  const imm = new Reader(body);
  const f = ctx.features;
  const op = Number(ctx.opCost);
  const base = Number(ctx.linearBase);
  const unit = Number(ctx.linearUnit);
  const points = new Points();
  const frames: Frame[] = [
    { polymorphic: false, branch: UNTAKEN, loopPre: 0, loopPost: 0, height: 0, result: 0 },
  ];
  let top = frames[0]!;
  // Sizes of the values on the operand stack.
  const operands: number[] = [];
  let size = 0;
  let maxSize = 0;
  let blocks = 0;
  // A charge due after the current instruction, placed before the next one.
  let afterKind = -1;
  let afterCost = 0;
  let at = start;
  let finished = false;

  const before = (kind: number, cost: number, lin = 0): void => {
    points.push(at, top.polymorphic ? UNREACHABLE : kind, cost, lin);
  };
  const after = (kind: number, cost: number): void => {
    afterKind = kind;
    afterCost = cost;
  };
  const sideEffect = (cost: number): void => {
    before(PRE, cost);
    after(POST, 0);
  };
  const push = (t: number): void => {
    if (top.polymorphic) return;
    const s = valTypeSize(t);
    operands.push(s);
    size += s;
    if (size > maxSize) maxSize = size;
  };
  const popMany = (n: number): void => {
    if (n === 0 || top.polymorphic) return;
    if (operands.length < n) fail();
    for (let i = 0; i < n; i++) size -= operands.pop()!;
  };
  const newFrame = (branch: number, loopPre = 0, loopPost = 0, result = 0): void => {
    top = { polymorphic: top.polymorphic, branch, loopPre, loopPost, height: operands.length, result };
    frames.push(top);
  };
  /** Pops the current frame and its operands (under the parent's polymorphism); null at the root. */
  const endFrame = (): Frame | null => {
    if (frames.length === 1) return null;
    const done = frames.pop()!;
    top = frames[frames.length - 1]!;
    if (operands.length < done.height) fail();
    popMany(operands.length - done.height);
    return done;
  };
  const target = (depth: number): void => {
    const fr = frames[frames.length - 1 - depth] ?? fail();
    if (fr.branch === UNTAKEN) fr.branch = FORWARD;
    else if (fr.branch === LOOP) {
      points.kind[fr.loopPost] = POST;
      points.kind[fr.loopPre] = PRE;
    }
  };
  const blockResult = (): number => {
    const t = body[at + 1]!;
    return t === 0x40 ? 0 : t;
  };
  const u32At = (): number => {
    imm.pos = at + 1;
    return imm.u32();
  };
  const call = (t: FuncType): void => {
    sideEffect(op);
    popMany(t.params.length);
    if (t.result !== 0) push(t.result);
  };

  for (;;) {
    at = r.pos;
    if (afterKind >= 0) {
      points.push(at, afterKind, afterCost, 0);
      afterKind = -1;
    }
    readInstruction(r, f);
    const code = body[at]!;
    if (code >= 0x45 && code <= 0xc4) {
      numeric(code);
    } else if (code >= 0x28 && code <= 0x35) {
      sideEffect(op);
      popMany(1);
      push(LOAD_TYPE[code - 0x28]!);
    } else if (code >= 0x36 && code <= 0x3e) {
      sideEffect(op);
      popMany(2);
    } else {
      switch (code) {
        case 0x00:
          before(PRE, op);
          after(UNREACHABLE, 0);
          top.polymorphic = true;
          break;
        case 0x01:
          before(PURE, op);
          break;
        case 0x02:
          blocks++;
          before(PURE, 0);
          newFrame(UNTAKEN, 0, 0, blockResult());
          break;
        case 0x03: {
          blocks++;
          // Charged after the loop instruction, where every iteration passes.
          const pre = points.offset.length;
          before(PURE, 0);
          after(PURE, op);
          newFrame(LOOP, pre, pre + 1, blockResult());
          break;
        }
        case 0x04:
          blocks++;
          sideEffect(op);
          popMany(1);
          newFrame(FORWARD, 0, 0, blockResult());
          break;
        case 0x05: {
          const done = endFrame() ?? fail();
          newFrame(FORWARD, 0, 0, done.result);
          sideEffect(0);
          break;
        }
        case 0x0b: {
          if (top.branch === FORWARD) sideEffect(0);
          else before(PURE, 0);
          const done = endFrame();
          // The `end` that closes the function's own frame ends the body.
          if (done === null) finished = true;
          else if (done.result !== 0) push(done.result);
          break;
        }
        case 0x0c:
          sideEffect(op);
          target(u32At());
          top.polymorphic = true;
          break;
        case 0x0d:
          sideEffect(op);
          target(u32At());
          popMany(1);
          break;
        case 0x0e: {
          sideEffect(op);
          imm.pos = at + 1;
          for (let n = imm.u32(); n >= 0; n--) target(imm.u32());
          top.polymorphic = true;
          break;
        }
        case 0x0f:
          sideEffect(op);
          target(frames.length - 1);
          top.polymorphic = true;
          break;
        case 0x10:
          call(ctx.funcTypes[u32At()] ?? fail());
          break;
        case 0x11:
          call(ctx.types[u32At()] ?? fail());
          break;
        case 0x1a:
          before(PURE, op);
          popMany(1);
          break;
        case 0x1b:
        case 0x1c:
          before(PURE, op);
          popMany(2);
          break;
        case 0x20:
          before(PURE, op);
          push(localTypes[u32At()] ?? fail());
          break;
        case 0x21:
        case 0x24:
          before(PURE, op);
          popMany(1);
          break;
        case 0x22:
          before(PURE, op);
          break;
        case 0x23:
          before(PURE, op);
          push(ctx.globalTypes[u32At()] ?? fail());
          break;
        case 0x25:
          sideEffect(op);
          popMany(1);
          push(0x70);
          break;
        case 0x26:
          sideEffect(op);
          popMany(2);
          break;
        case 0x3f:
          before(PURE, op);
          push(0x7f);
          break;
        case 0x40:
          before(LINEAR, base, unit);
          after(POST, 0);
          break;
        case 0x41:
        case 0x43:
          before(PURE, op);
          push(code === 0x41 ? 0x7f : 0x7d);
          break;
        case 0x42:
        case 0x44:
          before(PURE, op);
          push(code === 0x42 ? 0x7e : 0x7c);
          break;
        case 0xd0:
        case 0xd2:
          before(PURE, op);
          push(0x70);
          break;
        case 0xd1:
          before(PURE, op);
          popMany(1);
          push(0x7f);
          break;
        case 0xfc:
          prefixed(u32At());
          break;
        default:
          fail();
      }
    }
    if (finished) break;
  }
  return { points, maxStack: maxSize, blocks, end: r.pos };

  function numeric(c: number): void {
    const cls = NUMERIC[c - 0x45]!;
    if (cls === TRAPPING_BINOP || cls === TRAPPING_CVT_I32 || cls === TRAPPING_CVT_I64) sideEffect(op);
    else before(PURE, op);
    switch (cls) {
      case TESTOP:
        popMany(1);
        push(0x7f);
        break;
      case RELOP:
        popMany(2);
        push(0x7f);
        break;
      case BINOP:
      case TRAPPING_BINOP:
        popMany(1);
        break;
      case CVT_I32:
      case TRAPPING_CVT_I32:
        popMany(1);
        push(0x7f);
        break;
      case CVT_I64:
      case TRAPPING_CVT_I64:
        popMany(1);
        push(0x7e);
        break;
      case CVT_F32:
        popMany(1);
        push(0x7d);
        break;
      case CVT_F64:
        popMany(1);
        push(0x7c);
        break;
    }
  }

  function prefixed(sub: number): void {
    if (sub <= 7) {
      before(PURE, op);
      popMany(1);
      push(sub < 4 ? 0x7f : 0x7e);
      return;
    }
    switch (sub) {
      case 9:
      case 13:
        before(PURE, op);
        return;
      case 16:
        before(PURE, op);
        push(0x7f);
        return;
      case 15:
        before(LINEAR, base, unit);
        after(POST, 0);
        popMany(2);
        push(0x7f);
        return;
      default:
        // memory.init/copy/fill, table.init/copy/fill.
        before(LINEAR, base, unit);
        after(POST, 0);
        popMany(3);
    }
  }
}

/** Float instructions whose result Cranelift canonicalizes: value type by opcode. */
function canonicalized(code: number): number {
  if ((code >= 0x8d && code <= 0x97) || code === 0xb6) return 0x7d;
  if ((code >= 0x9b && code <= 0xa5) || code === 0xbb) return 0x7c;
  return 0;
}

/**
 * What the stack budget is set to before a call_indirect of a null table entry traps. V8 reports a
 * null entry and a signature mismatch with one message; Wasmtime, and so nearcore, tell them apart
 * (IndirectCallToNull, IncorrectCallIndirectSignature). No frame can take the budget this low.
 */
export const NULL_CALL_STACK = -0x80000000;

const CANONICAL_F32 = Uint8Array.of(0x43, 0x00, 0x00, 0xc0, 0x7f);
const CANONICAL_F64 = Uint8Array.of(0x44, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf8, 0x7f);

function emitCharge(out: Sink, g: number, gas: bigint): void {
  out.byte(0x23).u32(g).byte(0x42).sleb(gas).byte(0x7d).byte(0x24).u32(g);
  emitGasCheck(out, g);
}

function emitGasCheck(out: Sink, g: number): void {
  out.byte(0x23).u32(g).byte(0x42).byte(0x00).byte(0x53);
  out.byte(0x04).byte(0x40).byte(0x00).byte(0x0b);
}

const I64_MAX = (1n << 63n) - 1n;

/** The charge before a bulk instruction: base + unit × its count operand, which stays on the stack. */
function emitLinearCharge(
  out: Sink,
  ctx: InstrumentContext,
  l: GuardLocals,
  base: bigint,
  unit: bigint,
): void {
  const g = ctx.gasGlobal;
  out.byte(0x22).u32(l.len);
  // A count whose fee overflows is out of gas before any arithmetic (nearcore's checked_mul).
  const maxCount = unit === 0n ? I64_MAX : (I64_MAX - base) / unit;
  if (maxCount < 0xffffffffn) {
    out.byte(0x20).u32(l.len).byte(0x41).sleb(BigInt.asIntN(32, maxCount)).byte(0x4b);
    out.byte(0x04).byte(0x40).byte(0x42).byte(0x7f).byte(0x24).u32(g).byte(0x00).byte(0x0b);
  }
  out.byte(0xad).byte(0x42).sleb(unit).byte(0x7e).byte(0x42).sleb(base).byte(0x7c).byte(0x21).u32(l.i64);
  out.byte(0x23).u32(g).byte(0x20).u32(l.i64).byte(0x7d).byte(0x24).u32(g);
  emitGasCheck(out, g);
  out.byte(0x20).u32(l.len);
}

function exceeds(value: bigint, limit: bigint | null): boolean {
  return limit !== null && value > limit;
}

/** instrument_v3's per-function limits, in nearcore's order; the first one exceeded is kept. */
function checkLimits(ctx: InstrumentContext, params: number, a: Analysis): void {
  if (ctx.deferred !== null) return;
  ctx.deferred = firstExceeded(ctx, params, a);
}

function firstExceeded(ctx: InstrumentContext, params: number, a: Analysis): PrepareError | null {
  if (exceeds(BigInt(params), ctx.maxParamsPerFunction)) return 'TooManyParamsPerFunction';
  if (ctx.paramBudget !== null) {
    ctx.paramBudget -= BigInt(params);
    if (ctx.paramBudget < 0n) return 'TooManyParamsPerContract';
  }
  if (exceeds(BigInt(a.maxStack), ctx.maxOperandStack)) return 'OperandStackTooLarge';
  if (exceeds(BigInt(a.blocks), ctx.maxBlocksPerFunction)) return 'TooManyBlocksPerFunction';
  if (ctx.blockBudget !== null) {
    ctx.blockBudget -= BigInt(a.blocks);
    if (ctx.blockBudget < 0n) return 'TooManyBlocksPerContract';
  }
  return null;
}

/** `body` is one code-section entry without its size prefix; returns the rewritten entry. */
export function instrumentBody(body: Uint8Array, type: FuncType, ctx: InstrumentContext): Uint8Array {
  const r = new Reader(body);
  const declCount = r.u32();
  const declStart = r.pos;
  const params = type.params;
  let numLocals = 0;
  let frame = FRAME_OVERHEAD;
  for (const p of params) frame += valTypeSize(p);
  const decls: number[] = [];
  for (let i = 0; i < declCount; i++) {
    const n = r.u32();
    const t = r.u8();
    if (!isValType(t, ctx.features)) fail();
    ctx.localBudget -= BigInt(n);
    if (ctx.localBudget < 0n) throw new PrepareFailure('TooManyLocals');
    numLocals += n;
    if (params.length + numLocals >= 50000) fail();
    frame += n * valTypeSize(t);
    decls.push(n, t);
  }
  const saved = params.length + numLocals;
  const localTypes = new Uint8Array(saved);
  localTypes.set(params);
  for (let i = 0, k = params.length; i < decls.length; i += 2) {
    localTypes.fill(decls[i + 1]!, k, k + decls[i]!);
    k += decls[i]!;
  }
  const codeStart = r.pos;
  const a = analyze(body, codeStart, localTypes, ctx);
  if (a.end !== body.length) fail();
  checkLimits(ctx, params.length, a);
  const points = a.points;
  points.optimize();

  const out = new Sink();
  // Injected locals, outside the contract's local budget and frame size: the saved stack budget and
  // the scratch locals of the memory guard, the bulk fees and the NaN canonicalization.
  out
    .u32(declCount + 4)
    .bytes(body.subarray(declStart, codeStart))
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
  const g = ctx.gasGlobal;
  const stackCharge = BigInt(a.maxStack + frame);
  const entryGas = BigInt(Math.ceil(frame / 8)) * ctx.opCost;
  out.byte(0x23).u32(s).byte(0x41).sleb(stackCharge).byte(0x6b).byte(0x22).u32(saved).byte(0x24).u32(s);
  out.byte(0x20).u32(saved).byte(0x41).byte(0x00).byte(0x48).byte(0x04).byte(0x40).byte(0x00).byte(0x0b);
  emitCharge(out, g, entryGas);

  const restoreStack = new Sink().byte(0x20).u32(saved).byte(0x24).u32(s).toBytes();
  // nearcore's entry for this body: its locals plus two, a block around the body, the stack and
  // entry charges, then the body with its charges, calls shifted, and the stack released on return.
  const stackSize = stackChargeSize(s, stackCharge);
  let nearcore = lebSize(declCount + 2) + 4 + 2 + stackSize + constantChargeSize(g, entryGas);
  for (let i = 0; i < decls.length; i += 2) nearcore += lebSize(decls[i]!) + 1;
  const n = points.offset.length;
  let p = 0;
  let from = codeStart;
  const copyTo = (end: number): void => {
    out.bytes(body.subarray(from, end));
    from = end;
  };
  r.pos = codeStart;
  while (r.pos < a.end) {
    const at = r.pos;
    if (p < n && points.offset[p] === at) {
      copyTo(at);
      for (; p < n && points.offset[p] === at; p++) {
        const cost = points.cost[p]!;
        const linear = points.linear[p]!;
        if (points.kind[p] === UNREACHABLE || (cost === 0 && linear === 0)) continue;
        if (linear !== 0) {
          emitLinearCharge(out, ctx, scratch, BigInt(cost), BigInt(linear));
          nearcore += linearChargeSize(g, saved, BigInt(cost), BigInt(linear));
        } else {
          emitCharge(out, g, BigInt(cost));
          nearcore += constantChargeSize(g, BigInt(cost));
        }
      }
    }
    const kind = readInstruction(r, ctx.features);
    const op = body[at]!;
    if (op === 0x10 || op === 0xd2)
      nearcore += 1 + lebSize(new Reader(body, at + 1).u32() + INJECTED_FUNCTIONS);
    else if (op === 0x0f) nearcore += stackSize + 1;
    else if (r.pos === a.end) nearcore += 2 + stackSize;
    else nearcore += r.pos - at;
    if (op === 0x26 || (op === 0xfc && MUTATES_INSTANCE.has(new Reader(body, at + 1).u32())))
      ctx.mutatesInstance = true;
    if (kind === 'call') {
      if (op === 0x11) {
        // Wasmtime's order: the index past the table (table.get traps: MemoryOutOfBounds to
        // nearcore), then a null entry, then the signature (call_indirect's own trap).
        copyTo(at);
        const imm = new Reader(body, at + 1);
        imm.u32();
        const table = imm.u32();
        out.byte(0x22).u32(scratch.i32).byte(0x25).u32(table).byte(0xd1).byte(0x04).byte(0x40);
        out.byte(0x41).sleb(BigInt(NULL_CALL_STACK)).byte(0x24).u32(s).byte(0x00).byte(0x0b);
        out.byte(0x20).u32(scratch.i32);
      }
      copyTo(r.pos);
      out.bytes(restoreStack);
    } else if (isGuarded(body, at)) {
      copyTo(at);
      guardInstruction(body, at, r.pos, ctx.memory, scratch, out);
      from = r.pos;
    } else {
      const t = canonicalized(op);
      if (t !== 0) {
        copyTo(r.pos);
        const local = t === 0x7d ? scratch.f32 : scratch.f64;
        const ne = t === 0x7d ? 0x5c : 0x62;
        out
          .byte(0x21)
          .u32(local)
          .bytes(t === 0x7d ? CANONICAL_F32 : CANONICAL_F64);
        out.byte(0x20).u32(local).byte(0x20).u32(local).byte(0x20).u32(local).byte(ne).byte(0x1b);
      }
    }
  }
  copyTo(a.end);
  ctx.nearcoreCode += lebSize(nearcore) + nearcore;
  return out.toBytes();
}
