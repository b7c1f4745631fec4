// The read caches' policy: an exact LRU (lru-cache), bounded in entries or in any unit `weigh`
// measures. Measured against a two-generation map LRU at the same byte budget on a node's read mix
// (bench/src/cache.js), it keeps more of the hot set (a miss costs a LevelDB read) and is no slower.
import { LRUCache } from 'lru-cache';

export class LruCache<K extends {}, V extends {}> {
  private readonly lru: LRUCache<K, V>;

  constructor(capacity: number, weigh?: (value: V) => number) {
    const max = Math.max(1, Math.floor(capacity));
    // An entry bound is a size bound of one per entry: lru-cache's `max` allocates its arrays for
    // every entry up front, which for the 200,000-entry receipt index alone cost a node's start
    // about 0.1 s and its memory from the first moment.
    this.lru = new LRUCache<K, V>({
      maxSize: max,
      sizeCalculation: weigh ? (v) => Math.max(1, weigh(v)) : () => 1,
    });
  }

  get(key: K): V | undefined {
    return this.lru.get(key);
  }

  set(key: K, value: V): void {
    this.lru.set(key, value);
  }

  delete(key: K): void {
    this.lru.delete(key);
  }

  clear(): void {
    this.lru.clear();
  }

  get size(): number {
    return this.lru.size;
  }
}
