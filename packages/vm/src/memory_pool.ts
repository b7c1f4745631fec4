// Guest memories kept between calls. Each is allocated once at the maximum size; the contract sees
// a virtual size (prepare/memory_guard.ts), and after the call only what it wrote is zeroed.
import { PAGE } from './prepare/memory_guard.js';

const free: WebAssembly.Memory[] = [];
/** A call runs to completion before the next starts on a thread; one spare covers re-entry. */
const KEEP = 2;

export function takeMemory(pages: number): WebAssembly.Memory {
  for (let m = free.pop(); m !== undefined; m = free.pop()) {
    if (m.buffer.byteLength === pages * PAGE) return m;
  }
  return new WebAssembly.Memory({ initial: pages, maximum: pages });
}

/**
 * Zeroes the call's writes — the initial pages up to `lowEnd`, and every page it grew into — and
 * keeps the memory for the next call.
 */
export function releaseMemory(
  memory: WebAssembly.Memory,
  lowEnd: number,
  initialBytes: number,
  pages: number,
): void {
  zeroWrites(memory, 0, lowEnd, initialBytes, pages);
  keepMemory(memory);
}

/** Zeroes the initial pages from `from` up to `lowEnd`, and every page the call grew into. */
export function zeroWrites(
  memory: WebAssembly.Memory,
  from: number,
  lowEnd: number,
  initialBytes: number,
  pages: number,
): void {
  const bytes = new Uint8Array(memory.buffer);
  if (lowEnd > from) bytes.fill(0, from, Math.min(lowEnd, initialBytes));
  if (pages * PAGE > initialBytes) bytes.fill(0, initialBytes, pages * PAGE);
}

/** Keeps an all-zero memory for a later call, if the pool has room. */
export function keepMemory(memory: WebAssembly.Memory): void {
  if (free.length < KEEP) free.push(memory);
}
