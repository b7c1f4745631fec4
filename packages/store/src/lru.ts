/**
 * A bounded cache with least-recently-used eviction by generations: reads hit the young map, or
 * promote from the old one; when the young map is full it becomes the old one and the previous old
 * generation is dropped. No per-read delete/reinsert, which is what makes a Map-based LRU slow.
 */
export class LruCache<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();
  private readonly half: number;

  constructor(capacity: number) {
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
    if (!this.young.has(key) && this.young.size >= this.half) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, value);
  }

  delete(key: K): void {
    this.young.delete(key);
    this.old.delete(key);
  }

  clear(): void {
    this.young.clear();
    this.old.clear();
  }

  get size(): number {
    return this.young.size + this.old.size;
  }
}
