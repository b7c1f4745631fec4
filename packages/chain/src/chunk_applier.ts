// What block production needs from the runtime, per shard: the runtime's own context and result
// types, and a narrow applier seam the node wires @nearlite/runtime into, so the chain can be tested
// with a trivial applier.
import type { ApplyContext, ApplyResult, PreparedTransactions, PrepareLimits } from '@nearlite/runtime';
import type { TrieUpdate } from '@nearlite/trie';

export type { AppliedOutcome, AppliedReceipt, ApplyContext } from '@nearlite/runtime';

/** What one chunk's application yields, as the runtime returns it. */
export type ApplyChunkResult = Omit<ApplyResult, 'delayedReceipts' | 'congestionInfo'> &
  Partial<Pick<ApplyResult, 'congestionInfo'>>;

export interface ChunkApplier {
  /** Filters a chunk's candidate transactions against the state they would run on (optional). */
  prepareTransactions?(
    state: TrieUpdate,
    transactions: readonly Uint8Array[],
    gasPrice: bigint,
    blockHeight: number,
    /** Per transaction, a signature verdict reached before (at admission); absent: check it here. */
    signatureVerdicts?: readonly (boolean | undefined)[],
    limits?: PrepareLimits,
  ): PreparedTransactions;
  applyChunk(
    ctx: ApplyContext,
    state: TrieUpdate,
    transactions: readonly Uint8Array[],
    incomingReceipts: readonly Uint8Array[],
  ): ApplyChunkResult;
}

/** Applies nothing: for read-only chains (a genesis whose validator key the node does not hold). */
export const NOOP_CHUNK_APPLIER: ChunkApplier = {
  applyChunk: () => ({
    outcomes: [],
    outgoingReceipts: [],
    processedReceipts: [],
    gasUsed: 0n,
    computeUsage: 0n,
    balanceBurnt: 0n,
    validatorProposals: [],
  }),
};
