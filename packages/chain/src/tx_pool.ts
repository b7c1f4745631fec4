// Transactions waiting for a chunk, per shard in arrival order, handed to a chunk as nearcore's pool
// iterator hands them to prepare_transactions: one transaction of each key in turn, each key's in
// nonce order, so a chunk that fills up leaves every busy key some of its room; a key whose
// transaction is refused goes on to its next in the same turn (the runtime's prepareTransactions,
// given each candidate's key). (nearcore orders the keys by a hash with a seed of its own node's;
// here they go in the order they first came.)
// The pool only holds what passed admission checks; the runtime re-verifies everything when the
// chunk is applied. A transaction stays known from admission until its block is committed, so a
// resubmission in between is not included twice. Two of one key with one nonce may both wait, as in
// nearcore's pool: the chunk takes the first still valid then, and refuses the other.
import { type CryptoHash, toHex } from '@nearlite/primitives';
import type { TxPoolHandle } from './chain_handle.js';

export interface PooledTransaction {
  readonly hash: CryptoHash;
  readonly bytes: Uint8Array;
  readonly shardId: number;
  /** signer id + public key: transactions of one key are included in nonce order. */
  readonly accessKeyId: string;
  readonly nonce: bigint;
  /** Admission verified the signature of exactly these bytes (so the runtime need not again). */
  readonly signatureVerified?: boolean;
}

export class TxPool implements TxPoolHandle {
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

  /**
   * Removes up to `limit` transactions of a shard, stopping before the first whose signed bytes would
   * take the total past `maxBytes` (the rest wait for a later chunk), and orders them round robin:
   * the first of each key, then the second of each, each key's in nonce order.
   */
  take(shardId: number, limit: number, maxBytes = Number.POSITIVE_INFINITY): PooledTransaction[] {
    const q = this.queues.get(shardId);
    if (!q || q.length === 0) return [];
    let n = 0;
    let bytes = 0;
    while (n < q.length && n < limit && bytes + q[n]!.bytes.length <= maxBytes) bytes += q[n++]!.bytes.length;
    const out = q.splice(0, n);
    const groups = new Map<string, PooledTransaction[]>();
    for (const t of out) {
      const g = groups.get(t.accessKeyId);
      if (g) g.push(t);
      else groups.set(t.accessKeyId, [t]);
    }
    if (groups.size === out.length) return out;
    for (const g of groups.values()) g.sort((a, b) => (a.nonce < b.nonce ? -1 : a.nonce > b.nonce ? 1 : 0));
    const ordered: PooledTransaction[] = [];
    let active = [...groups.values()];
    for (let round = 0; active.length > 0; round++) {
      const next: PooledTransaction[][] = [];
      for (const g of active) {
        ordered.push(g[round]!);
        if (round + 1 < g.length) next.push(g);
      }
      active = next;
    }
    return ordered;
  }

  /** Forgets transactions whose block is committed (their status now lives in the store). */
  committed(txs: readonly PooledTransaction[]): void {
    for (const t of txs) this.known.delete(toHex(t.hash));
  }

  /** Puts transactions back at the front (a block that failed to commit, a chunk with no room left). */
  restore(txs: readonly PooledTransaction[]): void {
    // One concatenation per shard: a chunk can hand back thousands of transactions it had no gas for.
    const byShard = new Map<number, PooledTransaction[]>();
    for (const t of txs) {
      const b = byShard.get(t.shardId);
      if (b) b.push(t);
      else byShard.set(t.shardId, [t]);
    }
    for (const [shardId, back] of byShard)
      this.queues.set(shardId, back.concat(this.queues.get(shardId) ?? []));
  }

  get size(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.length;
    return n;
  }
}
