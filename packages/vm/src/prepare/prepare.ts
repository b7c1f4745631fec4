// Contract preparation, once per code hash (nearcore's prepare_v2 in spirit): validate the module's
// sections and features, apply nearcore's limits, replace the module's own memory with an
// `env.memory` import, add the metering globals and instrument every body. The start function is
// exported instead of run at instantiation, so the host can arm the gas budget before it runs.
import type { VMConfig } from '../config.js';
import { fail, PrepareFailure, Reader, Sink } from './bytes.js';
import { type InstrumentContext, instrumentBody } from './instrument.js';
import { GUARD_GLOBALS, guardGlobals, helperBodies, helperTypes, type MemoryGuard } from './memory_guard.js';
import { type Features, isValType, skipConstExpr } from './opcodes.js';

export const GAS_EXPORT = '\u0000gas';
export const STACK_EXPORT = '\u0000stack';
export const START_EXPORT = '\u0000start';
export const PAGES_EXPORT = '\u0000pages';
export const LOW_EXPORT = '\u0000low';
export const MIN_EXPORT = '\u0000min';
export const LIMIT_EXPORT = '\u0000limit';
/** The contract's own mutable global `i`, exported so an instance can be reset between calls. */
export const globalExport = (i: number): string => `\u0000g${i}`;

interface FuncType {
  readonly params: number[];
  readonly results: number;
}

export interface PreparedCode {
  readonly bytes: Uint8Array;
  /** Exported functions by name: true when the signature is `() -> ()`, as entry points must be. */
  readonly methods: ReadonlyMap<string, boolean>;
  readonly hasStart: boolean;
  /** End of the highest active data segment: instantiation writes below it. */
  readonly dataEnd: number;
  /**
   * Exported globals that hold all of an instance's mutable state besides its memory, or null when
   * the module can change its instance in ways a reset cannot undo (tables, dropped segments,
   * reference-typed globals): such a module gets a fresh instance every call.
   */
  readonly resetGlobals: readonly string[] | null;
}

// Canonical section order; 12 (data count) sits between element (9) and code (10).
const ORDER: Readonly<Record<number, number>> = {
  1: 1,
  2: 2,
  3: 3,
  4: 4,
  5: 5,
  6: 6,
  7: 7,
  8: 8,
  9: 9,
  12: 10,
  10: 11,
  11: 12,
};

function readSections(code: Uint8Array): Map<number, Reader> {
  const r = new Reader(code);
  const header = r.bytes(8);
  const expected = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  if (!expected.every((b, i) => header[i] === b)) fail();
  const sections = new Map<number, Reader>();
  let last = 0;
  while (!r.done()) {
    const id = r.u8();
    const size = r.u32();
    const start = r.pos;
    r.advance(size);
    if (id === 0) continue;
    const order = ORDER[id];
    if (order === undefined || order <= last) fail();
    last = order;
    sections.set(id, new Reader(code, start, start + size));
  }
  return sections;
}

function readTypes(r: Reader | undefined, f: Features): FuncType[] {
  const types: FuncType[] = [];
  if (r === undefined) return types;
  for (let n = r.u32(); n > 0; n--) {
    if (r.u8() !== 0x60) fail();
    const params: number[] = [];
    for (let p = r.u32(); p > 0; p--) {
      const t = r.u8();
      if (!isValType(t, f)) fail();
      params.push(t);
    }
    const results = r.u32();
    if (results > 1) fail();
    for (let i = 0; i < results; i++) if (!isValType(r.u8(), f)) fail();
    types.push({ params, results });
  }
  if (!r.done()) fail();
  return types;
}

function skipLimits(r: Reader): void {
  const flags = r.u8();
  if (flags > 1) fail();
  r.u32();
  if (flags === 1) r.u32();
}

function checkElements(r: Reader, f: Features): void {
  for (let n = r.u32(); n > 0; n--) {
    const flags = r.u32();
    if (flags > 7 || (flags !== 0 && !f.reftypesBulkMemory)) fail();
    if (flags === 2 || flags === 6) r.u32();
    if ((flags & 1) === 0) skipConstExpr(r, f);
    if ((flags & 3) !== 0) r.u8();
    for (let k = r.u32(); k > 0; k--) {
      if ((flags & 4) === 0) r.u32();
      else skipConstExpr(r, f);
    }
  }
  if (!r.done()) fail();
}

/** Validates the data section; returns the end of the highest active segment. */
function checkData(r: Reader, f: Features): number {
  let end = 0;
  for (let n = r.u32(); n > 0; n--) {
    const flags = r.u32();
    if (flags > 2 || (flags !== 0 && !f.reftypesBulkMemory)) fail();
    if (flags === 2) r.u32();
    let offset = 0;
    if (flags !== 1) {
      const from = r.pos;
      skipConstExpr(r, f);
      offset = constOffset(r.b.subarray(from, r.pos));
    }
    const len = r.u32();
    r.advance(len);
    if (flags !== 1) end = Math.max(end, offset + len);
  }
  if (!r.done()) fail();
  return end;
}

