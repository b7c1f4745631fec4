// Preparing a block's chunks: taking each shard's transactions from the pool through the runtime's
// prepareTransactions, either when the block is made or ahead of it, when the block before commits,
// as nearcore's client makes the chunks of H+1 when it accepts H (`produce_chunks`). Chunks made
// ahead store their transactions at once, as nearcore's save_chunk stores a chunk's, with the
// PREPARED_TXS row naming them (prepared_txs.ts), and are handed to the block made at that height.
import { bytesEqual, type CryptoHash, toHex } from '@nearlite/primitives';
import { DBCol, type Store, StoreUpdate } from '@nearlite/store';
import { Trie, TrieRecorder, TrieUpdate, TrieWalk } from '@nearlite/trie';
import type { BlockHeader } from './block_header.js';
import { ChainError } from './chain_error.js';
import type { ChainStore } from './chain_store.js';
import type { ChunkExtra, CongestionInfo } from './chunk.js';
import type { ChunkApplier } from './chunk_applier.js';
import { flatStateReader } from './flat_state.js';
import { encodePreparedTxs, PREPARED_TXS_KEY, readPreparedTxs } from './prepared_txs.js';
import type { ShardLayout } from './shard_layout.js';
import { recordingStateReader, trieStorage } from './state_store.js';
import type { PooledTransaction, TxPool } from './tx_pool.js';

/** nearcore's witness_config.combined_transactions_size_limit at protocol 86 (4 MiB). */
export const COMBINED_TRANSACTIONS_SIZE_LIMIT = 4_194_304;

/** What chunks made ahead of their block took from the pool, and refused. */
export interface PreparedChunksResult {
  /** Taken into the chunks and stored: a status request now answers INCLUDED, with no outcome yet. */
  readonly included: readonly PooledTransaction[];
  /** Left out as invalid (hex hash → InvalidTxError). */
  readonly rejected: ReadonlyMap<string, unknown>;
  readonly rejectedTxs: readonly PooledTransaction[];
}

/** The state a shard's chunk starts from, and a walk of it (what checking transactions read of it). */
export interface ChunkStart {
  readonly prevExtra: ChunkExtra;
  readonly walk: TrieWalk;
}

/** A shard's chunk transactions, made ahead of their block, with the state they were checked on. */
export interface PreparedShard extends ChunkStart {
  readonly pooled: PooledTransaction[];
}

/** What preparing one block's chunks shares between its shards. */
export interface PrepareContext {
  readonly prev: BlockHeader;
  readonly height: number;
  /** Each shard's head state as flat rows. */
  readonly flat: (shardId: number) => ReturnType<typeof flatStateReader>;
  /** nearcore prepares a chunk's transactions with its previous block's congestion info. */
  readonly prevCongestion: ReadonlyMap<number, CongestionInfo>;
  readonly rejected: Map<string, unknown>;
  readonly rejectedTxs: PooledTransaction[];
}

interface PreparedChunks {
  readonly prevHash: CryptoHash;
  readonly height: number;
  readonly shards: ReadonlyMap<number, PreparedShard>;
}

export interface ChunkPreparerOptions {
  readonly store: Store;
  readonly chainStore: ChainStore;
  readonly layout: ShardLayout;
  readonly pool: TxPool;
  readonly applier: ChunkApplier;
  /** Pooled transactions a chunk considers at most (ChainOptions). */
  readonly maxTransactionsPerChunk?: number | undefined;
  /** Signed transaction bytes per chunk at most (ChainOptions). */
  readonly combinedTransactionsSizeLimit?: number | undefined;
}

export class ChunkPreparer {
  private ahead: PreparedChunks | null = null;
  /**
   * What the PREPARED_TXS row names, by hex hash: every transaction stored by chunks made ahead (so
   * answered INCLUDED) that no committed block holds and none has refused. A block that leaves some
   * of them out (a fast-forward's, or the first after a restart, with less room than the chunks
   * made ahead had) must keep naming those, or a node killed next would never run them.
   */
  private pending: Map<string, PooledTransaction>;
  /** The store holds a PREPARED_TXS row. */
  private rowStored: boolean;

