// What nearcore's trie recorder holds after a set of lookups, worked out from the trie's own proof
// walk rather than from nearlite's recorder: the stored bytes of every distinct node on the keys'
// paths and, for the lookups that read it, of every distinct value.
import { toHex } from '@nearlite/primitives';
import type { Trie } from '@nearlite/trie';

/** The stored bytes of the nodes a walk to `key` visits. */
export function pathBytes(trie: Trie, key: Uint8Array): number {
  return trie.iterPrefixWithProof(key).proof.reduce((n, node) => n + node.length, 0);
}

export class ProvenBytes {
  size = 0;
  private readonly seen = new Set<string>();

  constructor(private readonly trie: Trie) {}

  /** A lookup of `key`, which is present: its path, and its value when `read`. */
  add(key: Uint8Array, read = true): void {
    for (const node of this.trie.iterPrefixWithProof(key).proof) this.count(node);
    if (read) this.count(this.trie.get(key)!);
  }

  private count(bytes: Uint8Array): void {
    const k = toHex(bytes);
    if (this.seen.has(k)) return;
    this.seen.add(k);
    this.size += bytes.length;
  }
}
