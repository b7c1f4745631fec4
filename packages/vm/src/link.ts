// Whether a prepared contract links against the host functions this thread offers, decided before
// its method is looked up, as nearcore's Wasmtime runner links it (`Linker::instantiate_pre` when
// the module is loaded, vm_kind Wasmtime since protocol 84): the first import with no host
// function of its name fails it with "unknown or invalid import"; otherwise the first whose
// signature differs with "incompatible import type for `env::NAME`" (Wasmtime's context message).
import type { CompiledContract } from './cache.js';
import type { HostFunctionDef } from './imports.js';
import type { ContractImport } from './prepare/prepare.js';

const VAL_TYPES: Readonly<Record<number, string>> = { 127: 'i32', 126: 'i64' };

function sameSignature(i: ContractImport, d: HostFunctionDef): boolean {
  const { params, result } = i.type;
  if (params.length !== d.params.length) return false;
  for (let k = 0; k < params.length; k++) if (VAL_TYPES[params[k]!] !== d.params[k]) return false;
  return result === 0 ? d.result === null : VAL_TYPES[result] === d.result;
}

export function linkError(
  imports: readonly ContractImport[],
  table: Readonly<Record<string, HostFunctionDef>>,
): string | null {
  for (const i of imports) if (!Object.hasOwn(table, i.name)) return 'unknown or invalid import';
  for (const i of imports)
    if (!sameSignature(i, table[i.name]!)) return `incompatible import type for \`env::${i.name}\``;
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
