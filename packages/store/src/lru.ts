// The read caches' policy: an exact LRU, bounded in entries or in any unit `weigh` measures.
// Measured against a two-generation map LRU at the same byte budget on a node's read mix
// (bench/src/cache.js), an exact LRU keeps more of the hot set (a miss costs a LevelDB read).
//
// Entries sit in slots of parallel arrays linked in recency order, found through one Map from key
// to slot. Every get and set on the chain thread's and the RPC thread's hot paths comes through
// here (the trie's decoded nodes, the store's rows, headers, answers); a general-purpose LRU's
// per-call options, TTL and disposal checks cost those threads ~7 % of their time under a
// transaction flood, and its default options object was allocated on every get.

const NONE = -1;

export class LruCache<K extends {}, V extends {}> {
  private readonly capacity: number;
  private readonly weigh: ((value: V) => number) | undefined;
  private readonly index = new Map<K, number>();
  private keys: (K | undefined)[] = [];
  private values: (V | undefined)[] = [];
  private weights: number[] = [];
  // Toward the least recently used (`prev`) and the most recently used (`next`) neighbour.
  private prev: number[] = [];
  private next: number[] = [];
  private free: number[] = [];
  private oldest = NONE;
  private newest = NONE;
  private total = 0;

  constructor(capacity: number, weigh?: (value: V) => number) {
    this.capacity = Math.max(1, Math.floor(capacity));
    this.weigh = weigh;
  }

  get(key: K): V | undefined {
    const slot = this.index.get(key);
    if (slot === undefined) return undefined;
    if (slot !== this.newest) {
      this.unlink(slot);
      this.append(slot);
    }
    return this.values[slot];
  }

  set(key: K, value: V): void {
    const weight = this.weigh ? Math.max(1, this.weigh(value)) : 1;
    // An entry larger than the whole cache would evict everything and then itself.
    if (weight > this.capacity) {
      this.delete(key);
      return;
    }
    let slot = this.index.get(key);
    if (slot !== undefined) {
      this.total += weight - (this.weights[slot] as number);
      this.values[slot] = value;
      this.weights[slot] = weight;
      if (slot !== this.newest) {
        this.unlink(slot);
        this.append(slot);
      }
    } else {
      slot = this.free.pop();
      if (slot === undefined) {
        slot = this.keys.length;
        this.keys.push(key);
        this.values.push(value);
        this.weights.push(weight);
        this.prev.push(NONE);
        this.next.push(NONE);
      } else {
        this.keys[slot] = key;
        this.values[slot] = value;
        this.weights[slot] = weight;
      }
      this.index.set(key, slot);
      this.append(slot);
      this.total += weight;
    }
    while (this.total > this.capacity) this.drop(this.oldest);
  }

  delete(key: K): void {
    const slot = this.index.get(key);
    if (slot !== undefined) this.drop(slot);
  }

  clear(): void {
    this.index.clear();
    this.keys = [];
    this.values = [];
    this.weights = [];
    this.prev = [];
    this.next = [];
    this.free = [];
    this.oldest = NONE;
    this.newest = NONE;
    this.total = 0;
  }

  get size(): number {
    return this.index.size;
  }

  private drop(slot: number): void {
    this.unlink(slot);
    this.index.delete(this.keys[slot] as K);
    this.total -= this.weights[slot] as number;
    this.keys[slot] = undefined;
    this.values[slot] = undefined;
    this.free.push(slot);
  }

  private unlink(slot: number): void {
    const p = this.prev[slot] as number;
    const n = this.next[slot] as number;
    if (p === NONE) this.oldest = n;
    else this.next[p] = n;
    if (n === NONE) this.newest = p;
    else this.prev[n] = p;
  }

  private append(slot: number): void {
    this.prev[slot] = this.newest;
    this.next[slot] = NONE;
    if (this.newest === NONE) this.oldest = slot;
    else this.next[this.newest] = slot;
    this.newest = slot;
  }
}
