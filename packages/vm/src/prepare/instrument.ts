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
import { type Analysis, analyze, UNREACHABLE } from './gas_analysis.js';
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
