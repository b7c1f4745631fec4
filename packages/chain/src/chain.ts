// The chain: genesis, block production and the single writer of the store. Every block, with its
// chunks, outcomes, receipts, trie nodes, flat state and the head pointer, is one batch.
import { EventEmitter } from 'node:events';
import { bytesEqual, type CryptoHash, concatBytes, InternalError, toHex, utf8 } from '@nearlite/primitives';
import { blockShardKey, DBCol, type Store, StoreUpdate } from '@nearlite/store';
import { applyChanges, Trie, TrieRecorder, TrieUpdate } from '@nearlite/trie';
import type { BlockHeader } from './block_header.js';
import {
  decodeMerkleTree,
  EMPTY_MERKLE_TREE,
  encodeMerkleTree,
  merkleTreeInsert,
} from './block_merkle_tree.js';
import { produceBlockHeader } from './block_producer.js';
import { ChainError } from './chain_error.js';
import type { ChainEvents, ChainHandle, NewBlockEvent } from './chain_handle.js';
import { ChainStore, type ChainStoreCaches, type Tip } from './chain_store.js';
import { writeBlock, writeGenesisPointers, writeHead } from './chain_store_update.js';
import { type Chunk, type ChunkExtra, encodeChunkExtra } from './chunk.js';
import type { ApplyChunkResult, ChunkApplier } from './chunk_applier.js';
import { type ChunkParts, chunkParts } from './chunk_encoding.js';
import { ChunkPreparer, type PreparedChunksResult } from './chunk_preparer.js';
import {
  epochHeightOf,
  epochIdOf,
  epochOf,
  minimumStake,
  type ValidatorSelectionConfig,
  validatorSelectionConfig,
} from './epoch.js';
import { EpochRewards, epochBlockProducers, epochStartReward } from './epoch_rewards.js';
import { ensureFlatStateByShard, FLAT_STATE_BY_SHARD_KEY, writeFlatState } from './flat_state.js';
import type { Genesis } from './genesis/config.js';
import { epochConfigFields } from './genesis/epoch_config.js';
import { buildGenesisBlock } from './genesis/genesis_block.js';
import type { Signer } from './genesis/keys.js';
import { merklizeLeaves } from './merkle.js';
import { encodeIdList, encodeStoredOutcome, outcomeLeaf } from './outcome_store.js';
import { SentReceipts } from './sent_receipts.js';
import { type ShardLayout, shardLayoutFromView } from './shard_layout.js';
import { encodeStateChanges } from './state_changes.js';
import { applyStatePatches, type PendingPatch, RefusedPatch } from './state_patch.js';
import { StatePins } from './state_pins.js';
import type { StateWrite } from './state_records.js';
import { recordingStateReader, trieStorage, writeTrieChanges } from './state_store.js';
import { isRefundReceipt, RecentRefunds } from './tx/recent_refunds.js';
import { type PooledTransaction, TxPool } from './tx_pool.js';
import { blockAuthor, blockViewJson } from './views/block_view.js';

export { COMBINED_TRANSACTIONS_SIZE_LIMIT, type PreparedChunksResult } from './chunk_preparer.js';
export { ChainError };

export interface ChainOptions {
  readonly store: Store;
  readonly genesis: Genesis;
  /** The validator key; null serves the chain read-only. */
  readonly signer: Signer | null;
  readonly applier: ChunkApplier;
  readonly storageUsageConfig: { readonly numBytesAccount: bigint; readonly numExtraBytesRecord: bigint };
  /** The sizes of its store's decoded-row caches; a reader's by default (`READER_CACHES`). */
  readonly caches?: ChainStoreCaches;
  /**
   * Pooled transactions a chunk considers at most; the runtime's prepareTransactions then takes
   * them up to the chunk's transaction gas and size limits, and the rest stay pooled.
   */
  readonly maxTransactionsPerChunk?: number;
  /**
   * Signed transaction bytes per chunk at most: nearcore's `combined_transactions_size_limit`
   * (witness_config), which counts each transaction's signature too since PostQuantumSignatures.
   */
  readonly combinedTransactionsSizeLimit?: number;
  /**
   * Keep each chunk's trie deletions (TrieChanges) for GC to release; default true. nearcore's
   * `save_trie_changes`, off on archival nodes, which never collect.
   */
  readonly saveTrieChanges?: boolean;
}

export type { NewBlockEvent } from './chain_handle.js';

