// After a rollback, the receipts the new head still owes the chain: what its chunks sent, and what
// its shards' states hold back (postponed until their data comes, delayed by a full chunk, yielded).
// The dropped blocks that ran them took their Receipts rows along (GC's rule: a row goes with the
// block of its outcome), yet the chain runs them again, and `EXPERIMENTAL_receipt` must find them.
import { type CryptoHash, decodeReceipt, decodeStoredReceipt, encodeReceipt } from '@nearlite/primitives';
import { blockShardKey, DBCol, type Store } from '@nearlite/store';
import { Trie, TrieKeyCol } from '@nearlite/trie';
import { Batches } from './batches.js';
import { ChainStore } from './chain_store.js';
import { decodeBytesList } from './outcome_store.js';
import { trieStorage } from './state_store.js';

/** The trie columns whose values are whole receipts, as `[column, value → receipt bytes]`. */
const HELD_BACK: readonly [number, (value: Uint8Array) => Uint8Array][] = [
  [TrieKeyCol.PostponedReceipt, (v) => v],
  [TrieKeyCol.PromiseYieldReceipt, (v) => v],
  // The column's bare byte is the queue's indices; each receipt is stored with its congestion figures.
  [TrieKeyCol.DelayedReceiptOrIndices, (v) => encodeReceipt(decodeStoredReceipt(v).receipt)],
];

/** Writes the Receipts row of every receipt block `hash` still owes, where it is missing. */
export async function restorePendingReceipts(
  store: Store,
  shardIds: readonly number[],
  hash: CryptoHash,
  rowsPerBatch: number,
): Promise<number> {
  const rows = new Batches(store, rowsPerBatch);
  let restored = 0;
  const keep = async (bytes: Uint8Array) => {
    const id = decodeReceipt(bytes).receiptId;
    if (store.get(DBCol.Receipts, id)) return;
    rows.update.put(DBCol.Receipts, id, bytes);
    restored++;
    await rows.added();
  };
  const cs = new ChainStore(store);
  for (const shardId of shardIds) {
    const sent = store.get(DBCol.OutgoingReceipts, blockShardKey(hash, shardId));
    if (sent) for (const bytes of decodeBytesList(sent)) await keep(bytes);
    const trie = new Trie(trieStorage(store), cs.chunkExtra(hash, shardId)!.stateRoot);
    for (const [col, receiptBytes] of HELD_BACK)
      for (const [key, value] of trie.iterPrefix(Uint8Array.of(col)))
        if (key.length > 1) await keep(receiptBytes(value));
  }
  await rows.flush();
  return restored;
}
