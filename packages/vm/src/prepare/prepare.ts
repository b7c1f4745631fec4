// Contract preparation, once per code hash (nearcore's prepare_v3 + instrument_v3): validate the
// module's sections and features, apply nearcore's limits in nearcore's order, replace the module's
// own memory with an `env.memory` import, add the metering globals and instrument every body. The
// start function is exported instead of run at instantiation, so the host can arm the gas budget
// before it runs.
import type { VMConfig } from '../config.js';
import { fail, PrepareFailure, Reader, Sink } from './bytes.js';
import { type FuncType, type InstrumentContext, instrumentBody } from './instrument.js';
import { GUARD_GLOBALS, guardGlobals, helperBodies, helperTypes, type MemoryGuard } from './memory_guard.js';
import {
  constExprSize,
  INJECTED_FUNCTIONS,
  lebSize,
  nameSize,
  sectionSize,
  slebSize,
} from './nearcore_size.js';
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
  /** The contract's imports, all functions of module `env` once preparation admits it, in order. */
  readonly imports: readonly ContractImport[];
}

export interface ContractImport {
  readonly name: string;
  readonly type: FuncType;
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

function readSections(code: Uint8Array, typeLimit: bigint | null): Map<number, Reader> {
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
    // nearcore counts the types before it validates them, or anything after them.
    if (id === 1 && typeLimit !== null && BigInt(new Reader(code, start, start + size).u32()) > typeLimit)
      throw new PrepareFailure('TooManyTypes');
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
    let result = 0;
    if (results === 1) {
      result = r.u8();
      if (!isValType(result, f)) fail();
    }
    types.push({ params, result });
  }
  if (!r.done()) fail();
  return types;
}

/** Reads limits, the maximum (if any) at most `maxBound`; returns the minimum. */
function readLimits(r: Reader, maxBound: number): number {
  return readBounds(r, maxBound).min;
}

function readBounds(r: Reader, maxBound: number): { min: number; max: number | null } {
  const flags = r.u8();
  if (flags > 1) fail();
  const min = r.u32();
  if (flags !== 1) return { min, max: null };
  const max = r.u32();
  if (max < min || max > maxBound) fail();
  return { min, max };
}

// wasmparser's own bounds, which it checks before nearcore's limits.
const MAX_TABLES = 100;
const MAX_TABLE_ENTRIES = 10_000_000;
const MAX_MEMORY_PAGES = 65_536;

/**
 * Validates the table section, then applies nearcore's table limits. Returns the section to run:
 * each table's maximum at most `max_elements_per_contract_table`, since nearcore's Wasmtime store
 * refuses to grow a table past it (`StoreLimits::table_elements`: `table.grow` answers -1) where V8
 * would grow it to ten million.
 */
function checkTables(r: Reader, f: Features, limits: VMConfig['limit_config']): Sink {
  const count = r.u32();
  if (count > MAX_TABLES) fail();
  const tables: { type: number; min: number; max: number | null }[] = [];
  for (let i = 0; i < count; i++) {
    const type = r.u8();
    if (type !== 0x70 && !(type === 0x6f && f.reftypesBulkMemory)) fail();
    const { min, max } = readBounds(r, 0xffffffff);
    if (min > MAX_TABLE_ENTRIES) fail();
    tables.push({ type, min, max });
  }
  if (!r.done()) fail();
  if (limits.max_tables_per_contract !== null && BigInt(count) > limits.max_tables_per_contract)
    throw new PrepareFailure('TooManyTables');
  const maxElements = limits.max_elements_per_contract_table;
  if (maxElements !== null && tables.some((t) => BigInt(t.min) > maxElements))
    throw new PrepareFailure('TooManyTableElements');
  const out = new Sink().u32(count);
  for (const { type, min, max } of tables) {
    const cap = maxElements === null ? max : Math.min(max ?? Number(maxElements), Number(maxElements));
    out.byte(type);
    if (cap === null) out.byte(0).u32(min);
    else out.byte(1).u32(min).u32(cap);
  }
  return out;
}

