// finite-wasm's gas and operand-stack analysis of a function body, as nearcore's instrument_v3 runs
// it: where the charges go, what each adds up, how neighbouring charges merge, and the largest operand
// stack. `instrument.ts` writes the charges where this analysis puts them.
import { fail, Reader } from './bytes.js';
import type { FuncType, InstrumentContext } from './instrument.js';
import { readInstruction, valTypeSize } from './opcodes.js';

// finite-wasm's instrumentation kinds. A charge before a Pure instruction may move up into the
// charge before it; Pre precedes and Post follows an instruction that branches, is a branch target
// or may trap; Between is both; Linear precedes a bulk instruction; Unreachable is dead code.
const PURE = 0;
export const UNREACHABLE = 1;
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
export class Points {
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

export interface Analysis {
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
export function analyze(
  body: Uint8Array,
  start: number,
  localTypes: Uint8Array,
  ctx: InstrumentContext,
): Analysis {
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
