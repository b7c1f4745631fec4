// Transactions waiting for a chunk, per shard in arrival order. The pool only holds what passed
// admission checks; the runtime re-verifies everything when the chunk is applied.
import { type CryptoHash, toHex } from '@nearlite/primitives';

export interface PooledTransaction {
  readonly hash: CryptoHash;
  readonly bytes: Uint8Array;
  readonly shardId: number;
}

export class TxPool {
  private readonly queues = new Map<number, PooledTransaction[]>();
  private readonly known = new Set<string>();

  add(tx: PooledTransaction): boolean {
    const k = toHex(tx.hash);
    if (this.known.has(k)) return false;
    this.known.add(k);
    let q = this.queues.get(tx.shardId);
    if (!q) {
      q = [];
      this.queues.set(tx.shardId, q);
    }
    q.push(tx);
    return true;
  }

  has(hash: CryptoHash): boolean {
    return this.known.has(toHex(hash));
  }

  /** Removes and returns up to `limit` transactions of a shard. */
  take(shardId: number, limit: number): PooledTransaction[] {
    const q = this.queues.get(shardId);
    if (!q || q.length === 0) return [];
    const out = q.splice(0, limit);
    for (const t of out) this.known.delete(toHex(t.hash));
    return out;
  }

  get size(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.length;
    return n;
  }
}
