// A chunk header's outgoing_receipts_root, as nearcore builds it (Chain::build_receipts_hashes, then
// merklize): for each shard of the layout, in the layout's order, the hash of
// borsh(ReceiptList(shard_id, the receipts sent to that shard, in the order they were made)); then
// the Merkle root of those hashes. A chunk that sent nothing still has a root (the empty lists'),
// never zeros, and a light client checks a chunk's receipts against it.
import { type CryptoHash, sha256 } from '@nearlite/primitives';
import { merklizeHashes } from './merkle.js';

export interface SentReceipt {
  /** The shard it goes to: its receiver's, or a global contract distribution's target shard. */
  readonly shardId: number;
  /** The receipt's borsh. */
  readonly bytes: Uint8Array;
}

export function outgoingReceiptsRoot(shardIds: readonly number[], sent: readonly SentReceipt[]): CryptoHash {
  return merklizeHashes(shardIds.map((shardId) => receiptListHash(shardId, sent)));
}

function receiptListHash(shardId: number, sent: readonly SentReceipt[]): CryptoHash {
  const mine = sent.filter((r) => r.shardId === shardId);
  let size = 12;
  for (const r of mine) size += r.bytes.length;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, BigInt(shardId), true);
  view.setUint32(8, mine.length, true);
  let at = 12;
  for (const r of mine) {
    out.set(r.bytes, at);
    at += r.bytes.length;
  }
  return sha256(out);
}
