// The flat head-state rows as they are, and as the head's tries say they should be, for comparing.
import { ChainStore, flatStateKey, trieStorage } from '@nearlite/chain';
import { toHex } from '@nearlite/primitives';
import { DBCol, type Store } from '@nearlite/store';
import { Trie } from '@nearlite/trie';

/** Every flat row, as hex key → hex value. */
export async function flatRows(store: Store): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const [k, v] of store.iter(DBCol.FlatState)) out.set(toHex(k), toHex(v));
  return out;
}

/** What the flat rows should be at the head: every shard's trie, each key under its shard. */
export function fromTries(store: Store, shardIds: readonly number[], head: Uint8Array): Map<string, string> {
  const cs = new ChainStore(store);
  const out = new Map<string, string>();
  for (const shardId of shardIds) {
    const trie = new Trie(trieStorage(store), cs.chunkExtra(head, shardId)!.stateRoot);
    for (const [k, v] of trie.iterPrefix(new Uint8Array(0)))
      out.set(toHex(flatStateKey(shardId, k)), toHex(v));
  }
  return out;
}
