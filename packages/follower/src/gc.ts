// Retention on a follower that is not archival: blocks more than `keepBlocks` below the cursor are
// collected a few at a time, each as one batch that also moves `first` (the follower's tail), so
// queries below it answer GARBAGE_COLLECTED_BLOCK and block lookups UNKNOWN_BLOCK, as on a GC'd
// producer. The rows of a block are found from the block itself: its chunks (with the data
// receipts they carried) and the outcome ids it lists. State history is kept: the rows below the tail still hold the
// values that are current at it.
import { base58Decode, fromUtf8 } from '@nearlite/primitives';
import { blockShardKey, DBCol, StoreUpdate, u64be } from '@nearlite/store';
import { FIRST_KEY } from './history_keys_misc.js';
import type { FollowerGcOptions } from './history_reader.js';
import type { HistoryStore } from './history_store.js';

/** Collects up to `heightsPerStep` heights; returns how many blocks were deleted. */
export async function gcFollowerStep(history: HistoryStore, o: FollowerGcOptions): Promise<number> {
  const cursor = history.cursor();
  const first = history.firstHeight();
  if (!cursor || first === null) return 0;
  const target = cursor.height - o.keepBlocks;
  if (first >= target) return 0;
  const until = Math.min(target, first + (o.heightsPerStep ?? 4));
  const update = new StoreUpdate();
  let collected = 0;
  for (let h = first; h < until; h++) {
    const hash = history.blockHashAt(h);
    if (!hash) continue;
    collected++;
    const block = history.blockSync(hash);
    const view = block ? (JSON.parse(block.json) as { chunks?: { shard_id: number }[] }) : {};
    const shardIds = new Set((view.chunks ?? []).map((c) => c.shard_id));
    // Blocks published without `chunks` (re-serialized streams): look for their chunk rows.
    if (!view.chunks) {
      for (let s = 0; s < 64; s++)
        if (history.store.has(DBCol.StreamChunk, blockShardKey(hash, s))) shardIds.add(s);
    }
    for (const shard of shardIds) {
      const at = blockShardKey(hash, shard);
      const raw = history.store.get(DBCol.StreamChunk, at);
      if (!raw) continue;
      const chunk = JSON.parse(fromUtf8(raw)) as {
        header: { chunk_hash: string };
        receipts?: { receipt_id: string; receipt: { Data?: unknown } }[];
      };
      update.delete(DBCol.StreamChunk, at);
      update.delete(DBCol.StreamChunkHash, base58Decode(chunk.header.chunk_hash));
      // A data receipt has no outcome of its own: it goes with the chunk that carried it. Action
      // receipts go with the block of their outcome (below), as they may wait in the delayed queue.
      for (const r of chunk.receipts ?? [])
        if (r.receipt.Data !== undefined) update.delete(DBCol.StreamReceipt, base58Decode(r.receipt_id));
    }
    const ids = history.json(DBCol.StreamOutcomeIds, hash);
    for (const text of ids ? (JSON.parse(ids) as string[]) : []) {
      const id = base58Decode(text);
      update.delete(DBCol.StreamTransaction, id);
      update.delete(DBCol.StreamOutcome, id);
      update.delete(DBCol.StreamReceipt, id);
    }
    update.delete(DBCol.StreamOutcomeIds, hash);
    update.delete(DBCol.StreamStateChanges, hash);
    update.delete(DBCol.StreamBlock, hash);
    update.delete(DBCol.StreamBlockHeight, u64be(h));
  }
  update.put(DBCol.FollowerMisc, FIRST_KEY, u64be(until));
  await history.store.commit(update);
  return collected;
}
