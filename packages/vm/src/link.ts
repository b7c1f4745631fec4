// Whether a prepared contract links against the host functions this thread offers, decided before
// its method is looked up, as nearcore's Wasmtime runner links it (`Linker::instantiate_pre` when
// the module is loaded, vm_kind Wasmtime since protocol 84): the first import with no host
// function of its name fails it with "unknown or invalid import"; otherwise the first whose
// signature differs with Wasmtime's type mismatch (`into_vm_error` keeps the error's root cause, not
// the "incompatible import type for `env::NAME`" context Wasmtime wraps around it).
import type { CompiledContract } from './cache.js';
import type { HostFunctionDef } from './imports.js';
import type { ContractImport } from './prepare/prepare.js';

/** Value types by their byte, as Wasmtime writes them (host functions take only i32 and i64). */
const VAL_TYPES: Readonly<Record<number, string>> = {
  127: 'i32',
  126: 'i64',
  125: 'f32',
  124: 'f64',
  112: 'funcref',
  111: 'externref',
};

function sameSignature(i: ContractImport, d: HostFunctionDef): boolean {
  const { params, result } = i.type;
  if (params.length !== d.params.length) return false;
  for (let k = 0; k < params.length; k++) if (VAL_TYPES[params[k]!] !== d.params[k]) return false;
  return result === 0 ? d.result === null : VAL_TYPES[result] === d.result;
}

/** A function type as Wasmtime writes it: `(func (param i32 i64) (result i64))`. */
function funcType(params: readonly string[], results: readonly string[]): string {
  const p = params.length === 0 ? '' : ` (param ${params.join(' ')})`;
  const r = results.length === 0 ? '' : ` (result ${results.join(' ')})`;
  return `(func${p}${r})`;
}

export function linkError(
  imports: readonly ContractImport[],
  table: Readonly<Record<string, HostFunctionDef>>,
): string | null {
  for (const i of imports) if (!Object.hasOwn(table, i.name)) return 'unknown or invalid import';
  for (const i of imports)
    if (!sameSignature(i, table[i.name]!)) {
      const host = table[i.name]!;
      const declared = funcType(
        i.type.params.map((p) => VAL_TYPES[p] ?? '?'),
        i.type.result === 0 ? [] : [VAL_TYPES[i.type.result] ?? '?'],
      );
      const found = funcType(host.params, host.result === null ? [] : [host.result]);
      return `function types incompatible: expected type \`${declared}\`, found type \`${found}\``;
    }
  return null;
}

type Compiled = Extract<CompiledContract, { ok: true }>;
/** Per compiled contract, its verdict against each table it was checked against. */
const verdicts = new WeakMap<Compiled, Map<object, string | null>>();

export function cachedLinkError(
  compiled: Compiled,
  table: Readonly<Record<string, HostFunctionDef>>,
): string | null {
  let byTable = verdicts.get(compiled);
  if (byTable === undefined) {
    byTable = new Map();
    verdicts.set(compiled, byTable);
  }
  let verdict = byTable.get(table);
  if (verdict === undefined) {
    verdict = linkError(compiled.imports, table);
    byTable.set(table, verdict);
  }
  return verdict;
}