  /**
   * Pools again the transactions of chunks made ahead of a block that was never committed (the
   * node stopped or was killed in between): they were answered INCLUDED.
   */
  constructor(private readonly o: ChunkPreparerOptions) {
    const named = readPreparedTxs(o.store);
    for (const t of named) o.pool.add(t);
    this.pending = new Map(named.map((t) => [toHex(t.hash), t]));
    this.rowStored = o.store.has(DBCol.BlockMisc, PREPARED_TXS_KEY);
  }

  context(prev: BlockHeader, height: number): PrepareContext {
    return {
      prev,
      height,
      flat: (shardId) => flatStateReader(this.o.store, shardId),
      prevCongestion: new Map(
        (this.o.chainStore.blockChunkHeaders(prev.hash) ?? []).map((c) => [
          c.inner.shardId,
          c.inner.congestionInfo,
        ]),
      ),
      rejected: new Map(),
      rejectedTxs: [],
    };
  }

  /** The state a shard's chunk after `prev` starts from, and a walk of it. */
  startingState(prev: BlockHeader, shardId: number): ChunkStart {
    const prevExtra = this.o.chainStore.chunkExtra(prev.hash, shardId);
    if (!prevExtra)
      throw new ChainError(`missing chunk extra of shard ${shardId} at height ${prev.lite.height}`);
    return { prevExtra, walk: new TrieWalk(new Trie(trieStorage(this.o.store), prevExtra.stateRoot)) };
  }

  /**
   * Takes a shard's chunk transactions from the pool: those the runtime's prepareTransactions
   * accepts against the state `walk` starts from; the refused are recorded in `ctx` and forgotten,
   * and those the chunk had no room for go back to the pool.
   */
  shard(ctx: PrepareContext, shardId: number, walk: TrieWalk): PooledTransaction[] {
    const { pool, applier } = this.o;
    const limit = this.o.maxTransactionsPerChunk ?? 10_000;
    const sizeLimit = this.o.combinedTransactionsSizeLimit ?? COMBINED_TRANSACTIONS_SIZE_LIMIT;
    const prepare = applier.prepareTransactions;
    // With a runtime to prepare them, the size limit counts only the transactions it takes.
    const pooled = pool.take(shardId, limit, prepare ? undefined : sizeLimit);
    if (!prepare || pooled.length === 0) return pooled;
    let r: ReturnType<typeof prepare>;
    try {
      // Recorded as nearcore's prepare_transactions records, against the state the chunk starts
      // from, for new_transactions_validation_state_size_soft_limit.
      const recorder = new TrieRecorder(walk);
      const scratch = new TrieUpdate(recordingStateReader(ctx.flat(shardId), walk.trie, recorder), recorder);
      r = prepare.call(
        applier,
        scratch,
        pooled.map((t) => t.bytes),
        ctx.prev.rest.nextGasPrice,
        ctx.height,
        pooled.map((t) => t.signatureVerified),
        {
          sizeLimit,
          congestion: {
            shardId,
            shards: ctx.prevCongestion,
            accountShard: (id: string) => this.o.layout.accountIdToShardId(id),
          },
          groups: pooled.map((t) => t.accessKeyId),
        },
      );
    } catch (err) {
      pool.restore(pooled);
      throw err;
    }
    for (const x of r.rejected) {
      ctx.rejected.set(toHex(pooled[x.index]!.hash), x.error);
      ctx.rejectedTxs.push(pooled[x.index]!);
    }
    pool.committed(r.rejected.map((x) => pooled[x.index]!));
    pool.restore(r.untaken.map((i) => pooled[i]!));
    return r.accepted.map((i) => pooled[i]!);
  }

