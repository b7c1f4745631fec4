// Read-only views of the chain in nearcore's JSON shapes (blocks, chunks, state queries, node status).
import {
  type BlockId,
  type BlockReference,
  BorshReader,
  base58Encode,
  bytesEqual,
  type CryptoHash,
  fromUtf8,
  type GlobalContractIdentifier,
  HandlerError,
  JsonF64,
  RawJson,
  stringifyJson,
  toHex,
  ZERO_HASH,
} from '@nearlite/primitives';
import { DBCol, DecodedRows, LruCache } from '@nearlite/store';
import type { BlockHeader } from '../block_header.js';
import type { ChainHandle } from '../chain_handle.js';
import { type Chunk, decodeChunk, readChunkHeader } from '../chunk.js';
import { EpochStakesReader } from '../epoch_rewards.js';
import { gcStopHeight } from '../gc.js';
import {
  blockHashOf,
  dbNotFound,
  isCollected,
  lookupBlock,
  lookupHeader,
  resolveBlock,
  resolveQueryBlock,
  unavailableShard,
} from './block_ref.js';
import { blockAuthor, blockViewJson, chunkHeaderView } from './block_view.js';
import { genesisConfigView, protocolConfigView } from './config_views.js';
import { congestionLevel, congestionLimits } from './congestion_level.js';
import { EpochProposals } from './epoch_proposals.js';
import { epochValidatorFacts } from './epoch_validators.js';
import {
  type QueryAt,
  type StatePage,
  TRIE_VIEWER_STATE_SIZE_LIMIT,
  viewAccessKey,
  viewAccessKeyList,
  viewAccount,
  viewCode,
  viewGasKeyNonces,
  viewGlobalContractCode,
  viewState,
} from './query.js';
import { CachedViewTrie } from './state_value_cache.js';
import { type BuildVersion, networkInfoView, statusView } from './status_view.js';
import {
  endedEpochLastHeight,
  maintenanceWindowsView,
  validatorsOrderedView,
  validatorsView,
} from './validators_view.js';

const unknownEpoch = () => new HandlerError('UNKNOWN_EPOCH', undefined, 'Unknown Epoch');

export interface ViewClientOptions {
  readonly chain: ChainHandle;
  /** JSON view of a stored signed transaction / receipt (codecs live with the runtime). */
  readonly transactionView: (bytes: Uint8Array) => object;
  readonly receiptView: (bytes: Uint8Array) => object;
  readonly runtimeConfigView: object;
  readonly nodePublicKey: string;
  readonly validatorPublicKey: string | null;
  readonly validatorAccountId: string | null;
  readonly rpcAddr: string;
  readonly version: BuildVersion;
  /** config.json's trie_viewer_state_size_limit (bytes; null: unlimited); nearcore's 50,000 if absent. */
  readonly stateSizeLimit?: bigint | null;
  /**
   * config.json's gc_num_epochs_to_keep on a node that collects garbage; absent on an archival one.
   * `query` by height below GC's stop height is refused before any lookup, as nearcore's is.
   */
  readonly gcNumEpochsToKeep?: number;
}

type ChunkId =
  | { readonly chunkId: CryptoHash }
  | { readonly blockId: BlockId; readonly shardId: number | bigint };

const toRawJson = (bytes: Uint8Array) => new RawJson(fromUtf8(bytes));

/**
 * A chunk's answer is kept beside its cached row while the row is at most this size (a few hundred
 * transactions); a larger one is built on each request rather than kept as text of several times
 * its size.
 */
const CHUNK_VIEW_MEMO_MAX = 64 * 1024;

export class ViewClient {
  private readonly startedAt = Date.now();
  /** Views built on demand (genesis, blocks stored without one); the rest come from the store. */
  private readonly blockJson = new LruCache<string, RawJson>(1_000);
  /** Stored block views, decoded once per cached row. */
  private readonly storedViews = new DecodedRows<RawJson>();
  /** `chunk` answers, built once per cached chunk row (up to CHUNK_VIEW_MEMO_MAX bytes of it). */
  private readonly chunkViews = new DecodedRows<RawJson>(CHUNK_VIEW_MEMO_MAX);
  /** The proposals of recent epochs, for the `validators` views. */
  private readonly proposals = new EpochProposals();
  private readonly stakes: EpochStakesReader;
  /** Each block's shard tries by its header object (see shardTrie). */
  private readonly tries = new WeakMap<BlockHeader, (CachedViewTrie | undefined)[]>();

