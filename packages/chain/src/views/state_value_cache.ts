// Values read by views, by (state root, key). A root fixes every value beneath it, so an entry never
// goes stale; on a chain whose blocks change little (a sandbox between transactions, the empty blocks
// of an idle one) the same root answers many views, each of which would otherwise walk the trie from
// the root (one node-cache lookup per level, then the value's own row).
import { binaryKey, type CryptoHash } from '@nearlite/primitives';
import { LruCache } from '@nearlite/store';
import { Trie, type TrieStorage } from '@nearlite/trie';

const ABSENT = new Uint8Array(0);
/** Values larger than this are read through the trie each time: they would crowd out the rest. */
const MAX_VALUE = 4096;
// An entry's weight: its bytes, its key string (two bytes a char) and the map's own overhead.
const cache = new LruCache<string, Uint8Array>(8 * 1024 * 1024, (v) => v.length + 200);

export class CachedViewTrie extends Trie {
  private readonly rootKey: string;

  constructor(storage: TrieStorage, root: CryptoHash) {
    super(storage, root);
    this.rootKey = binaryKey(root);
  }

  override get(key: Uint8Array): Uint8Array | undefined {
    const k = this.rootKey + binaryKey(key);
    const hit = cache.get(k);
    if (hit !== undefined) return hit === ABSENT ? undefined : hit;
    const v = super.get(key);
    if (v === undefined) cache.set(k, ABSENT);
    else if (v.length <= MAX_VALUE) cache.set(k, v);
    return v;
  }
}
