// One block's rows in the LevelDB history: the block view, chunk views, transactions with outcomes,
// receipts, receipt outcomes, the state changes with causes, the state history rows with their flat
// rows (flat_state.ts) and the cursor.
import { base58Decode, stringifyJson, utf8 } from '@nearlite/primitives';
import { blockShardKey, DBCol, StoreUpdate, u64be } from '@nearlite/store';
import type { StreamerMessage } from '@nearlite/stream';
import { encodeFlatRow } from './flat_state.js';
import { encodeHistoryValue, historyKey } from './history_key.js';
import { CURSOR_KEY, encodeBlockRow, encodeCursor, FIRST_KEY } from './history_keys_misc.js';
import { stateChangeWrite } from './state_change_keys.js';

const json = (v: unknown) => utf8(stringifyJson(v));

/** Builds the block's batch; exported for tests that inspect what one block writes. */
export function blockUpdate(
  message: StreamerMessage,
  first: boolean,
  update = new StoreUpdate(),
): StoreUpdate {
  const { block, shards } = message;
  const height = block.header.height;
  const hash = base58Decode(block.header.hash);
  update.put(DBCol.StreamBlock, hash, encodeBlockRow(height, stringifyJson(block)));
  update.put(DBCol.StreamBlockHeight, u64be(height), hash);

  const stateChanges: unknown[] = [];
  const outcomeIds: string[] = [];
  for (const shard of shards) {
    const chunk = shard.chunk;
    if (chunk) {
      const at = blockShardKey(hash, chunk.header.shard_id);
      update.put(
        DBCol.StreamChunk,
        at,
        json({
          author: chunk.author,
          header: chunk.header,
          transactions: chunk.transactions.map((t) => t.transaction),
          receipts: chunk.receipts,
        }),
      );
      update.put(DBCol.StreamChunkHash, base58Decode(chunk.header.chunk_hash), at);
      for (const t of chunk.transactions) {
        const id = base58Decode(t.transaction.hash);
        update.put(DBCol.StreamTransaction, id, json(t.transaction));
        update.put(DBCol.StreamOutcome, id, json(t.outcome.execution_outcome));
        outcomeIds.push(t.transaction.hash);
      }
      for (const r of chunk.receipts) update.put(DBCol.StreamReceipt, base58Decode(r.receipt_id), json(r));
    }
    for (const r of shard.receipt_execution_outcomes) {
      const id = base58Decode(r.receipt.receipt_id);
      update.put(DBCol.StreamReceipt, id, json(r.receipt));
      update.put(DBCol.StreamOutcome, id, json(r.execution_outcome));
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
  update.put(DBCol.StreamStateChanges, hash, json(stateChanges));
  update.put(DBCol.StreamOutcomeIds, hash, json(outcomeIds));
  if (first) update.put(DBCol.FollowerMisc, FIRST_KEY, u64be(height));
  update.put(DBCol.FollowerMisc, CURSOR_KEY, encodeCursor({ height, hash }));
  return update;
}
