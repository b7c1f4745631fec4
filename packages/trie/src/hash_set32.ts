/**
 * A set of 32-byte hashes, open addressing over one byte array: a chunk's lookups add tens of
 * thousands, and a Map keyed by strings would make a string of each.
 */
export class HashSet32 {
  private keys: Uint8Array;
  private used: Uint8Array;
  private count = 0;

  /** `slots`: the table's first size, a power of two; it doubles as hashes are added. */
  constructor(slots = 1024) {
    this.keys = new Uint8Array(slots * 32);
    this.used = new Uint8Array(slots);
  }

  /** Adds `hash`; false when it was already there. */
  add(hash: Uint8Array): boolean {
    if ((this.count + 1) * 2 > this.used.length) this.grow();
    const slot = this.find(hash);
    if (this.used[slot] === 1) return false;
    this.used[slot] = 1;
    this.keys.set(hash, slot * 32);
    this.count++;
    return true;
  }

  /** The slot holding `hash`, or the empty slot where it would go. Hashes are sha256: uniform. */
  private find(hash: Uint8Array): number {
    const mask = this.used.length - 1;
    let slot = (hash[0]! | (hash[1]! << 8) | (hash[2]! << 16) | (hash[3]! << 24)) & mask;
    for (;;) {
      if (this.used[slot] === 0 || this.equals(slot, hash)) return slot;
      slot = (slot + 1) & mask;
    }
  }

  private equals(slot: number, hash: Uint8Array): boolean {
    const at = slot * 32;
    for (let i = 31; i >= 0; i--) if (this.keys[at + i] !== hash[i]) return false;
    return true;
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldUsed = this.used;
    this.keys = new Uint8Array(oldKeys.length * 2);
    this.used = new Uint8Array(oldUsed.length * 2);
    for (let s = 0; s < oldUsed.length; s++) {
      if (oldUsed[s] === 0) continue;
      const h = oldKeys.subarray(s * 32, s * 32 + 32);
      const slot = this.find(h);
      this.used[slot] = 1;
      this.keys.set(h, slot * 32);
    }
  }
}
