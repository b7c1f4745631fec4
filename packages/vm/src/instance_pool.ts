// Instances kept between calls. Instantiating a contract was the largest single cost of a view call
// after its own work. An instance's state is its memory, its globals, its tables and its dropped
// segments; for a module that cannot change the last two (prepare's `resetGlobals` is not null), a
// finished instance is put back exactly as instantiation left it — written memory zeroed, the memory
// below the data segments' end copied back from the image taken at its first instantiation (from the
// lowest address the call wrote: a Rust contract's data sits above a 1 MiB stack, which a call
// touches only near its top), every mutable global set back — and the next call of the same module
// runs on it.
import type { CompiledContract } from './cache.js';
import { keepMemory } from './memory_pool.js';

/** An instance as instantiation left it, with what restores it after a call. */
export interface PooledInstance {
  readonly instance: WebAssembly.Instance;
  readonly memory: WebAssembly.Memory;
  /** The memory below the data segments' end, as instantiation wrote it. */
  readonly image: Uint8Array;
  readonly globals: readonly WebAssembly.Global[];
  readonly initial: readonly (number | bigint)[];
}

/** Modules whose instance a thread keeps; each holds a memory (only its touched pages are resident). */
const KEEP = 2;
const idle = new Map<CompiledContract, PooledInstance>();

/** Takes the idle instance of `compiled`, if one is kept. */
export function takeInstance(compiled: CompiledContract): PooledInstance | undefined {
  const p = idle.get(compiled);
  if (p !== undefined) idle.delete(compiled);
  return p;
}

/**
 * What a freshly made instance needs to be reset later: its globals' initial values and its memory
 * image. Call before any guest code runs. Null when the module cannot be reset.
 */
export function resetPoint(
  compiled: CompiledContract,
  instance: WebAssembly.Instance,
  memory: WebAssembly.Memory,
): PooledInstance | null {
  if (!compiled.ok || compiled.resetGlobals === null) return null;
  const globals = compiled.resetGlobals.map((name) => instance.exports[name] as WebAssembly.Global);
  return {
    instance,
    memory,
    image: new Uint8Array(memory.buffer, 0, compiled.dataEnd).slice(),
    globals,
    initial: globals.map((g) => g.value as number | bigint),
  };
}

/**
 * Puts an instance back after its call, once the memory the call wrote above the data has been
 * zeroed; `lowestWrite` is where the call's lowest write into memory began. The least recently used
 * module's instance makes room; its memory, cleared, goes back to the memory pool.
 */
export function returnInstance(compiled: CompiledContract, p: PooledInstance, lowestWrite = 0): void {
  const from = Math.max(0, lowestWrite);
  if (from < p.image.length) new Uint8Array(p.memory.buffer).set(p.image.subarray(from), from);
  for (let i = 0; i < p.globals.length; i++) p.globals[i]!.value = p.initial[i]!;
  idle.delete(compiled);
  idle.set(compiled, p);
  while (idle.size > KEEP) {
    const [oldest, evicted] = idle.entries().next().value as [CompiledContract, PooledInstance];
    idle.delete(oldest);
    new Uint8Array(evicted.memory.buffer).fill(0, 0, evicted.image.length);
    keepMemory(evicted.memory);
  }
}

/** Instances this thread keeps for reuse. */
export function keptInstances(): number {
  return idle.size;
}