  constructor(private readonly o: ViewClientOptions) {
    this.stakes = new EpochStakesReader(o.chain.store, o.chain.genesis.config);
  }

  get chain(): ChainHandle {
    return this.o.chain;
  }

  private author(): string {
    return blockAuthor(this.o.chain.genesis.config);
  }

  private storedView(hash: CryptoHash): RawJson | undefined {
    const bytes = this.o.chain.store.get(DBCol.BlockView, hash);
    return bytes && this.storedViews.of(bytes, toRawJson);
  }

  block(ref: BlockReference): object {
    const chain = this.o.chain;
    // A block named by height or hash needs no header: its stored view is the answer.
    if ('blockId' in ref) {
      const hash = blockHashOf(chain, ref.blockId);
      const stored = hash && this.storedView(hash);
      if (stored) return stored;
    }
    // get_block reads the Block column: a hash it lacks is named as such.
    const header = resolveBlock(chain, ref, 'BLOCK');
    if (!('blockId' in ref)) {
      const stored = this.storedView(header.hash);
      if (stored) return stored;
    }
    // Genesis, and blocks written before views were stored: built once, kept in a small LRU.
    const key = toHex(header.hash);
    let json = this.blockJson.get(key);
    if (!json) {
      const chunks = chain.chainStore.blockChunkHeaders(header.hash) ?? [];
      json = new RawJson(blockViewJson(this.author(), header, chunks));
      this.blockJson.set(key, json);
    }
    return json;
  }

  chunk(id: ChunkId): object {
    const bytes = this.chunkRow(id);
    return this.chunkViews.of(bytes, (b) => this.chunkView(decodeChunk(b)));
  }

  /** The stored chunk `id` names: by hash, or the header a block carries for a shard. */
  private chunkRow(id: ChunkId): Uint8Array {
    const chain = this.o.chain;
    let chunkHash: CryptoHash;
    if ('chunkId' in id) chunkHash = id.chunkId;
    else {
      const header = resolveBlock(chain, { blockId: id.blockId }, 'BLOCK');
      const headers = chain.chainStore.blockChunkHeaders(header.hash) ?? [];
      const ch = headers.find((c) => c.inner.shardId === id.shardId);
      if (!ch) {
        throw new HandlerError(
          'INVALID_SHARD_ID',
          { shard_id: id.shardId },
          `Shard id ${id.shardId} does not exist`,
        );
      }
      chunkHash = ch.chunkHash;
    }
    const bytes = chain.chainStore.chunkRow(chunkHash);
    if (!bytes) {
      const hash = base58Encode(chunkHash);
      throw new HandlerError(
        'UNKNOWN_CHUNK',
        { chunk_hash: hash },
        `Chunk Missing (unavailable on the node): ChunkHash(\`${hash}\`) \n Cause: Unknown`,
      );
    }
    return bytes;
  }

  /** EXPERIMENTAL_congestion_level: the chunk's congestion info as one fraction. */
  congestionLevel(id: ChunkId): object {
    // A chunk row starts with its header: nothing after it is read.
    const info = readChunkHeader(new BorshReader(this.chunkRow(id))).inner.congestionInfo;
    return {
      congestion_level: new JsonF64(congestionLevel(info, congestionLimits(this.o.runtimeConfigView))),
    };
  }

  /** EXPERIMENTAL_validators_ordered at a block (the head when null); UNKNOWN_EPOCH if unknown. */
  validatorsOrdered(blockId: BlockId | null): object[] {
    const chain = this.o.chain;
    let header = chain.headHeader();
    if (blockId !== null) {
      const hash = blockHashOf(chain, blockId);
      const found = hash && chain.chainStore.blockHeader(hash);
      if (!found) throw new HandlerError('UNKNOWN_EPOCH', undefined, 'Unknown Epoch');
      header = found;
    }
    const cfg = chain.genesis.config;
    return validatorsOrderedView(cfg, this.stakes.of(header.lite.epochId).stakes);
  }

  maintenanceWindows(accountId: string): object[] {
    return maintenanceWindowsView(this.o.chain.genesis.config, this.o.chain.head().height, accountId);
  }

  private chunkView(chunk: Chunk): RawJson {
    return new RawJson(
      stringifyJson({
        author: this.author(),
        header: chunkHeaderView(chunk.header),
        transactions: chunk.transactions.map((t) => this.o.transactionView(t)),
        receipts: chunk.prevOutgoingReceipts.map((r) => this.o.receiptView(r)),
      }),
    );
  }

