// What block production needs from the runtime, per shard. The node wires @nearlite/runtime in here;
// keeping the seam narrow lets the chain be tested with a trivial applier.
import type { CryptoHash } from '@nearlite/primitives';
import type { TrieUpdate } from '@nearlite/trie';
import type { ValidatorStake } from './validator_stake.js';

export interface ApplyChunkContext {
  readonly shardId: number;
  readonly blockHeight: number;
  readonly blockHash: CryptoHash;
  readonly prevBlockHash: CryptoHash;
  readonly blockTimestamp: bigint;
  readonly epochId: CryptoHash;
  readonly epochHeight: number;
  readonly gasPrice: bigint;
  readonly gasLimit: bigint;
  readonly randomSeed: CryptoHash;
  readonly accountShard: (accountId: string) => number;
}

/** An execution outcome ready to store: its id, borsh bytes and merkle leaf hashes. */
export interface AppliedOutcome {
  readonly id: CryptoHash;
  /** borsh of the outcome (the runtime's codec); stored as is and decoded for views. */
  readonly bytes: Uint8Array;
  /** nearcore's ExecutionOutcomeWithId::to_hashes(), merklized into the chunk's outcome root. */
  readonly hashes: readonly CryptoHash[];
  /** Set when the outcome is a transaction's. */
  readonly isTransaction: boolean;
}

export interface AppliedReceipt {
  readonly receiptId: CryptoHash;
  readonly receiverId: string;
  readonly bytes: Uint8Array;
}

export interface ApplyChunkResult {
  readonly outcomes: readonly AppliedOutcome[];
  /** Receipts created by this chunk, to be applied in the next block by their receiver's shard. */
  readonly outgoingReceipts: readonly AppliedReceipt[];
  /** Receipts executed (or postponed) by this chunk, stored for EXPERIMENTAL_receipt. */
  readonly processedReceipts: readonly AppliedReceipt[];
  readonly gasUsed: bigint;
  readonly balanceBurnt: bigint;
  readonly validatorProposals: readonly ValidatorStake[];
}

export interface ChunkApplier {
  /** Filters a chunk's candidate transactions against the state they would run on (optional). */
  prepareTransactions?(
    state: TrieUpdate,
    transactions: readonly Uint8Array[],
    gasPrice: bigint,
    blockHeight: number,
  ): { accepted: number[]; rejected: { index: number; error: unknown }[] };
  applyChunk(
    ctx: ApplyChunkContext,
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
    balanceBurnt: 0n,
    validatorProposals: [],
  }),
};