/** An active segment's offset (`i32.const n; end`), read as unsigned; anything else is unbounded. */
function constOffset(expr: Uint8Array): number {
  if (expr[0] !== 0x41) return Number.POSITIVE_INFINITY;
  let v = 0;
  let shift = 0;
  let i = 1;
  for (;;) {
    const b = expr[i++]!;
    v += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if ((b & 0x80) === 0) {
      if (b & 0x40) v -= 2 ** shift;
      break;
    }
  }
  return v < 0 ? v + 2 ** 32 : v;
}

function rest(r: Reader): Uint8Array {
  return r.b.subarray(r.pos, r.end);
}

export function prepareContract(code: Uint8Array, config: VMConfig): PreparedCode {
  const limits = config.limit_config;
  const f: Features = {
    saturatingFloatToInt: config.saturating_float_to_int,
    reftypesBulkMemory: config.reftypes_bulk_memory,
  };
  const s = readSections(code);
  const raw = (id: number): Uint8Array | undefined => {
    const sec = s.get(id);
    return sec === undefined ? undefined : code.subarray(sec.pos, sec.end);
  };
  const typeRaw = raw(1);
  const types = readTypes(s.get(1), f);
  const typeOf = (i: number): FuncType => types[i] ?? fail();
  let functionBudget = limits.max_functions_number_per_contract;
  const funcTypes: FuncType[] = [];
  const out = new Sink().bytes(code.subarray(0, 8));
  // The memory guard's helper types go after the contract's own, so no index moves.
  const typeCount = types.length;
  const typeSec = new Sink().u32(typeCount + 2);
  if (typeRaw !== undefined) {
    const tr = new Reader(typeRaw);
    tr.u32();
    typeSec.bytes(rest(tr));
  }
  out.section(1, typeSec.bytes(helperTypes()));

  // Imports: only `env` functions; then the standardized memory.
  const imports = new Sink();
  const imp = s.get(2);
  let importCount = 0;
  if (imp !== undefined) {
    importCount = imp.u32();
    const from = imp.pos;
    for (let i = 0; i < importCount; i++) {
      const module = imp.name();
      imp.name();
      if (module !== 'env') throw new PrepareFailure('Instantiate');
      const kind = imp.u8();
      if (kind === 1 || kind === 3) throw new PrepareFailure('Instantiate');
      if (kind === 2) throw new PrepareFailure('Memory');
      if (kind !== 0) fail();
      funcTypes.push(typeOf(imp.u32()));
      if (--functionBudget < 0n) throw new PrepareFailure('TooManyFunctions');
    }
    if (!imp.done()) fail();
    imports.u32(importCount + 1).bytes(code.subarray(from, imp.end));
  } else {
    imports.u32(1);
  }
  imports.name('env').name('memory').byte(0x02).byte(0x01).u32(limits.initial_memory_pages);
  imports.u32(limits.max_memory_pages);
  out.section(2, imports);

  const fnSec = s.get(3);
  const definedTypes: FuncType[] = [];
  let fnFrom: Uint8Array = new Uint8Array(0);
  if (fnSec !== undefined) {
    const count = fnSec.u32();
    const from = fnSec.pos;
    for (let n = count; n > 0; n--) definedTypes.push(typeOf(fnSec.u32()));
    if (!fnSec.done()) fail();
    fnFrom = code.subarray(from, fnSec.end);
  }
  out.section(
    3,
    new Sink()
      .u32(definedTypes.length + 2)
      .bytes(fnFrom)
      .u32(typeCount)
      .u32(typeCount + 1),
  );
  funcTypes.push(...definedTypes);
  const table = s.get(4);
  if (table !== undefined) out.section(4, new Sink().bytes(rest(table)));
  const mem = s.get(5);
  if (mem !== undefined) {
    const n = mem.u32();
    if (n > 1) fail();
    for (let i = 0; i < n; i++) skipLimits(mem);
    if (!mem.done()) fail();
  }

  // Globals: the contract's, then the gas budget (i64) and the stack budget (i32).
  const globals = new Sink();
  const gl = s.get(6);
  let globalCount = 0;
  let globalsFrom: Uint8Array = new Uint8Array(0);
  const mutableGlobals: number[] = [];
  let resettable = true;
  if (gl !== undefined) {
    globalCount = gl.u32();
    const from = gl.pos;
    for (let i = 0; i < globalCount; i++) {
      const type = gl.u8();
      if (!isValType(type, f)) fail();
      const mutability = gl.u8();
      if (mutability > 1) fail();
      if (mutability === 1) {
        mutableGlobals.push(i);
        if (type === 0x70 || type === 0x6f) resettable = false;
      }
      skipConstExpr(gl, f);
    }
    if (!gl.done()) fail();
    globalsFrom = code.subarray(from, gl.end);
  }
  globals.u32(globalCount + 2 + GUARD_GLOBALS).bytes(globalsFrom);
  globals.byte(0x7e).byte(0x01).byte(0x42).byte(0x00).byte(0x0b);
  globals.byte(0x7f).byte(0x01).byte(0x41).sleb(BigInt(limits.max_stack_height)).byte(0x0b);
  globals.bytes(guardGlobals(limits.initial_memory_pages));
  out.section(6, globals);

  const methods = new Map<string, boolean>();
  const exports = new Sink();
  const ex = s.get(7);
  let exportCount = 0;
  let exportsFrom: Uint8Array = new Uint8Array(0);
  if (ex !== undefined) {
    exportCount = ex.u32();
    const from = ex.pos;
    for (let i = 0; i < exportCount; i++) {
      const name = ex.name();
      const kind = ex.u8();
      const idx = ex.u32();
      if (kind === 0) {
        const t = funcTypes[idx] ?? fail();
        methods.set(name, t.params.length === 0 && t.results === 0);
      }
    }
    if (!ex.done()) fail();
    exportsFrom = code.subarray(from, ex.end);
  }
  const start = s.get(8);
  const startFn = start === undefined ? null : start.u32();
  exports
    .u32(exportCount + 2 + GUARD_GLOBALS + mutableGlobals.length + (startFn === null ? 0 : 1))
    .bytes(exportsFrom);
  exports.name(GAS_EXPORT).byte(0x03).u32(globalCount);
  exports
    .name(STACK_EXPORT)
    .byte(0x03)
    .u32(globalCount + 1);
  exports
    .name(PAGES_EXPORT)
    .byte(0x03)
    .u32(globalCount + 2);
  exports
    .name(LIMIT_EXPORT)
    .byte(0x03)
    .u32(globalCount + 3);
  exports
    .name(LOW_EXPORT)
    .byte(0x03)
    .u32(globalCount + 4);
  exports
    .name(MIN_EXPORT)
    .byte(0x03)
    .u32(globalCount + 5);
  for (const i of mutableGlobals) exports.name(globalExport(i)).byte(0x03).u32(i);
  if (startFn !== null) exports.name(START_EXPORT).byte(0x00).u32(startFn);
  out.section(7, exports);

  const elem = s.get(9);
  if (elem !== undefined) {
    const from = elem.pos;
    checkElements(elem, f);
    out.section(9, new Sink().bytes(code.subarray(from, elem.end)));
  }
  const dataCount = s.get(12);
  if (dataCount !== undefined) {
    if (!f.reftypesBulkMemory) fail();
    out.section(12, new Sink().bytes(rest(dataCount)));
  }

  const codeSec = s.get(10);
  const bodies = codeSec === undefined ? 0 : codeSec.u32();
  if (bodies !== definedTypes.length) fail();
  functionBudget -= BigInt(bodies);
  if (functionBudget < 0n) throw new PrepareFailure('TooManyFunctions');
  const guard: MemoryGuard = {
    pagesGlobal: globalCount + 2,
    limitGlobal: globalCount + 3,
    lowGlobal: globalCount + 4,
    minGlobal: globalCount + 5,
    checkFunc: importCount + bodies,
    growFunc: importCount + bodies + 1,
  };
  const ctx: InstrumentContext = {
    features: f,
    opCost: config.regular_op_cost,
    gasGlobal: globalCount,
    stackGlobal: globalCount + 1,
    memory: guard,
    localBudget: limits.max_locals_per_contract,
    mutatesInstance: false,
  };
  const sink = new Sink().u32(bodies + 2);
  for (let i = 0; i < bodies && codeSec !== undefined; i++) {
    const body = codeSec.bytes(codeSec.u32());
    const rewritten = instrumentBody(body, definedTypes[i]!.params, ctx);
    sink.u32(rewritten.length).bytes(rewritten);
  }
  if (codeSec !== undefined && !codeSec.done()) fail();
  out.section(10, sink.bytes(helperBodies(guard, limits.initial_memory_pages, limits.max_memory_pages)));
  const data = s.get(11);
  let dataEnd = 0;
  if (data !== undefined) {
    const from = data.pos;
    dataEnd = checkData(data, f);
    out.section(11, new Sink().bytes(code.subarray(from, data.end)));
  }
  const resetGlobals =
    resettable && !ctx.mutatesInstance
      ? [
          GAS_EXPORT,
          STACK_EXPORT,
          PAGES_EXPORT,
          LIMIT_EXPORT,
          LOW_EXPORT,
          MIN_EXPORT,
          ...mutableGlobals.map(globalExport),
        ]
      : null;
  return { bytes: out.toBytes(), methods, hasStart: startFn !== null, dataEnd, resetGlobals };
}
