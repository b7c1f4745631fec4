// Glue between the trie and the store: trie nodes and values live in the refcounted State column.
// Insertions are applied with the block; deletions are kept per block in TrieChanges and applied
// only when GC collects that block, so every kept block's state root stays readable.
import { BorshReader, BorshWriter, type CryptoHash } from '@nearlite/primitives';
import { blockShardKey, DBCol, type Store, type StoreUpdate } from '@nearlite/store';
import {
  type StateReader,
  type Trie,
  type TrieChanges,
  TrieKeyCol,
  type TrieRecorder,
  type TrieStorage,
} from '@nearlite/trie';

export function trieStorage(store: Store): TrieStorage {
  return { get: (hash: CryptoHash) => store.get(DBCol.State, hash) };
}

export function writeTrieChanges(
  update: StoreUpdate,
  blockHash: CryptoHash,
  shardId: number,
  changes: TrieChanges,
  /** Without them GC cannot release the replaced nodes: for nodes that never collect. */
  saveDeletions = true,
): void {
  for (const ins of changes.insertions) update.incRef(DBCol.State, ins.hash, ins.bytes, ins.rc);
  if (saveDeletions && changes.deletions.length > 0) {
    const w = new BorshWriter(8 + 40 * changes.deletions.length);
    w.vec(changes.deletions, (w, d) => w.fixed(d.hash).u32(d.rc));
    update.put(DBCol.TrieChanges, blockShardKey(blockHash, shardId), w.toBytes());
  }
}

export function readTrieDeletions(bytes: Uint8Array): { hash: CryptoHash; rc: number }[] {
  const r = new BorshReader(bytes);
  return r.vec((r) => ({ hash: r.fixed(32), rc: r.u32() }));
}

/**
 * The state a chunk is applied on: values from the flat column, and every lookup recorded against
 * the recorder's trie (the chunk's base) as nearcore records it (a flat read still walks the trie to
 * the key when recording). Contract code is read without recording: nearcore fetches the code a call
 * runs by hash, and sends it to validators apart from the proof; the length of an account's code
 * (nearcore's get_code_len, for what a deployment or deletion takes off its storage usage) records
 * the path to it, as any lookup that stops at a value's reference does. The nodes a write's lookup
 * touches are counted on the recorder's walk, which the write's read has just made.
 */
export function recordingStateReader(
  flat: { get(key: Uint8Array): Uint8Array | undefined },
  trie: Trie,
  recorder: TrieRecorder,
): StateReader {
  const recorded = (key: Uint8Array) =>
    key[0] !== TrieKeyCol.ContractCode && key[0] !== TrieKeyCol.GlobalContractCode;
  return {
    get(key) {
      if (recorded(key)) recorder.recordLookup(key, true);
      return flat.get(key);
    },
    valueLength(key) {
      recorder.recordLookup(key, false);
      return flat.get(key)?.length;
    },
    has(key) {
      if (recorded(key)) recorder.recordLookup(key, false);
      return flat.get(key) !== undefined;
    },
    iterPrefix: (prefix) => trie.iterPrefix(prefix),
    touchedNodes: (key, accounting) =>
      recorded(key) ? recorder.recordLookup(key, false, accounting) : trie.touchedNodes(key, accounting),
  };
}
