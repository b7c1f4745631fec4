// One block's rows in the LevelDB history: the block view, chunk views, transactions with outcomes,
// receipts, receipt outcomes, the state changes with causes, the state history rows with their flat
// rows (flat_state.ts) and the cursor.
import {
  base58Decode,
  jsonArrayTexts,
  jsonObjectTexts,
  jsonTexts,
  stringifyJson,
} from '@nearlite/primitives';
import { blockShardKey, DBCol, type DBColumn, StoreUpdate, u64be } from '@nearlite/store';
import { chunkViewReceipts, type StreamerMessage } from '@nearlite/stream';
import { encodeFlatRow } from './flat_state.js';
import { encodeHistoryValue, historyKey } from './history_key.js';
import { blockRowPrefix, CURSOR_KEY, encodeCursor, FIRST_KEY, STATE_FROM_KEY } from './history_keys_misc.js';
import { checkOutcomeShape } from './outcome_shape.js';
import { type RowSink, storeRows } from './prepared_block.js';
import { stateChangeWrite } from './state_change_keys.js';

/** Builds the block's batch; exported for tests that inspect what one block writes. */
export function blockUpdate(message: StreamerMessage, update = new StoreUpdate()): StoreUpdate {
  writeBlockRows(message, storeRows(update));
  return update;
}

/**
 * The rows that make a block the first of a history: its height, and the height the state is held
 * from (state_from.ts) when that is not the whole chain's.
 */
export function firstBlockRows(update: StoreUpdate, height: number, stateFrom: number | null): void {
  update.put(DBCol.FollowerMisc, FIRST_KEY, u64be(height));
  if (stateFrom !== null) update.put(DBCol.FollowerMisc, STATE_FROM_KEY, u64be(stateFrom));
}

/** Writes the block's rows to `update` in the order `blockUpdate` lists them. */
export function writeBlockRows(message: StreamerMessage, update: RowSink): void {
  const json = (col: DBColumn, key: Uint8Array, v: unknown) => update.putText(col, key, stringifyJson(v));
  const { block, shards } = message;
  const height = block.header.height;
  const hash = base58Decode(block.header.hash);
  update.putText(DBCol.StreamBlock, hash, stringifyJson(block), blockRowPrefix(height));
  update.put(DBCol.StreamBlockHeight, u64be(height), hash);

  const stateChanges: unknown[] = [];
  const outcomeIds: string[] = [];
  // A block holds many receipts twice or more (in several chunks, and as executed): a receipt's row
  // is written again only when its JSON differs from the copy already written.
  const receiptTexts = new Map<string, string>();
  const putReceipt = (id: string, text: string) => {
    if (receiptTexts.get(id) === text) return;
    receiptTexts.set(id, text);
    update.putText(DBCol.StreamReceipt, base58Decode(id), text);
  };
  for (const shard of shards) {
    const chunk = shard.chunk;
    if (chunk) {
      const at = blockShardKey(hash, chunk.header.shard_id);
      // Each transaction and receipt is serialized once, for its own row and inside the chunk's.
      const txs = chunk.transactions.map((t) => stringifyJson(t.transaction));
      const receipts = chunk.receipts.map((r) => stringifyJson(r));
      // The `chunk` result leaves out the local receipts older indexers listed among them; their rows
      // are written all the same, for EXPERIMENTAL_receipt.
      const viewed = new Set(chunkViewReceipts(chunk));
      update.putTexts(
        DBCol.StreamChunk,
        at,
        jsonObjectTexts([
          ['author', jsonTexts(chunk.author)],
          ['header', jsonTexts(chunk.header)],
          ['transactions', jsonArrayTexts(txs)],
          ['receipts', jsonArrayTexts(receipts.filter((_, i) => viewed.has(chunk.receipts[i]!)))],
        ]),
      );
      update.put(DBCol.StreamChunkHash, base58Decode(chunk.header.chunk_hash), at);
      chunk.transactions.forEach((t, i) => {
        const id = base58Decode(t.transaction.hash);
        checkOutcomeShape(t.outcome.execution_outcome, t.transaction.hash);
        update.putText(DBCol.StreamTransaction, id, txs[i]!);
        json(DBCol.StreamOutcome, id, t.outcome.execution_outcome);
        outcomeIds.push(t.transaction.hash);
      });
      chunk.receipts.forEach((r, i) => {
        putReceipt(r.receipt_id, receipts[i]!);
      });
      // A yield the chunk parked has no outcome yet, but EXPERIMENTAL_receipt answers it (nearcore
      // stores instant receipts as it runs them).
      for (const r of chunk.instant_receipts ?? []) putReceipt(r.receipt_id, stringifyJson(r));
    }
    for (const r of shard.receipt_execution_outcomes) {
      checkOutcomeShape(r.execution_outcome, r.receipt.receipt_id);
      putReceipt(r.receipt.receipt_id, stringifyJson(r.receipt));
      json(DBCol.StreamOutcome, base58Decode(r.receipt.receipt_id), r.execution_outcome);
      outcomeIds.push(r.receipt.receipt_id);
    }
    for (const c of shard.state_changes) {
      stateChanges.push(c);
      const w = stateChangeWrite(c);
      if (!w) continue;
      const stored = encodeHistoryValue(w.value);
      update.put(DBCol.StateHistory, historyKey(w.key, height), stored);
      // Blocks of one batch come in height order: the last put of a key is its newest row.
      update.put(DBCol.StateHistoryFlat, w.key, encodeFlatRow(height, stored));
    }
  }
  update.putTexts(DBCol.StreamStateChanges, hash, jsonArrayTexts(stateChanges.map((c) => stringifyJson(c))));
  json(DBCol.StreamOutcomeIds, hash, outcomeIds);
  update.put(DBCol.FollowerMisc, CURSOR_KEY, encodeCursor({ height, hash }));
}
