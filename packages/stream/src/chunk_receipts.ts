// The receipts of a chunk as nearcore's `chunk` method shows them: what the shard's previous chunk
// sent (ChunkView::from_author_chunk). nearcore's indexer, up to the versions that added a
// `local_receipts` member, put the local receipts of the chunk's transactions (those whose signer is
// their receiver, which never travel between chunks) first in the same list, so the Lake and
// neardata files of most of NEAR's history carry them there.
import type { IndexerChunk, ReceiptViewJson } from './message.js';

/** `chunk.receipts` without the local receipts of its own transactions. */
export function chunkViewReceipts(chunk: IndexerChunk): ReceiptViewJson[] {
  const local = new Set<string>();
  for (const t of chunk.transactions) {
    if (t.transaction.signer_id !== t.transaction.receiver_id) continue;
    const first = t.outcome.execution_outcome.outcome.receipt_ids[0];
    if (first !== undefined) local.add(first);
  }
  return local.size === 0 ? chunk.receipts : chunk.receipts.filter((r) => !local.has(r.receipt_id));
}
