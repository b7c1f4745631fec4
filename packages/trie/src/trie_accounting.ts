// nearcore's AccountingState (runtime/src/ext.rs): the trie nodes and values a chunk's contract
// storage operations have looked up, by hash. A lookup of one met before is charged as
// read_cached_trie_node, any other as touching_trie_node: the two cost the same since protocol 82,
// but an outcome's gas profile names them apart. nearcore makes one per ApplyState, so one chunk's
// receipts share it, and each view call has its own.
import type { CryptoHash } from '@nearlite/primitives';
import { HashSet32 } from './hash_set32.js';

/** Lookups touch a few nodes each: most chunks and view calls meet fewer than a hundred. */
const FIRST_SLOTS = 128;

export class TrieAccounting {
  private readonly seen = new HashSet32(FIRST_SLOTS);

  /** Counts a lookup of `hash`: true when it was met before (a cached read), false the first time. */
  cached(hash: CryptoHash): boolean {
    return !this.seen.add(hash);
  }
}
