// Which transaction a receipt comes from: neardata adds it to every receipt execution outcome as
// `tx_hash`. Nothing in the store maps a receipt to its transaction, so the parent links are read
// from the outcomes of earlier blocks (a receipt's parent outcome lists it in `receipt_ids`), walking
// back at most as far as nearcore's indexer looks for a receipt (1000 blocks). What is learnt is
// cached, and building blocks in order finds every parent in the cache.
import { base58Encode, type CryptoHash, toHex } from '@nearlite/primitives';
import { DBCol, LruCache } from '@nearlite/store';
import type { StreamChain } from './chain_view.js';
import { loadBlockOutcome, outcomeIds } from './outcomes.js';

const MAX_BLOCKS_BACK = 1000;

export class TxHashIndex {
  /** receipt id (hex) → originating transaction hash (base58), '' when it could not be found. */
  private readonly txOf = new LruCache<string, string>(200_000);

  constructor(private readonly chain: StreamChain) {}

  /** Records the outcomes of a block: each new receipt belongs to its parent's transaction. */
  learn(outcomes: readonly { readonly id: CryptoHash; readonly receiptIds: readonly CryptoHash[] }[]): void {
    for (const o of outcomes) {
      const tx = this.isTransaction(o.id) ? base58Encode(o.id) : this.txOf.get(toHex(o.id));
      if (!tx) continue;
      for (const r of o.receiptIds) this.txOf.set(toHex(r), tx);
    }
  }

  private isTransaction(id: CryptoHash): boolean {
    return this.chain.store.get(DBCol.TransactionBlock, id) !== undefined;
  }

  /** Transaction hashes (base58, or null when not found) of receipts executed at `height`. */
  resolve(receiptIds: readonly CryptoHash[], height: number): (string | null)[] {
    const wanted = new Map<string, string[]>(); // id still to trace → receipts waiting on it
    for (const id of receiptIds) {
      const k = toHex(id);
      if (this.txOf.get(k) === undefined) wanted.set(k, [k]);
    }
    const cs = this.chain.chainStore;
    const floor = Math.max(cs.tail() ?? this.chain.genesis.config.genesisHeight, height - MAX_BLOCKS_BACK);
    for (let h = height; h >= floor && wanted.size > 0; h--) {
      const hash = cs.blockHashByHeight(h);
      if (!hash) continue;
      const parents = new Map<string, { id: CryptoHash; isTx: boolean }>();
      for (const shardId of this.chain.layout.shardIds) {
        for (const id of outcomeIds(this.chain.store, hash, shardId)) {
          const o = loadBlockOutcome(this.chain.store, id, hash);
          if (!o) continue;
          const isTx = this.isTransaction(id);
          for (const r of o.receiptIds) parents.set(toHex(r), { id, isTx });
        }
      }
      // A parent executed in this same block (a local receipt's transaction) is found here too.
      let progressed = true;
      while (progressed) {
        progressed = false;
        for (const [k, waiting] of [...wanted]) {
          const p = parents.get(k);
          if (!p) continue;
          wanted.delete(k);
          progressed = true;
          const pk = toHex(p.id);
          const known = p.isTx ? base58Encode(p.id) : this.txOf.get(pk);
          if (known !== undefined) {
            for (const w of waiting) this.txOf.set(w, known);
          } else {
            wanted.set(pk, [...(wanted.get(pk) ?? []), ...waiting, pk]);
          }
        }
      }
    }
    // Not found within reach: remembered as unknown ('') so the walk is not repeated per request.
    for (const waiting of wanted.values()) for (const w of waiting) this.txOf.set(w, '');
    return receiptIds.map((id) => this.txOf.get(toHex(id)) || null);
  }
}