/** Validates the element section; returns its size as nearcore's instrument_v3 re-encodes it. */
function checkElements(r: Reader, f: Features): number {
  const count = r.u32();
  let size = lebSize(count);
  for (let n = count; n > 0; n--) {
    const flags = r.u32();
    if (flags > 7 || (flags !== 0 && !f.reftypesBulkMemory)) fail();
    size += 1;
    if (flags === 2 || flags === 6) size += lebSize(r.u32());
    if ((flags & 1) === 0) size += constExprSize(r, f);
    if ((flags & 3) !== 0) {
      r.u8();
      size += 1;
    }
    const items = r.u32();
    size += lebSize(items);
    for (let k = items; k > 0; k--) {
      if ((flags & 4) === 0) size += lebSize(r.u32() + INJECTED_FUNCTIONS);
      else size += constExprSize(r, f);
    }
  }
  if (!r.done()) fail();
  return size;
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
  const s = readSections(code, limits.max_types_per_contract);
  const raw = (id: number): Uint8Array | undefined => {
    const sec = s.get(id);
    return sec === undefined ? undefined : code.subarray(sec.pos, sec.end);
  };
  const typeRaw = raw(1);
  const types = readTypes(s.get(1), f);
  const typeOf = (i: number): FuncType => types[i] ?? fail();
  let functionBudget = limits.max_functions_number_per_contract;
  const funcTypes: FuncType[] = [];
  const contractImports: ContractImport[] = [];
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
  // The size of nearcore's instrumented module, section by section.
  let nearcore = 8;
  let typeBytes = 0;
  for (const t of types)
    typeBytes += 1 + lebSize(t.params.length) + t.params.length + (t.result === 0 ? 1 : 2);

  // Imports: only `env` functions; then the standardized memory.
  const imports = new Sink();
  const imp = s.get(2);
  let importCount = 0;
  // Three imports of its own (module "internal") ahead of the contract's.
  let importBytes =
    3 * nameSize(8) +
    nameSize(25) +
    nameSize(27) +
    nameSize(15) +
    3 +
    2 * lebSize(typeCount) +
    lebSize(typeCount + 1);
  const nameBytes = (r: Reader): number => {
    const at = r.pos;
    const len = r.u32();
    r.pos = at;
    return nameSize(len);
  };
  if (imp !== undefined) {
    importCount = imp.u32();
    const from = imp.pos;
    // nearcore validates the whole section before it looks at any import: a malformed one anywhere
    // is Deserialization, ahead of an import nearcore refuses.
    const entries: { module: string; name: string; kind: number; type: FuncType | null }[] = [];
    for (let i = 0; i < importCount; i++) {
      importBytes += nameBytes(imp);
      const module = imp.name();
      importBytes += nameBytes(imp);
      const name = imp.name();
      const kind = imp.u8();
      let type: FuncType | null = null;
      if (kind === 0) {
        const typeIndex = imp.u32();
        importBytes += 1 + lebSize(typeIndex);
        type = typeOf(typeIndex);
      } else if (kind === 1) {
        const t = imp.u8();
        if (t !== 0x70 && !(t === 0x6f && f.reftypesBulkMemory)) fail();
        if (readLimits(imp, 0xffffffff) > MAX_TABLE_ENTRIES) fail();
      } else if (kind === 2) {
        if (readLimits(imp, MAX_MEMORY_PAGES) > MAX_MEMORY_PAGES) fail();
      } else if (kind === 3) {
        if (!isValType(imp.u8(), f) || imp.u8() > 1) fail();
      } else {
        fail();
      }
      entries.push({ module, name, kind, type });
    }
    if (!imp.done()) fail();
    for (const e of entries) {
      if (e.module !== 'env') throw new PrepareFailure('Instantiate');
      if (e.kind === 1 || e.kind === 3) throw new PrepareFailure('Instantiate');
      if (e.kind === 2) throw new PrepareFailure('Memory');
      funcTypes.push(e.type!);
      contractImports.push({ name: e.name, type: e.type! });
      if (--functionBudget < 0n) throw new PrepareFailure('TooManyFunctions');
    }
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
    let functionBytes = lebSize(count);
    for (let n = count; n > 0; n--) {
      const typeIndex = fnSec.u32();
      functionBytes += lebSize(typeIndex);
      definedTypes.push(typeOf(typeIndex));
    }
    if (!fnSec.done()) fail();
    fnFrom = code.subarray(from, fnSec.end);
    if (count > 0) nearcore += sectionSize(functionBytes);
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
  if (table !== undefined) {
    nearcore += sectionSize(table.end - table.pos);
    out.section(4, checkTables(table, f, limits));
  }
  // nearcore's memory: one, of initial_memory_pages up to max_memory_pages.
  nearcore += sectionSize(2 + lebSize(limits.initial_memory_pages) + lebSize(limits.max_memory_pages));
  const mem = s.get(5);
  if (mem !== undefined) {
    const n = mem.u32();
    if (n > 1) fail();
    for (let i = 0; i < n; i++) if (readLimits(mem, MAX_MEMORY_PAGES) > MAX_MEMORY_PAGES) fail();
    if (!mem.done()) fail();
  }

  // Globals: the contract's, then the gas budget (i64) and the stack budget (i32).
  const globals = new Sink();
  const gl = s.get(6);
  let globalCount = 0;
  let globalsFrom: Uint8Array = new Uint8Array(0);
  const mutableGlobals: number[] = [];
  const globalTypes: number[] = [];
  let resettable = true;
  let globalBytes = 0;
  if (gl !== undefined) {
    globalCount = gl.u32();
    const from = gl.pos;
    for (let i = 0; i < globalCount; i++) {
      globalBytes += 2;
      const type = gl.u8();
      if (!isValType(type, f)) fail();
      globalTypes.push(type);
      const mutability = gl.u8();
      if (mutability > 1) fail();
      if (mutability === 1) {
        mutableGlobals.push(i);
        if (type === 0x70 || type === 0x6f) resettable = false;
      }
      globalBytes += constExprSize(gl, f);
    }
    if (!gl.done()) fail();
    globalsFrom = code.subarray(from, gl.end);
  }
  // Its remaining gas (i64, 0) and stack (i64, max_stack_height) follow the contract's globals.
  globalBytes += lebSize(globalCount + 2) + 5 + 4 + slebSize(BigInt(limits.max_stack_height));
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
  // Its exports: "remaining_gas", the contract's own (without memories, names prefixed with "\0"),
  // "memory", and "start" for the start function.
  let exportEntries = 1;
  let exportBytes = nameSize(6) + 2;
  if (ex !== undefined) {
    exportCount = ex.u32();
    const from = ex.pos;
    for (let i = 0; i < exportCount; i++) {
      const at = ex.pos;
      const nameLength = ex.u32();
      ex.pos = at;
      const name = ex.name();
      const kind = ex.u8();
      const idx = ex.u32();
      if (kind !== 2) {
        exportEntries++;
        exportBytes += nameSize(nameLength + 1) + 1 + lebSize(kind === 0 ? idx + INJECTED_FUNCTIONS : idx);
      }
      if (kind === 0) {
        const t = funcTypes[idx] ?? fail();
        methods.set(name, t.params.length === 0 && t.result === 0);
      }
    }
    if (!ex.done()) fail();
    exportsFrom = code.subarray(from, ex.end);
  }
  const start = s.get(8);
  const startFn = start === undefined ? null : start.u32();
  if (startFn !== null) {
    exportEntries++;
    exportBytes += nameSize(5) + 1 + lebSize(startFn + INJECTED_FUNCTIONS);
  }
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
    nearcore += sectionSize(checkElements(elem, f));
    out.section(9, new Sink().bytes(code.subarray(from, elem.end)));
  }
  const dataCount = s.get(12);
  if (dataCount !== undefined) {
    if (!f.reftypesBulkMemory) fail();
    out.section(12, new Sink().bytes(rest(dataCount)));
    nearcore += sectionSize(dataCount.end - dataCount.pos);
  }

  const codeSec = s.get(10);
  const bodies = codeSec === undefined ? 0 : codeSec.u32();
  functionBudget -= BigInt(bodies);
  if (functionBudget < 0n) throw new PrepareFailure('TooManyFunctions');
  if (bodies !== definedTypes.length) fail();
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
    linearBase: config.linear_op_base_cost,
    linearUnit: config.linear_op_unit_cost,
    gasGlobal: globalCount,
    stackGlobal: globalCount + 1,
    memory: guard,
    types,
    funcTypes,
    globalTypes,
    localBudget: limits.max_locals_per_contract,
    maxParamsPerFunction: limits.max_params_per_function,
    paramBudget: limits.max_params_per_contract,
    maxOperandStack: limits.max_operand_stack_bytes_per_function,
    maxBlocksPerFunction: limits.max_blocks_per_function,
    blockBudget: limits.max_blocks_per_contract,
    deferred: null,
    nearcoreCode: 0,
    mutatesInstance: false,
  };
  const maxBody = limits.max_function_body_size;
  const sink = new Sink().u32(bodies + 2);
  for (let i = 0; i < bodies && codeSec !== undefined; i++) {
    const body = codeSec.bytes(codeSec.u32());
    if (maxBody !== null && BigInt(body.length) > maxBody) throw new PrepareFailure('FunctionBodyTooLarge');
    const rewritten = instrumentBody(body, definedTypes[i]!, ctx);
    sink.u32(rewritten.length).bytes(rewritten);
  }
  if (codeSec !== undefined && !codeSec.done()) fail();
  out.section(10, sink.bytes(helperBodies(guard, limits.initial_memory_pages, limits.max_memory_pages)));
  const data = s.get(11);
  let dataEnd = 0;
  if (data !== undefined) {
    const from = data.pos;
    nearcore += sectionSize(data.end - from);
    dataEnd = checkData(data, f);
    out.section(11, new Sink().bytes(code.subarray(from, data.end)));
  }
  // instrument_v3 adds its imports (and their two types) and its globals once it meets the
  // contract's, or its first body.
  const addsImports = imp !== undefined || bodies > 0;
  const allTypes = typeCount + (addsImports ? 2 : 0);
  if (allTypes > 0) nearcore += sectionSize(lebSize(allTypes) + typeBytes + (addsImports ? 7 : 0));
  if (addsImports) nearcore += sectionSize(lebSize(importCount + 3) + importBytes);
  if (gl !== undefined || bodies > 0) {
    nearcore += sectionSize(globalBytes);
    exportEntries++;
    exportBytes += nameSize(13) + 1 + lebSize(globalCount);
  }
  nearcore += sectionSize(lebSize(exportEntries) + exportBytes);
  if (bodies > 0) nearcore += sectionSize(lebSize(bodies) + ctx.nearcoreCode);
  const maxSize = limits.max_instrumented_code_size;
  const deferred =
    ctx.deferred ?? (maxSize !== null && BigInt(nearcore) > maxSize ? 'InstrumentedCodeTooLarge' : null);
  // nearcore validates the whole module as written before it instruments any of it. The module
  // written here imports its memory and runs the start function from the host, so a module using a
  // memory it never defines, exporting one, or with a start function that takes parameters would
  // pass as rewritten: the original is validated too.
  if (!WebAssembly.validate(code)) fail();
  if (deferred !== null) throw new PrepareFailure(deferred);
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
  return {
    bytes: out.toBytes(),
    methods,
    hasStart: startFn !== null,
    dataEnd,
    resetGlobals,
    imports: contractImports,
  };
}
