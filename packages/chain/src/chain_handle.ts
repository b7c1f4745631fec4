// What the rest of a node (views, transactions, the block stream, metrics) needs of the chain. Both
// the chain itself (`Chain`, when it runs on the caller's thread) and a node's handle on a chain
// running on a thread of its own implement it: reads go to the store, writes (transactions,
// patches, fast-forwards) are queued for the chain, and every committed block is announced on
// `events`.
import type { EventEmitter } from 'node:events';
import type { CryptoHash } from '@nearlite/primitives';
import type { Store } from '@nearlite/store';
import type { Trie } from '@nearlite/trie';
import type { BlockHeader } from './block_header.js';
import type { ChainStore, Tip } from './chain_store.js';
import type { Genesis } from './genesis/config.js';
import type { ShardLayout } from './shard_layout.js';
import type { StatePins } from './state_pins.js';
import type { StateWrite } from './state_records.js';
import type { PooledTransaction } from './tx_pool.js';

export interface NewBlockEvent {
  readonly header: BlockHeader;
  /** Hex ids of every outcome the block's chunks produced (transactions and receipts). */
  readonly outcomeIds: ReadonlySet<string>;
  /** Transactions left out of this block's chunks as invalid (hex hash → InvalidTxError). */
  readonly rejected: ReadonlyMap<string, unknown>;
  /** The gas its new chunks report (each header's `prev_gas_used`), as nearcore's InfoHelper sums it. */
  readonly gasUsed: bigint;
}

/**
 * Chunks made ahead of their block (Chain.prepareNextChunks): the transactions they took are stored
 * and answer INCLUDED, without an outcome until their block runs them.
 */
export interface NewChunksEvent {
  /** Hex hashes of the transactions the chunks took. */
  readonly txIds: ReadonlySet<string>;
  /** Transactions left out of the chunks as invalid (hex hash → InvalidTxError). */
  readonly rejected: ReadonlyMap<string, unknown>;
}

export interface ChainEvents {
  block: [NewBlockEvent];
  chunks: [NewChunksEvent];
  /** Block production has stopped for good (the node is stopping): no block will wake a waiter. */
  stopped: [];
}

/** Admission's view of the transaction pool. */
export interface TxPoolHandle {
  /** Known from admission until its block is committed (or it is left out as invalid). */
  has(hash: CryptoHash): boolean;
  /** Queues an admitted transaction; false if it was known already. */
  add(tx: PooledTransaction): boolean;
}

export interface ChainHandle {
  readonly events: EventEmitter<ChainEvents>;
  readonly pool: TxPoolHandle;
  /** Heights view workers are reading; GC keeps their state (state_pins.ts). */
  readonly statePins: StatePins;
  readonly chainStore: ChainStore;
  readonly store: Store;
  readonly layout: ShardLayout;
  readonly genesis: Genesis;
  readonly genesisHash: CryptoHash;
  readonly canProduce: boolean;
  head(): Tip;
  headHeader(): BlockHeader;
  /**
   * True when one of the last few blocks sent this receipt (hex id) as a refund (made by `system`);
   * false when not known without reading the store (`RecentRefunds`).
   */
  sentRefund(receiptIdHex: string): boolean;
  /** The state trie of a shard as of the end of block `blockHash` (after its chunks were applied). */
  stateTrie(blockHash: CryptoHash, shardId: number): Trie | undefined;
  /** Produces a block now (behind any write in progress); resolves with its header once committed. */
  produceBlock(): Promise<BlockHeader>;
  /**
   * Queues state writes (sandbox_patch_state) for the next block and resolves once that block is
   * committed, so the patch is visible to every later query; rejects if that block fails.
   */
  patchState(writes: readonly StateWrite[]): Promise<void>;
  /**
   * nearcore's sandbox fast-forward: blocks until the head is at least `deltaHeight` above where it
   * is when the chain gets to it (blocks the timer produces meanwhile count), skipping the heights
   * of each epoch up to three before its end, block time moving on by `stepNs` a height.
   */
  fastForward(deltaHeight: number, stepNs: bigint): Promise<void>;
}
