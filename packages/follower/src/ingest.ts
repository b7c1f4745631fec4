// Ingests verified StreamerMessages through a HistoryWriter: each backend commits a block's rows
// and then its cursor (LevelDB: one batch; PostgreSQL: the shard databases, then the meta database),
// so a crash at any moment leaves either the whole block or none of it as far as readers can tell,
// and a restart resumes at the block after the cursor with nothing missing or doubled.
import { base58Decode, base58Encode } from '@nearlite/primitives';
import {
  BlockVerificationError,
  type StreamerMessage,
  VerifyCheck,
  verifyStreamerMessage,
} from '@nearlite/stream';
import type { HistoryWriter } from './history_reader.js';
import { stateChangeWrite } from './state_change_keys.js';

export { blockUpdate } from './ingest_update.js';

/**
 * The values every writer decodes (hashes, keys, base64): a value the stream should never carry is
 * refused like a failed check, so the loop refetches instead of storing part of it.
 */
function checkShape(message: StreamerMessage): void {
  try {
    base58Decode(message.block.header.hash);
    for (const shard of message.shards) {
      const chunk = shard.chunk;
      if (chunk) {
        base58Decode(chunk.header.chunk_hash);
        for (const t of chunk.transactions) base58Decode(t.transaction.hash);
        for (const r of chunk.receipts) base58Decode(r.receipt_id);
      }
      for (const r of shard.receipt_execution_outcomes) base58Decode(r.receipt.receipt_id);
      for (const c of shard.state_changes) stateChangeWrite(c);
    }
  } catch (err) {
    throw new BlockVerificationError(message.block.header.height, VerifyCheck.Shape, (err as Error).message);
  }
}

/**
 * Verifies the message against the cursor and commits it. Throws BlockVerificationError (nothing
 * written) when the block fails a check.
 */
export async function ingestBlock(history: HistoryWriter, message: StreamerMessage): Promise<void> {
  await ingestBlocks(history, [message]);
}

/**
 * Verifies consecutive messages against the cursor and each other, and commits them together (the
 * catch-up path: several blocks per write). When one fails its checks, the ones before it are
 * committed and its BlockVerificationError is thrown.
 */
export async function ingestBlocks(
  history: HistoryWriter,
  messages: readonly StreamerMessage[],
): Promise<void> {
  const cursor = history.cursor();
  let prev = cursor ? { height: cursor.height, hash: base58Encode(cursor.hash) } : null;
  const verified: StreamerMessage[] = [];
  try {
    for (const m of messages) {
      verifyStreamerMessage(m, { prev });
      checkShape(m);
      verified.push(m);
      prev = { height: m.block.header.height, hash: m.block.header.hash };
    }
  } finally {
    if (verified.length > 0) await history.writeBlocks(verified, cursor === null);
  }
}