  /** The validators and stakes of the epoch a query's block is in (`validator_stake` in view calls). */
  validatorStakes(at: QueryAt): ReadonlyMap<string, bigint> | undefined {
    const epochId = at.header.lite.epochId;
    return epochId ? this.stakes.of(epochId).stakes : undefined;
  }

  /** The header and shard trie that a query for `accountId` reads. */
  queryAt(ref: BlockReference, accountId: string): QueryAt {
    return this.queryAtShard(ref, this.o.chain.layout.accountIdToShardId(accountId));
  }

  private queryAtShard(ref: BlockReference, shardId: number): QueryAt {
    const chain = this.o.chain;
    const keep = this.o.gcNumEpochsToKeep;
    const header = resolveQueryBlock(chain, ref, keep === undefined ? null : gcStopHeight(chain, keep));
    // A block found by hash, finality or checkpoint whose state GC took (genesis included, whose
    // header and row it keeps): nearcore finds no chunk extra there and, with ContinuousEpochSync
    // (protocol 85), answers that the shard is not tracked (view_client_actor.rs, handle_query).
    const trie = isCollected(chain, header) ? undefined : this.shardTrie(header, shardId);
    if (!trie) throw unavailableShard(shardId);
    return { header, trie, stateRoot: trie.root };
  }

  /**
   * A block's state trie for one shard, kept with the block's header object (the chain store's cached
   * one): every query at the same block, such as each `final` read between two blocks, shares it. A
   * collected block is refused before this (queryAtShard), so its trie is never read.
   */
  private shardTrie(header: BlockHeader, shardId: number): CachedViewTrie | undefined {
    let tries = this.tries.get(header);
    if (tries === undefined) {
      tries = [];
      this.tries.set(header, tries);
    }
    const known = tries[shardId];
    if (known) return known;
    const trie = this.o.chain.stateTrie(header.hash, shardId);
    if (!trie) return undefined;
    const cached = new CachedViewTrie(trie.storage, trie.root);
    tries[shardId] = cached;
    return cached;
  }

  viewAccount(ref: BlockReference, accountId: string): object {
    return viewAccount(this.queryAt(ref, accountId), accountId);
  }

  viewCode(ref: BlockReference, accountId: string): object {
    return viewCode(this.queryAt(ref, accountId), accountId);
  }

  /** Every shard holds a global contract: by account on the owner's shard, by hash on the first. */
  viewGlobalContractCode(ref: BlockReference, id: GlobalContractIdentifier): object {
    const shardId =
      id.kind === 'AccountId'
        ? this.o.chain.layout.accountIdToShardId(id.accountId)
        : this.o.chain.layout.shardIds[0]!;
    return viewGlobalContractCode(this.queryAtShard(ref, shardId), id);
  }

  viewState(
    ref: BlockReference,
    accountId: string,
    prefix: Uint8Array,
    includeProof: boolean,
    page?: StatePage,
  ): object {
    const limit = this.o.stateSizeLimit === undefined ? TRIE_VIEWER_STATE_SIZE_LIMIT : this.o.stateSizeLimit;
    return viewState(this.queryAt(ref, accountId), accountId, prefix, includeProof, limit, page);
  }

  viewAccessKey(ref: BlockReference, accountId: string, publicKey: string): object {
    return viewAccessKey(this.queryAt(ref, accountId), accountId, publicKey);
  }

  viewGasKeyNonces(ref: BlockReference, accountId: string, publicKey: string): object {
    return viewGasKeyNonces(this.queryAt(ref, accountId), accountId, publicKey);
  }

  viewAccessKeyList(ref: BlockReference, accountId: string): object {
    return viewAccessKeyList(this.queryAt(ref, accountId), accountId);
  }

  gasPrice(blockId: BlockId | null): object {
    const header = blockId === null ? this.o.chain.headHeader() : resolveBlock(this.o.chain, { blockId });
    return { gas_price: header.rest.nextGasPrice.toString() };
  }

  genesisConfig(): object {
    return genesisConfigView(this.o.chain.genesis.config);
  }