  /**
   * Makes the chunks of the block after `prev` now, from the pool as it is, and stores their
   * transactions in one batch; once per head (again for the same head: nothing). If the batch
   * fails, the transactions go back to the pool and the block makes its own chunks.
   */
  async makeAhead(prev: BlockHeader): Promise<PreparedChunksResult> {
    const { pool, store } = this.o;
    if (this.ahead && bytesEqual(this.ahead.prevHash, prev.hash))
      return { included: [], rejected: new Map(), rejectedTxs: [] };
    this.restoreAhead();
    const height = prev.lite.height + 1;
    const ctx = this.context(prev, height);
    const shards = new Map<number, PreparedShard>();
    const included: PooledTransaction[] = [];
    try {
      for (const shardId of this.o.layout.shardIds) {
        const start = this.startingState(prev, shardId);
        const pooled = this.shard(ctx, shardId, start.walk);
        shards.set(shardId, { ...start, pooled });
        for (const t of pooled) included.push(t);
      }
      if (included.length > 0 || ctx.rejectedTxs.length > 0) {
        const update = new StoreUpdate();
        for (const t of included) update.put(DBCol.Transactions, t.hash, t.bytes);
        for (const t of ctx.rejectedTxs) update.delete(DBCol.Transactions, t.hash);
        // The row names these with what earlier chunks stored and no block has held yet.
        const named = new Map(this.pending);
        for (const t of included) named.set(toHex(t.hash), t);
        for (const t of ctx.rejectedTxs) named.delete(toHex(t.hash));
        this.putRow(update, named);
        await store.commit(update);
        this.rowCommitted(named);
      }
    } catch (err) {
      pool.restore(included);
      throw err;
    }
    this.ahead = { prevHash: prev.hash, height, shards };
    return { included, rejected: ctx.rejected, rejectedTxs: ctx.rejectedTxs };
  }

  /**
   * The chunks made ahead for the block at `height` after `prev`, handed over once; chunks made for
   * another block (a fast-forward skipped heights) put their transactions back at the front of the
   * pool, to be prepared again with the block.
   */
  takeFor(prev: BlockHeader, height: number): ReadonlyMap<number, PreparedShard> | null {
    const ahead = this.ahead;
    if (ahead && ahead.height === height && bytesEqual(ahead.prevHash, prev.hash)) {
      this.ahead = null;
      return ahead.shards;
    }
    this.restoreAhead();
    return null;
  }

  /**
   * Adds to a block's batch the PREPARED_TXS row as it stands once the block holds `included` and
   * has refused `refused`: what was answered INCLUDED and the block leaves out stays named, and with
   * nothing left the row goes. Returns what the row names, for `rowCommitted` once the batch is
   * committed; null where there was no row and is none.
   */
  rowAfterBlock(
    update: StoreUpdate,
    included: readonly PooledTransaction[],
    refused: readonly PooledTransaction[],
  ): Map<string, PooledTransaction> | null {
    if (this.pending.size === 0 && !this.rowStored) return null;
    const named = new Map(this.pending);
    for (const t of included) named.delete(toHex(t.hash));
    for (const t of refused) named.delete(toHex(t.hash));
    return this.putRow(update, named);
  }

  rowCommitted(named: Map<string, PooledTransaction> | null): void {
    if (!named) return;
    this.pending = named;
    this.rowStored = named.size > 0;
  }

  private putRow(update: StoreUpdate, named: Map<string, PooledTransaction>): Map<string, PooledTransaction> {
    if (named.size > 0) update.put(DBCol.BlockMisc, PREPARED_TXS_KEY, encodePreparedTxs([...named.values()]));
    else if (this.rowStored) update.delete(DBCol.BlockMisc, PREPARED_TXS_KEY);
    return named;
  }

  private restoreAhead(): void {
    if (this.ahead) for (const s of this.ahead.shards.values()) this.o.pool.restore(s.pooled);
    this.ahead = null;
  }
}