/** A committed block with the pooled transactions it settled: for whoever reports it to another thread. */
export interface CommittedBlock extends NewBlockEvent {
  /** Transactions its chunks included. */
  readonly included: readonly PooledTransaction[];
  /** Transactions left out of its chunks as invalid (their errors are in `rejected`). */
  readonly rejectedTxs: readonly PooledTransaction[];
  /** Ids of the receipts its chunks sent: each runs in a later block, none has yet. */
  readonly sentReceiptIds: readonly CryptoHash[];
  /** Hex ids of those that are refunds (made by `system`). */
  readonly sentRefundIds: ReadonlySet<string>;
}

export interface OpenedChainStore {
  readonly chainStore: ChainStore;
  readonly layout: ShardLayout;
  readonly head: Tip;
  readonly genesisHash: CryptoHash;
}

/**
 * The chain's columns of `store`, with the genesis block written on first open; refuses a store made
 * from another genesis.
 */
export async function openChainStore(
  store: Store,
  genesis: Genesis,
  storageUsageConfig: ChainOptions['storageUsageConfig'],
  caches?: ChainStoreCaches,
): Promise<OpenedChainStore> {
  const chainStore = new ChainStore(store, caches);
  const layout = shardLayoutFromView(genesis.config.shardLayout);
  let head = chainStore.head();
  if (!head) {
    const g = buildGenesisBlock(genesis, layout, trieStorage(store), storageUsageConfig);
    writeBlock(g.update, g.header, g.chunks);
    writeHead(g.update, g.header.lite.height, g.header.hash);
    writeGenesisPointers(g.update, g.header.lite.height, g.header.hash);
    g.update.put(DBCol.BlockMisc, FLAT_STATE_BY_SHARD_KEY, new Uint8Array(0));
    await store.commit(g.update);
    head = { height: g.header.lite.height, hash: g.header.hash };
  } else await ensureFlatStateByShard(store, layout.shardIds, head.hash);
  const genesisHash = chainStore.genesisHash();
  if (!genesisHash) throw new ChainError('the store has a head but no genesis pointer');
  const genesisHeader = chainStore.blockHeader(genesisHash);
  if (!genesisHeader || genesisHeader.lite.height !== genesis.config.genesisHeight) {
    throw new ChainError('the store was created from a different genesis');
  }
  return { chainStore, layout, head, genesisHash };
}

export class Chain implements ChainHandle {
  readonly events = new EventEmitter<ChainEvents>();
  /** Every committed block with what it included and refused, before `events` announces it. */
  readonly committed = new EventEmitter<{ block: [CommittedBlock] }>();
  readonly pool = new TxPool();
  /** Heights view workers are reading; GC keeps their state (state_pins.ts). */
  readonly statePins = new StatePins();
  readonly chainStore: ChainStore;
  readonly layout: ShardLayout;
  private writeQueue: Promise<unknown> = Promise.resolve();
  private pendingPatches: PendingPatch[] = [];
  private halted = false;
  private headTip: Tip;
  /** Block time gained by sandbox fast-forwards (nearcore's accrued_fastforward_delta × delay). */
  private timeShiftNs = 0n;
  private readonly genesisHashValue: CryptoHash;
  private readonly epochRewards: EpochRewards;
  private readonly selection: ValidatorSelectionConfig;
  private readonly chunkParts: ChunkParts;
  private readonly chunks: ChunkPreparer;
  private readonly recentRefunds = new RecentRefunds();
  private readonly sent: SentReceipts;

  private constructor(
    private readonly opts: ChainOptions,
    chainStore: ChainStore,
    layout: ShardLayout,
    head: Tip,
    genesisHash: CryptoHash,
  ) {
    this.chainStore = chainStore;
    this.layout = layout;
    this.headTip = head;
    this.genesisHashValue = genesisHash;
    this.sent = new SentReceipts(opts.store, layout);
    const cfg = opts.genesis.config;
    this.selection = validatorSelectionConfig(epochConfigFields(cfg), cfg.validators.length);
    this.chunkParts = chunkParts(this.selection.numBlockProducerSeats);
    this.epochRewards = new EpochRewards(
      cfg,
      chainStore.store,
      layout.shardIds.length,
      (h) => {
        const hash = this.chainStore.blockHashByHeight(h);
        const header = hash && this.chainStore.blockHeader(hash);
        return header
          ? {
              hash,
              timestamp: header.lite.timestamp,
              totalSupply: header.rest.totalSupply,
              ordinal: header.rest.blockOrdinal,
              proposals: header.rest.validatorProposals,
            }
          : undefined;
      },
      true,
    );
    // Pools again what chunks made ahead of a block that never came had taken (answered INCLUDED).
    this.chunks = new ChunkPreparer({
      store: opts.store,
      chainStore,
      layout,
      pool: this.pool,
      applier: opts.applier,
      maxTransactionsPerChunk: opts.maxTransactionsPerChunk,
      combinedTransactionsSizeLimit: opts.combinedTransactionsSizeLimit,
    });
    this.events.setMaxListeners(0);
  }

