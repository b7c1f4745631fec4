/**
 * A bounded cache with least-recently-used eviction by generations: reads hit the young map, or
 * promote from the old one; when the young map is full it becomes the old one and the previous old
 * generation is dropped. No per-read delete/reinsert, which is what makes a Map-based LRU slow.
 *
 * The bound is in entries, or in any unit `weigh` measures (bytes, say): each generation holds at
 * most half of `capacity`.
 */
export class LruCache<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();
  private youngWeight = 0;
  private readonly half: number;

  constructor(
    capacity: number,
    private readonly weigh: (value: V) => number = () => 1,
  ) {
    this.half = Math.max(1, Math.floor(capacity / 2));
  }

  get(key: K): V | undefined {
    const v = this.young.get(key);
    if (v !== undefined) return v;
    const o = this.old.get(key);
    if (o !== undefined) {
      this.old.delete(key);
      this.insert(key, o);
    }
    return o;
  }

  set(key: K, value: V): void {
    this.old.delete(key);
    this.insert(key, value);
  }

  private insert(key: K, value: V): void {
    const prev = this.young.get(key);
    if (prev !== undefined) this.youngWeight -= this.weigh(prev);
    else if (this.youngWeight >= this.half) {
      this.old = this.young;
      this.young = new Map();
      this.youngWeight = 0;
    }
    this.young.set(key, value);
    this.youngWeight += this.weigh(value);
  }

  delete(key: K): void {
    const prev = this.young.get(key);
    if (prev !== undefined) {
      this.youngWeight -= this.weigh(prev);
      this.young.delete(key);
    }
    this.old.delete(key);
  }

  clear(): void {
    this.young.clear();
    this.old.clear();
    this.youngWeight = 0;
  }

  get size(): number {
    return this.young.size + this.old.size;
  }
}
