// The values every writer decodes (hashes, keys, base64) and every reader needs, checked before
// anything is written.
import { base58Decode } from '@nearlite/primitives';
import { BlockVerificationError, type StreamerMessage, VerifyCheck } from '@nearlite/stream';
import { checkOutcomeShape } from './outcome_shape.js';
import { stateChangeWrite } from './state_change_keys.js';

/**
 * The values every writer decodes (hashes, keys, base64) or every reader needs (an outcome's receipt
 * ids): a value the stream should never carry is refused like a failed check, so the loop refetches
 * instead of storing part of it. Checked before a batch of messages is written; a preparing thread
 * gets the same refusal from encoding the block's rows (prepare.ts), without decoding everything
 * twice.
 */
export function checkShape(message: StreamerMessage): void {
  try {
    base58Decode(message.block.header.hash);
    for (const shard of message.shards) {
      const chunk = shard.chunk;
      if (chunk) {
        base58Decode(chunk.header.chunk_hash);
        for (const t of chunk.transactions) {
          base58Decode(t.transaction.hash);
          checkOutcomeShape(t.outcome.execution_outcome, t.transaction.hash);
        }
        for (const r of chunk.receipts) base58Decode(r.receipt_id);
        for (const r of chunk.instant_receipts ?? []) base58Decode(r.receipt_id);
      }
      for (const r of shard.receipt_execution_outcomes) {
        base58Decode(r.receipt.receipt_id);
        checkOutcomeShape(r.execution_outcome, r.receipt.receipt_id);
      }
      for (const c of shard.state_changes) stateChangeWrite(c);
    }
  } catch (err) {
    throw new BlockVerificationError(message.block.header.height, VerifyCheck.Shape, (err as Error).message);
  }
}
