// Deleting one followed block's rows: what GC does below the tail and a repair above its roll-back
// point. The rows are found from the block itself: its chunks (with the data receipts they carried)
// and the outcome ids it lists. GC keeps the block's header and its height index row, as nearcore's
// does (`clear_block_data` leaves BlockHeader and BlockHeight): the block row becomes
// `{"header": …}`.
import { attempt, base58Decode, concatBytes, fromUtf8, stringifyJson, utf8 } from '@nearlite/primitives';
import { blockShardKey, DBCol, type StoreUpdate, u64be } from '@nearlite/store';
import { parseStreamJson } from '@nearlite/stream';
import { blockRowPrefix } from './history_keys_misc.js';
import type { HistoryStore } from './history_store.js';

/** A collected block's row: its header alone, in the block view's own JSON. */
export function headerOnlyJson(blockJson: string): string | undefined {
  const view = attempt(() => parseStreamJson(blockJson) as { header?: unknown });
  return view?.header === undefined ? undefined : `{"header":${stringifyJson(view.header)}}`;
}

/**
 * Adds the deletion of the block stored at `height` (the one the height index names) to `update`;
 * `keepHeader` (GC) leaves its header and height index row.
 */
export function deleteStreamBlockRows(
  history: HistoryStore,
  update: StoreUpdate,
  height: number,
  opts: { readonly keepHeader?: boolean } = {},
): void {
  const hash = history.blockHashAt(height);
  if (!hash) return;
  const block = history.blockSync(hash);
  // A repair deletes blocks a damaged table may have altered: a row that no longer parses leads to
  // no rows of its own (its chunks are then looked for by shard, its outcomes stay behind unreachable).
  const view = (block && attempt(() => JSON.parse(block.json) as { chunks?: { shard_id: number }[] })) ?? {};
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
    const chunk = attempt(
      () =>
        JSON.parse(fromUtf8(raw)) as {
          header: { chunk_hash: string };
          receipts?: { receipt_id: string; receipt: { Data?: unknown } }[];
        },
    );
    update.delete(DBCol.StreamChunk, at);
    if (!chunk) continue;
    update.delete(DBCol.StreamChunkHash, base58Decode(chunk.header.chunk_hash));
    // A data receipt has no outcome of its own: it goes with the chunk that carried it. Action
    // receipts go with the block of their outcome (below), as they may wait in the delayed queue.
    for (const r of chunk.receipts ?? [])
      if (r.receipt.Data !== undefined) update.delete(DBCol.StreamReceipt, base58Decode(r.receipt_id));
  }
  const ids = history.json(DBCol.StreamOutcomeIds, hash);
  for (const text of ids ? (attempt(() => JSON.parse(ids) as string[]) ?? []) : []) {
    const id = base58Decode(text);
    update.delete(DBCol.StreamTransaction, id);
    update.delete(DBCol.StreamOutcome, id);
    update.delete(DBCol.StreamReceipt, id);
  }
  update.delete(DBCol.StreamOutcomeIds, hash);
  update.delete(DBCol.StreamStateChanges, hash);
  const header = opts.keepHeader && block ? headerOnlyJson(block.json) : undefined;
  if (header !== undefined) {
    update.put(DBCol.StreamBlock, hash, concatBytes(blockRowPrefix(height), utf8(header)));
    return;
  }
  update.delete(DBCol.StreamBlock, hash);
  update.delete(DBCol.StreamBlockHeight, u64be(height));
}
