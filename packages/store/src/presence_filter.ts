// A Bloom filter over the keys of a refcounted column (State: trie nodes by hash). Folding a count
// needs the row's current count, and most rows a block counts are new nodes that LevelDB has to
// search every level for (~17 a transfer on the bench's full chain, ~5.5 µs of CPU each). The filter never
// denies a key that was added, so a key it denies is absent and its count is 0 without a read; a key
// it admits is read as before. A deleted row stays admitted, which only costs that read.

/** Bits per expected key: with five probes, about one admitted absent key in 200 at capacity. */
const BITS_PER_KEY = 12;
const PROBES = 5;

export class PresenceFilter {
  private readonly bits: Uint32Array;
  private readonly mask: number;
  /** Keys added (a key added twice counts twice): past `capacity` the filter admits more and more. */
  added = 0;

  constructor(
    readonly capacity: number,
    bits?: Uint32Array,
  ) {
    let m = 1 << 16;
    while (m < capacity * BITS_PER_KEY && m < 2 ** 31) m *= 2;
    if (bits && bits.length !== m / 32) throw new RangeError('a filter of another size');
    this.bits = bits ?? new Uint32Array(m / 32);
    this.mask = m - 1;
  }

  /** The filter's bits, as `new PresenceFilter(capacity, bits)` takes them back. */
  get words(): Uint32Array {
    return this.bits;
  }

  /** Adds `key`, or its bytes from `from` on (a key read with its column's prefix). */
  add(key: Uint8Array, from = 0): void {
    this.added++;
    seed(key, from);
    let h = seedA;
    for (let i = 0; i < PROBES; i++) {
      const bit = h & this.mask;
      this.bits[bit >>> 5]! |= 1 << (bit & 31);
      h = (h + seedB) >>> 0;
    }
  }

  /** False only for a key never added. */
  mayContain(key: Uint8Array): boolean {
    seed(key, 0);
    let h = seedA;
    for (let i = 0; i < PROBES; i++) {
      const bit = h & this.mask;
      if ((this.bits[bit >>> 5]! & (1 << (bit & 31))) === 0) return false;
      h = (h + seedB) >>> 0;
    }
    return true;
  }
}

// The two words of double hashing, set by seed(): module state rather than a returned pair, so
// that a probe allocates nothing.
let seedA = 0;
let seedB = 1;

/**
 * A key that ends in a hash (a trie node's) gives its own last eight bytes; a shorter key is mixed
 * with FNV-1a.
 */
function seed(key: Uint8Array, from: number): void {
  const n = key.length;
  if (n - from >= 8) {
    seedA = (key[n - 1]! | (key[n - 2]! << 8) | (key[n - 3]! << 16) | (key[n - 4]! << 24)) >>> 0;
    seedB = (key[n - 5]! | (key[n - 6]! << 8) | (key[n - 7]! << 16) | (key[n - 8]! << 24) | 1) >>> 0;
    return;
  }
  let a = 0x811c9dc5;
  for (let i = from; i < n; i++) a = Math.imul(a ^ key[i]!, 0x01000193) >>> 0;
  seedA = a;
  seedB = (Math.imul(a ^ (a >>> 15), 0x2c1b3c6d) | 1) >>> 0;
}