  protocolConfig(ref: BlockReference): object {
    // RpcProtocolConfigError's legacy text is "Block Not Found: " and the chain store's DBNotFoundErr
    // message (nearcore chain/jsonrpc-primitives/src/types/config.rs), no " \n Cause". It reads the
    // block's header alone, which outlives GC.
    if (!lookupHeader(this.o.chain, ref)) {
      const text = 'blockId' in ref ? dbNotFound(ref.blockId, 'BLOCK HEADER') : 'EarliestAvailable';
      throw new HandlerError('UNKNOWN_BLOCK', {}, `Block Not Found: ${text}`);
    }
    return protocolConfigView(this.o.chain.genesis.config, this.o.runtimeConfigView);
  }

  status(): object {
    const chain = this.o.chain;
    const head = chain.headHeader();
    const cs = chain.chainStore;
    const tail = cs.tail() ?? chain.genesis.config.genesisHeight;
    const earliestHash = cs.blockHashByHeight(tail) ?? chain.genesisHash;
    const earliest = cs.blockHeader(earliestHash) ?? head;
    const cfg = chain.genesis.config;
    return statusView({
      version: this.o.version,
      config: cfg,
      rpcAddr: this.o.rpcAddr,
      latest: {
        hash: base58Encode(head.hash),
        height: head.lite.height,
        timestampNs: head.lite.timestamp,
        stateRoot: base58Encode(head.lite.prevStateRoot),
        epochId: base58Encode(head.lite.epochId),
      },
      earliest: {
        hash: base58Encode(earliest.hash),
        height: earliest.lite.height,
        timestampNs: earliest.lite.timestamp,
      },
      syncing: false,
      validatorAccountId: this.o.validatorAccountId,
      validatorPublicKey: this.o.validatorPublicKey,
      nodePublicKey: this.o.nodePublicKey,
      uptimeSec: Math.floor((Date.now() - this.startedAt) / 1000),
      genesisHash: base58Encode(chain.genesisHash),
    });
  }

  networkInfo(): object {
    return networkInfoView();
  }

  /**
   * nearcore's GetValidatorInfo (view_client_actor.rs): the head's epoch for `latest` or its id; by id
   * otherwise, only an ended epoch; by block, only the last block of an epoch (its successor is in the
   * next epoch), which answers for that epoch. A block or epoch not found, or a block with no successor
   * yet, is UNKNOWN_EPOCH (GetValidatorInfoError from DBNotFoundErr / EpochOutOfBounds).
   */
  validators(ref: { readonly blockId: BlockId } | { readonly epochId: CryptoHash } | null): object {
    const chain = this.o.chain;
    const cfg = chain.genesis.config;
    const shardIds = chain.layout.shardIds;
    const head = chain.headHeader();
    if (ref === null || ('epochId' in ref && bytesEqual(ref.epochId, head.lite.epochId))) {
      return this.validatorsAt(head, false);
    }
    if ('epochId' in ref) {
      const id = ref.epochId;
      const last = endedEpochLastHeight(cfg, head.lite.height, {
        isZero: bytesEqual(id, ZERO_HASH),
        isGenesis: bytesEqual(id, chain.genesisHash),
        idHeight: chain.chainStore.blockHeader(id)?.lite.height,
      });
      if (last === null) throw unknownEpoch();
      const lastHash = chain.chainStore.blockHashByHeight(last);
      const lastHeader = lastHash && chain.chainStore.blockHeader(lastHash);
      return lastHeader ? this.validatorsAt(lastHeader, true) : validatorsView(cfg, shardIds, last, true);
    }
    const header = lookupBlock(chain, { blockId: ref.blockId });
    if (!header) throw unknownEpoch();
    let next: BlockHeader | undefined;
    for (let h = header.lite.height + 1; h <= head.lite.height && !next; h++) {
      const hash = chain.chainStore.blockHashByHeight(h);
      next = hash && chain.chainStore.blockHeader(hash);
    }
    if (!next || !bytesEqual(next.prevHash, header.hash)) throw unknownEpoch();
    const endsEpoch =
      !bytesEqual(header.lite.epochId, next.lite.epochId) &&
      bytesEqual(header.lite.nextEpochId, next.lite.epochId);
    if (!endsEpoch) {
      throw new HandlerError('VALIDATOR_INFO_UNAVAILABLE', undefined, 'Validator info unavailable');
    }
    return this.validatorsAt(header, true);
  }

  /** The validators view of the epoch of `header`, counted up to it. */
  private validatorsAt(header: BlockHeader, finished: boolean): object {
    const chain = this.o.chain;
    const facts = epochValidatorFacts(chain, this.stakes, this.proposals, header);
    return validatorsView(chain.genesis.config, chain.layout.shardIds, header.lite.height, finished, facts);
  }
}
