// Compiled contracts by code hash (and the config values preparation bakes in), LRU-capped because a
// compiled module holds native code. Failures are cached too: a bad contract fails the same way twice.
import type { FunctionCallError } from './errors.js';
import type { ContractImport } from './prepare/prepare.js';

export type CompiledContract =
  | {
      readonly ok: true;
      readonly module: WebAssembly.Module;
      readonly methods: ReadonlyMap<string, boolean>;
      readonly hasStart: boolean;
      readonly dataEnd: number;
      /** Globals to restore when an instance is reused; null: a fresh instance every call. */
      readonly resetGlobals: readonly string[] | null;
      /** Its imports (functions of `env`), which link against the offered host functions. */
      readonly imports: readonly ContractImport[];
      readonly codeLength: number;
    }
  | { readonly ok: false; readonly error: FunctionCallError; readonly codeLength: number };

export class ContractCache {
  private readonly entries = new Map<string, CompiledContract>();

  constructor(readonly capacity = 256) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): CompiledContract | undefined {
    const v = this.entries.get(key);
    if (v !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, v);
    }
    return v;
  }

  set(key: string, value: CompiledContract): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  clear(): void {
    this.entries.clear();
  }
}