  static async open(opts: ChainOptions): Promise<Chain> {
    const o = await openChainStore(opts.store, opts.genesis, opts.storageUsageConfig, opts.caches);
    return new Chain(opts, o.chainStore, o.layout, o.head, o.genesisHash);
  }

  get genesis(): Genesis {
    return this.opts.genesis;
  }

  get genesisHash(): CryptoHash {
    return this.genesisHashValue;
  }

  get canProduce(): boolean {
    return this.opts.signer !== null;
  }

  get store(): Store {
    return this.opts.store;
  }

  head(): Tip {
    return this.headTip;
  }

  headHeader(): BlockHeader {
    return this.chainStore.blockHeader(this.headTip.hash)!;
  }

  /** The state trie of a shard as of the end of block `blockHash` (after its chunks were applied). */
  stateTrie(blockHash: CryptoHash, shardId: number): Trie | undefined {
    const extra = this.chainStore.chunkExtra(blockHash, shardId);
    return extra ? new Trie(trieStorage(this.opts.store), extra.stateRoot) : undefined;
  }

  /** Queues block production behind any write in progress; resolves with the committed header. */
  produceBlock(): Promise<BlockHeader> {
    const next = this.writeQueue.then(() => this.produceNow());
    this.writeQueue = next.catch(() => undefined);
    return next;
  }

  /**
   * Like produceBlock, but decided when its turn in the write queue comes: nothing (null) unless
   * `plan()` still gives a step then. A step's `skip` heights are left without a block (the block
   * lands `skip + 1` above the head), and its `advanceNs` moves block time on for this and every
   * later block, as nearcore's sandbox fast-forward does.
   */
  private produceStep(plan: () => { skip: number; advanceNs: bigint } | null): Promise<BlockHeader | null> {
    const next = this.writeQueue.then(() => {
      // A stop lets the block being made finish, and the loop of steps end there.
      if (this.halted) throw new InternalError('the node is stopping');
      const step = plan();
      if (!step) return null;
      this.timeShiftNs += step.advanceNs;
      return this.produceNow(step.skip);
    });
    this.writeQueue = next.catch(() => undefined);
    return next;
  }

  /**
   * Produces `count` blocks one after another, one at every height, each moving block time on by
   * `stepNs` (a chain aged quickly, every height kept).
   */
  async produceBlocks(count: number, stepNs = 0n): Promise<void> {
    const target = this.head().height + count;
    while (this.head().height < target)
      await this.produceStep(() => (this.head().height < target ? { skip: 0, advanceNs: stepNs } : null));
  }

  /**
   * nearcore's sandbox fast-forward (sandbox_process_fast_forward): until the head reaches head +
   * `deltaHeight`, each block skips the heights up to three before its epoch's end, and the blocks
   * around an epoch's end come one height at a time, so every epoch's first and last heights have
   * their blocks and the epochs change as they would. The last jump lands one above the target, as
   * nearcore's does. Block time moves on by `stepNs` for each height passed.
   */
  async fastForward(deltaHeight: number, stepNs: bigint): Promise<void> {
    const cfg = this.opts.genesis.config;
    const length = cfg.epochLength;
    if (length <= 3) throw new ChainError('Unsupported: fast_forward with an epoch length of 3 or less');
    const target = this.head().height + deltaHeight;
    const plan = () => {
      const head = this.head().height;
      if (head >= target) return null;
      const inEpoch = (head - cfg.genesisHeight) % length;
      const skip = length - inEpoch <= 3 || inEpoch === 0 ? 0 : Math.min(target - head, length - inEpoch - 3);
      return { skip, advanceNs: BigInt(skip + 1) * stepNs };
    };
    while (this.head().height < target) await this.produceStep(plan);
  }

  sentRefund(receiptIdHex: string): boolean {
    return this.recentRefunds.has(receiptIdHex);
  }

