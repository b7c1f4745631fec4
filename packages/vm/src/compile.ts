// Prepares and compiles a contract, or reports why it cannot run, through the cache.
import { toHex } from '@nearlite/primitives';
import type { CompiledContract, ContractCache } from './cache.js';
import { prepareConfigKey, type VMConfig } from './config.js';
import { PrepareFailure } from './prepare/bytes.js';
import { prepareContract } from './prepare/prepare.js';

export function compileContract(code: Uint8Array, config: VMConfig): CompiledContract {
  const codeLength = code.length;
  let prepared: ReturnType<typeof prepareContract>;
  try {
    prepared = prepareContract(code, config);
  } catch (e) {
    if (e instanceof PrepareFailure)
      return { ok: false, error: { CompilationError: { PrepareError: e.kind } }, codeLength };
    throw e;
  }
  let module: WebAssembly.Module;
  try {
    module = new WebAssembly.Module(prepared.bytes);
  } catch (e) {
    // Preparation admits only what nearcore's validator accepts; V8 rejecting the rest (bad types,
    // bad indices) is nearcore's Deserialization too.
    if (e instanceof WebAssembly.CompileError) {
      return { ok: false, error: { CompilationError: { PrepareError: 'Deserialization' } }, codeLength };
    }
    throw e;
  }
  return {
    ok: true,
    module,
    methods: prepared.methods,
    hasStart: prepared.hasStart,
    dataEnd: prepared.dataEnd,
    resetGlobals: prepared.resetGlobals,
    imports: prepared.imports,
    codeLength,
  };
}

export function cacheKey(codeHash: Uint8Array, config: VMConfig): string {
  return `${toHex(codeHash)}:${prepareConfigKey(config)}`;
}

export function getOrCompile(
  cache: ContractCache,
  codeHash: Uint8Array,
  config: VMConfig,
  code: () => Uint8Array | null,
): CompiledContract | null {
  const key = cacheKey(codeHash, config);
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const bytes = code();
  if (bytes === null) return null;
  const compiled = compileContract(bytes, config);
  cache.set(key, compiled);
  return compiled;
}
