// Stored execution outcomes of one block, in nearcore's ExecutionOutcomeWithIdView (the object `tx`
// and `EXPERIMENTAL_tx_status` put in `transaction_outcome` / `receipts_outcome`).
import { decodeIdList, decodeStoredOutcome } from '@nearlite/chain';
import { base58Encode, type CryptoHash, concatBytes } from '@nearlite/primitives';
import { decodeOutcome, outcomeView } from '@nearlite/runtime';
import { blockShardKey, DBCol, type Store } from '@nearlite/store';

export interface BlockOutcome {
  readonly id: CryptoHash;
  readonly receiptIds: readonly CryptoHash[];
  /** `{proof, block_hash, id, outcome}`, key for key as the RPC writes it. */
  readonly view: object;
}

/** Outcome ids of one shard's chunk in a block, in execution order (transactions first). */
export function outcomeIds(store: Store, blockHash: CryptoHash, shardId: number): CryptoHash[] {
  const bytes = store.get(DBCol.OutcomeIds, blockShardKey(blockHash, shardId));
  return bytes ? decodeIdList(bytes) : [];
}

export function loadBlockOutcome(store: Store, id: CryptoHash, blockHash: CryptoHash): BlockOutcome | null {
  const bytes = store.get(DBCol.TransactionResultForBlock, concatBytes(id, blockHash));
  if (!bytes) return null;
  const stored = decodeStoredOutcome(bytes);
  const outcome = decodeOutcome(stored.outcomeBytes);
  return {
    id,
    receiptIds: outcome.receiptIds,
    view: {
      proof: stored.proof.map((p) => ({ hash: base58Encode(p.hash), direction: p.direction })),
      block_hash: base58Encode(blockHash),
      id: base58Encode(id),
      outcome: outcomeView(outcome),
    },
  };
}