  /**
   * Ends the loops of blocks a request runs (fast-forwards) after the block being made: the store
   * closes once the write queue is drained, and a loop would queue another block behind the stop.
   */
  halt(): void {
    this.halted = true;
    // No block will carry them.
    for (const p of this.pendingPatches.splice(0)) p.failed(new InternalError('the node is stopping'));
  }

  /** Runs `fn` as the single writer, between blocks. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.writeQueue.then(fn);
    this.writeQueue = next.catch(() => undefined);
    return next;
  }

  /**
   * Queues state writes (sandbox_patch_state) for the next block and resolves once that block is
   * committed, so the patch is visible to every later query.
   */
  patchState(writes: readonly StateWrite[]): Promise<void> {
    if (this.halted) return Promise.reject(new InternalError('the node is stopping'));
    // Settled by the block that carries it: resolved once committed, rejected if that block fails,
    // so a patch is always either applied or answered with an error.
    return new Promise((resolve, reject) =>
      this.pendingPatches.push({ writes, done: resolve, failed: reject }),
    );
  }

  private hashAt(height: number): CryptoHash {
    const h = this.chainStore.blockHashByHeight(height);
    if (!h) throw new ChainError(`missing canonical block at height ${height}`);
    return h;
  }

  private async produceNow(skip = 0): Promise<BlockHeader> {
    const patches = this.pendingPatches;
    this.pendingPatches = [];
    const taken: PooledTransaction[][] = [];
    const progress = { committed: false };
    try {
      return await this.produceWith(patches, taken, progress, skip);
    } catch (err) {
      if (progress.committed) throw err;
      // Nothing of the block was committed: its transactions wait for the next one.
      for (const txs of taken) this.pool.restore(txs);
      if (err instanceof RefusedPatch) {
        // One caller's patch that the state refuses is that caller's error, not the others' whose
        // patches shared its block: the block is made again without it.
        err.patch.failed(new InternalError(err.message));
        this.pendingPatches = [...patches.filter((p) => p !== err.patch), ...this.pendingPatches];
        return this.produceNow(skip);
      }
      // The patches it carried are answered with the failure instead of waiting forever.
      for (const p of patches) p.failed(err);
      throw err;
    }
  }

  /**
   * Makes the chunks of the block after the head now, from the pool as it is, as nearcore's client
   * makes the chunks of height H+1 as soon as it accepts block H (`produce_chunks`): their
   * transactions are stored at once, as nearcore stores a chunk it makes, and the next block at
   * H+1 is made from them. A transaction pooled after this waits for the chunks after. Callers that
   * never call it get chunks made when the block is.
   */
  prepareNextChunks(): Promise<PreparedChunksResult> {
    const next = this.writeQueue.then(() => this.prepareNow());
    this.writeQueue = next.catch(() => undefined);
    return next;
  }

  private async prepareNow(): Promise<PreparedChunksResult> {
    if (!this.opts.signer) return { included: [], rejected: new Map(), rejectedTxs: [] };
    const r = await this.chunks.makeAhead(this.headHeader());
    // Heard on this thread only where something listens (a chain thread reports them itself).
    if ((r.included.length > 0 || r.rejected.size > 0) && this.events.listenerCount('chunks') > 0)
      this.events.emit('chunks', {
        txIds: new Set(r.included.map((t) => toHex(t.hash))),
        rejected: r.rejected,
      });
    return r;
  }

