// Decoded trie nodes by hash, in a cache that neither allocates nor hashes strings to find them.
//
// Keys are nodes' sha256 hashes, so their first bytes are already uniformly spread: they pick one
// set of `WAYS` slots, and a node lives in one slot of its set, the set's least recently used giving
// way (with 8 slots a set, ~96 % of an exact LRU's hits at the same size on a skewed mix; 4 gave 92 %). Under a transfer flood the chain thread looks up and stores ~20 nodes a transfer here; keyed by
// strings in a Map of 50,000 entries, making each key and finding it in the Map's table was ~7 % of
// that thread's time. A key no entry matches is only a miss: nodes are immutable by hash.

const WAYS = 8;
const HASH_BYTES = 32;

export class NodeCache<V> {
  private readonly setMask: number;
  /** Each slot's key: the hash, 32 bytes a slot. */
  private readonly keys: Uint8Array;
  private readonly values: (V | undefined)[];
  /** When each slot was last used (0: empty). */
  private readonly stamps: Float64Array;
  private clock = 0;

  /** Holds at least `capacity` entries (rounded up to a power of two sets of `WAYS`). */
  constructor(capacity: number) {
    let sets = 1;
    while (sets * WAYS < capacity) sets *= 2;
    this.setMask = sets - 1;
    this.keys = new Uint8Array(sets * WAYS * HASH_BYTES);
    this.values = new Array<V | undefined>(sets * WAYS).fill(undefined);
    this.stamps = new Float64Array(sets * WAYS);
  }

  get capacity(): number {
    return this.values.length;
  }

  get(hash: Uint8Array): V | undefined {
    if (hash.length !== HASH_BYTES) return undefined;
    const slot = this.find(hash);
    if (slot < 0) return undefined;
    this.stamps[slot] = ++this.clock;
    return this.values[slot];
  }

  set(hash: Uint8Array, value: V): void {
    if (hash.length !== HASH_BYTES) return;
    let slot = this.find(hash);
    if (slot < 0) {
      const first = this.setOf(hash) * WAYS;
      slot = first;
      for (let w = 1; w < WAYS; w++) if (this.stamps[first + w]! < this.stamps[slot]!) slot = first + w;
      this.keys.set(hash, slot * HASH_BYTES);
    }
    this.values[slot] = value;
    this.stamps[slot] = ++this.clock;
  }

  clear(): void {
    this.values.fill(undefined);
    this.stamps.fill(0);
  }

  private setOf(hash: Uint8Array): number {
    return (hash[0]! | (hash[1]! << 8) | (hash[2]! << 16) | (hash[3]! << 24)) & this.setMask;
  }

  /** The slot holding `hash`, or -1. */
  private find(hash: Uint8Array): number {
    const first = this.setOf(hash) * WAYS;
    const keys = this.keys;
    for (let slot = first; slot < first + WAYS; slot++) {
      if (this.stamps[slot] === 0) continue;
      // The first bytes chose the set; the rest tell its slots apart.
      let at = slot * HASH_BYTES + HASH_BYTES - 1;
      let i = HASH_BYTES - 1;
      while (i >= 0 && keys[at] === hash[i]) {
        at--;
        i--;
      }
      if (i < 0) return slot;
    }
    return -1;
  }
}
