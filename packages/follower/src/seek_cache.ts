// What history seeks have found, per trie key, as height spans with one value each. A seek at height
// h that finds the key's row at height r (or no row) proves the key held that value at every height
// of [r, h] (or at every height up to h): no row lies between them. The proof lasts, because a follower only adds
// rows at heights above its cursor, which h never is, and state history is never collected. So a
// read at an old height, on a key changed since, costs a seek only the first time its span is met.
import { LruCache } from '@nearlite/store';

interface Span {
  readonly from: number;
  to: number;
  readonly value: Uint8Array | null;
}

/** Spans kept per key: a key read at many heights keeps its newest-found ones. */
const SPANS_PER_KEY = 32;
const SPAN_OVERHEAD = 64;

function weigh(spans: Span[]): number {
  let bytes = 0;
  for (const s of spans) bytes += SPAN_OVERHEAD + (s.value?.length ?? 0);
  return bytes;
}

export class SeekCache {
  private readonly keys: LruCache<string, Span[]>;

  constructor(bytes = 16 * 1024 * 1024) {
    this.keys = new LruCache(bytes, weigh);
  }

  /** The key's value at `height`, null if absent then; undefined when no seek has told. */
  get(key: string, height: number): Uint8Array | null | undefined {
    return this.find(key, height)?.value;
  }

  /** The row a seek found for `height` (`from`: its height, -1 for none); undefined when none has told. */
  find(
    key: string,
    height: number,
  ): { readonly from: number; readonly value: Uint8Array | null } | undefined {
    const spans = this.keys.get(key);
    if (!spans) return undefined;
    for (const s of spans) if (s.from <= height && height <= s.to) return s;
    return undefined;
  }

  /** Records a seek at `at` that found the row of height `from` (-1 and null: no row). */
  add(key: string, from: number, at: number, value: Uint8Array | null): void {
    const spans = this.keys.get(key) ?? [];
    const same = spans.find((s) => s.from === from);
    if (same) same.to = Math.max(same.to, at);
    else {
      spans.push({ from, to: at, value: value?.slice() ?? null });
      spans.sort((a, b) => b.from - a.from);
      if (spans.length > SPANS_PER_KEY) spans.length = SPANS_PER_KEY;
    }
    // Set again so the cache weighs the spans as they are now.
    this.keys.set(key, spans);
  }
}