  private async produceWith(
    patches: PendingPatch[],
    taken: PooledTransaction[][],
    progress: { committed: boolean },
    skip: number,
  ): Promise<BlockHeader> {
    const signer = this.opts.signer;
    if (!signer)
      throw new ChainError('this node holds no validator key for the genesis; it cannot produce blocks');
    const cfg = this.opts.genesis.config;
    const store = this.opts.store;
    const prev = this.headHeader();
    const height = prev.lite.height + 1 + skip;
    const nowNs = BigInt(Date.now()) * 1_000_000n + this.timeShiftNs;
    const timestamp = nowNs > prev.lite.timestamp ? nowNs : prev.lite.timestamp + 1n;
    const epoch = epochOf(height, cfg.genesisHeight, cfg.epochLength);
    const epochReward = epochStartReward(this.epochRewards, cfg, height);
    const hashAt = (h: number) => this.hashAt(h);
    const epochId = epochIdOf(epoch.index, cfg.genesisHeight, cfg.epochLength, this.genesisHashValue, hashAt);
    const nextEpochId = epochIdOf(
      epoch.index + 1,
      cfg.genesisHeight,
      cfg.epochLength,
      this.genesisHashValue,
      hashAt,
    );
    const stakes = this.epochRewards.stakesOf(epochId).stakes;
    const nextStakes = this.epochRewards.stakesOf(nextEpochId).stakes;
    // nearcore's last_final_block_for_height: a block right after a doomslug-final one finalizes that
    // one's parent. The genesis has zero hashes for both, so the first block names the zero hash.
    const lastFinalBlock =
      height === prev.lite.height + 1 && bytesEqual(prev.rest.lastDsFinalBlock, prev.prevHash)
        ? prev.prevHash
        : prev.rest.lastFinalBlock;
    const prevTreeBytes = store.get(DBCol.BlockMerkleTree, prev.hash);
    const prevTree = prevTreeBytes ? decodeMerkleTree(prevTreeBytes) : EMPTY_MERKLE_TREE;

    // Chunks made ahead, when the head was committed (prepareNextChunks), are this block's unless
    // the block is not the one they were made for (a fast-forward skipped heights).
    const ready = this.chunks.takeFor(prev, height);
    const ctx = this.chunks.context(prev, height);
    const { flat, rejected, rejectedTxs } = ctx;
    const storage = trieStorage(store);
    const shardInputs = this.layout.shardIds.map((shardId) => {
      const made = ready?.get(shardId);
      // What checking the chunk's transactions walked of the trie, applying them walks again.
      const { prevExtra, walk } = made ?? this.chunks.startingState(prev, shardId);
      const pooled = made?.pooled ?? this.chunks.shard(ctx, shardId, walk);
      taken.push(pooled);
      return {
        shardId,
        prevExtra,
        pooled,
        transactions: pooled.map((t) => t.bytes),
        prevOutgoingReceipts: this.sent.sentBy(prev.hash, shardId),
        incomingReceipts: this.sent.sentTo(prev.hash, shardId),
        walk,
      };
    });
    const { header, chunkHeaders } = produceBlockHeader({
      config: cfg,
      prev,
      height,
      prevMerkleTree: prevTree,
      timestamp,
      epochId,
      nextEpochId,
      lastFinalBlock,
      shards: shardInputs,
      signer,
      chunkParts: this.chunkParts,
      nextBlockProducers: epochBlockProducers(cfg, nextStakes),
      ...(epochReward ? { mintedAmount: epochReward.mintedAmount } : {}),
    });

    const update = new StoreUpdate();
    this.epochRewards.save(update);
    const chunks: Chunk[] = chunkHeaders.map((h, i) => ({
      header: h,
      transactions: shardInputs[i]!.transactions,
      prevOutgoingReceipts: shardInputs[i]!.prevOutgoingReceipts,
    }));
    writeBlock(update, header, chunks);
    // Serving a block is then a read of ready JSON, however cold the block.
    update.put(DBCol.BlockView, header.hash, utf8(blockViewJson(blockAuthor(cfg), header, chunkHeaders)));
    const results = new Map<number, ApplyChunkResult>();
    // What the bandwidth scheduler reads of every shard: this block's chunk headers, all new here.
    const blockCongestion = new Map(
      chunkHeaders.map((h) => [
        h.inner.shardId,
        { congestionInfo: h.inner.congestionInfo, missedChunksCount: 0 },
      ]),
    );
    const sent = this.sent.forBlock(header.hash);

    for (const input of shardInputs) {
      const { shardId, prevExtra, walk } = input;
      const recorder = new TrieRecorder(walk);
      const state = new TrieUpdate(recordingStateReader(flat(shardId), walk.trie, recorder), recorder);
      const res = this.opts.applier.applyChunk(
        {
          shardId,
          blockHeight: height,
          blockHash: header.hash,
          prevBlockHash: prev.hash,
          blockTimestamp: timestamp,
          epochId,
          epochHeight: epochHeightOf(height, cfg.genesisHeight, cfg.epochLength),
          gasPrice: prev.rest.nextGasPrice,
          gasLimit: cfg.gasLimit,
          randomSeed: header.rest.randomValue,
          accountShard: (id: string) => this.layout.accountIdToShardId(id),
          shardIds: this.layout.shardIds,
          // nearcore's minimum_stake: the next epoch's seat price over minimum_stake_divisor.
          minimumStake: minimumStake([...nextStakes.values()], this.selection),
          validators: stakes,
          ...(prevExtra.congestionInfo ? { congestionInfo: prevExtra.congestionInfo } : {}),
          blockCongestion,
          ...(epochReward
            ? {
                validatorAccountsUpdate: {
                  ...epochReward.validatorAccountsUpdate,
                  lastProposals: new Map(prevExtra.validatorProposals.map((p) => [p.accountId, p.stake])),
                },
              }
            : {}),
        },
        state,
        input.transactions,
        input.incomingReceipts,
      );
      results.set(shardId, res);
      if (patches.length > 0) applyStatePatches(this.layout, shardId, state, patches);
      const final = state.finalize();
      const trieChanges = applyChanges(storage, prevExtra.stateRoot, final.changes);
      writeTrieChanges(update, header.hash, shardId, trieChanges, this.opts.saveTrieChanges ?? true);
      writeFlatState(update, shardId, final.changes);
      encodeStateChanges(update, header.hash, final.stateChanges);

      // Chunks made ahead stored their transactions then.
      if (!ready) for (const t of input.pooled) update.put(DBCol.Transactions, t.hash, t.bytes);
      const { root: outcomeRoot, paths } = merklizeLeaves(res.outcomes.map((o) => outcomeLeaf(o.hashes)));
      res.outcomes.forEach((o, i) => {
        update.put(
          DBCol.TransactionResultForBlock,
          concatBytes(o.id, header.hash),
          encodeStoredOutcome({ outcomeBytes: o.bytes, blockHash: header.hash, shardId, proof: paths[i]! }),
        );
        if (o.isTransaction) update.put(DBCol.TransactionBlock, o.id, header.hash);
        else update.put(DBCol.ReceiptBlock, o.id, header.hash);
      });
      update.put(
        DBCol.OutcomeIds,
        blockShardKey(header.hash, shardId),
        encodeIdList(res.outcomes.map((o) => o.id)),
      );
      // An incoming receipt was stored with the chunk that sent it; its row stays until GC collects
      // the block of its outcome, so only the receipts this chunk made and ran are new here.
      for (const r of res.processedReceipts)
        if (!r.incoming) update.put(DBCol.Receipts, r.receiptId, r.bytes);
      const outgoingReceiptsRoot = sent.add(update, shardId, res.outgoingReceipts);
      const extra: ChunkExtra = {
        stateRoot: trieChanges.newRoot,
        outcomeRoot,
        gasUsed: res.gasUsed,
        gasLimit: cfg.gasLimit,
        balanceBurnt: res.balanceBurnt,
        outgoingReceiptsRoot,
        validatorProposals: res.validatorProposals,
        ...(res.congestionInfo ? { congestionInfo: res.congestionInfo } : {}),
      };
      update.put(DBCol.ChunkExtra, blockShardKey(header.hash, shardId), encodeChunkExtra(extra));
    }
    sent.write(update);
    update.put(DBCol.BlockMerkleTree, header.hash, encodeMerkleTree(merkleTreeInsert(prevTree, header.hash)));
    // A refused transaction stored by chunks made ahead (since put back in the pool) is in no chunk.
    for (const t of rejectedTxs) update.delete(DBCol.Transactions, t.hash);
    const included = shardInputs.flatMap((i) => i.pooled);
    const preparedRow = this.chunks.rowAfterBlock(update, included, rejectedTxs);
    writeHead(update, height, header.hash);
    await store.commit(update);
    progress.committed = true;
    this.chunks.rowCommitted(preparedRow);
    for (const input of shardInputs) this.pool.committed(input.pooled);
    this.headTip = { height, hash: header.hash };
    this.sent.committed(sent);
    for (const p of patches) p.done();
    const outcomeIds = new Set<string>();
    const sentReceiptIds: CryptoHash[] = [];
    const sentRefundIds = new Set<string>();
    for (const r of results.values()) {
      for (const o of r.outcomes) outcomeIds.add(toHex(o.id));
      for (const o of r.outgoingReceipts) {
        sentReceiptIds.push(o.receiptId);
        if (isRefundReceipt(o.bytes)) sentRefundIds.add(toHex(o.receiptId));
      }
    }
    this.recentRefunds.add(sentRefundIds);
    const block: CommittedBlock = {
      header,
      outcomeIds,
      rejected,
      gasUsed: chunkHeaders.reduce((g, c) => g + c.inner.prevGasUsed, 0n),
      included,
      rejectedTxs,
      sentReceiptIds,
      sentRefundIds,
    };
    this.committed.emit('block', block);
    this.events.emit('block', block);
    return header;
  }
}
