// The refunds the last few blocks sent. A transaction's status skips a receipt's last new receipt
// when it has not run and was made by `system` (tx_status.ts), and every client waiting on a
// transfer asks that of its refund the moment the block that sent it is announced. The block names
// its refunds, so the answer needs no read of the receipt's row, which the thread that answers
// would otherwise have to fetch from LevelDB for each waiter.
import { receiptPredecessorId, SYSTEM_ACCOUNT } from '@nearlite/primitives';

/**
 * Blocks whose refunds are remembered: a refund runs in the block after the one that sent it, or
 * waits while its shard is congested, and is then read from the store.
 */
const BLOCKS_KEPT = 4;

export class RecentRefunds {
  private readonly blocks: ReadonlySet<string>[] = [];

  /** The hex ids of the refunds one committed block sent, newest last. */
  add(ids: ReadonlySet<string>): void {
    this.blocks.push(ids);
    if (this.blocks.length > BLOCKS_KEPT) this.blocks.shift();
  }

  /** True when a recent block sent this receipt (hex id) as a refund; false when not known here. */
  has(receiptIdHex: string): boolean {
    for (const b of this.blocks) if (b.has(receiptIdHex)) return true;
    return false;
  }
}

/** Whether a receipt's bytes name `system` as its predecessor: a refund. */
export function isRefundReceipt(bytes: Uint8Array): boolean {
  return receiptPredecessorId(bytes) === SYSTEM_ACCOUNT;
}
