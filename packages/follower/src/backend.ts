// The read RPC over a follower's history store. It implements the jsonrpc RpcBackend like the
// producer's backend does, so no method knows which one it runs on. Objects that came from the
// stream (blocks, chunks, transactions, outcomes, receipts) are served as the JSON stored once at
// ingest; state views run the chain's own view functions over state prefetched from history.

import {
  blockIdJson,
  type CongestionInfoJson,
  changesUnknownBlock,
  congestionInfoFromView,
  congestionLevel,
  congestionLimits,
  congestionLimitsOfVersion,
  dbNotFound,
  endedEpochLastHeight,
  genesisConfigView,
  isNearNetwork,
  maintenanceWindowsView,
  nearNetworkGenesisHash,
  networkInfoView,
  protocolConfigView,
  receiptToTxOver,
  shardLayoutFromView,
  statusView,
  validatorsOrderedView,
  validatorsView,
} from '@nearlite/chain';
import {
  type BlockId,
  type BlockReference,
  type ChunkReference,
  type LightClientProofRequest,
  type QueryRequest,
  type ReceiptToTxQuery,
  type RpcBackend,
  RpcParseError,
  type TxStatusQuery,
} from '@nearlite/jsonrpc';
import {
  base58Decode,
  base58Encode,
  bytesEqual,
  type CryptoHash,
  decodeSignedTransaction,
  HandlerError,
  JsonF64,
  RawJson,
  type SignedTransaction,
  TransactionDecodeError,
  toBase64,
  ZERO_HASH,
} from '@nearlite/primitives';
import type { FollowerBackendOptions } from './backend_options.js';
import { lookupBlock, lookupHeader, resolveBlock } from './block_ref.js';
import { changesInBlockView, changesView } from './changes.js';
import { EpochStarts } from './epoch_start.js';
import { genesisHashFromChild, UpstreamGenesisHash } from './genesis_hash.js';
import { HeaderFactsCache } from './header_facts.js';
import { HistoryQueries } from './history_queries.js';
import type { HistoryReader, StoredBlock } from './history_reader.js';
import { ranOwnParameters } from './own_parameters.js';
import { historyReceiptSource } from './receipt_to_tx.js';
import { FollowerTxCheck } from './tx_check.js';
import { HistoryTxStatus } from './tx_status.js';
import { receiptView } from './tx_views.js';
import { lightClientUnavailable, readOnly, validatorInfoUnavailable } from './unavailable.js';
import { UpstreamEpochFacts } from './upstream_epoch.js';
import { FollowerValidatorFacts } from './validator_facts.js';

export type { FollowerBackendOptions };

function decodeTx(bytes: Uint8Array): SignedTransaction {
  try {
    return decodeSignedTransaction(bytes);
  } catch (err) {
    if (err instanceof TransactionDecodeError) throw new RpcParseError(err.message);
    throw err;
  }
}

export class FollowerBackend implements RpcBackend {
  private readonly facts = new HeaderFactsCache();
  private readonly shardIds: readonly number[];
  private readonly startedAt = Date.now();
  private readonly validatorFacts: FollowerValidatorFacts;
  private readonly queries: HistoryQueries;
  private readonly txs: HistoryTxStatus;
  private readonly txCheck: FollowerTxCheck;
  private readonly epochStarts: EpochStarts;
  private readonly upstreamEpoch: UpstreamEpochFacts;
  private readonly upstreamGenesis: UpstreamGenesisHash;

  constructor(private readonly o: FollowerBackendOptions) {
    this.txs = new HistoryTxStatus(o.history, o.pollingTimeoutMs);
    const layout = shardLayoutFromView(o.genesis.config.shardLayout);
    this.epochStarts = new EpochStarts(o.history, this.facts);
    this.upstreamEpoch = new UpstreamEpochFacts(o.upstream);
    this.upstreamGenesis = new UpstreamGenesisHash(o.upstream);
    this.txCheck = new FollowerTxCheck(o.history, o.genesis, layout, o.runtimeConfigView, this.facts);
    this.shardIds = layout.shardIds;
    this.validatorFacts = new FollowerValidatorFacts(o.genesis, this.shardIds.length, o.history, this.facts);
    this.queries = new HistoryQueries(o, this.facts, this.validatorFacts, layout);
  }

  /**
   * Whether the validator views can be computed here: on a chain nearlite produces, every epoch has
   * the genesis validators, producing every block and chunk, and its blocks say so in next_bp_hash.
   * A real network's producers change with each epoch and its stream does not carry them (nor what
   * each produced), so those views come from the upstream RPC, as NEAR's read-rpc takes them.
   */
  private async validatorsAreGenesis(): Promise<boolean> {
    const cursor = this.history.cursor();
    const head = cursor && (await this.history.block(cursor.hash));
    return !head || this.validatorFacts.areGenesisValidators(head.height, this.facts.of(head).nextBpHash);
  }

  private fromUpstream(method: string, params: unknown, unavailable: () => HandlerError): Promise<object> {
    if (!this.o.upstream) throw unavailable();
    return this.o.upstream.call(method, params);
  }

  private get history(): HistoryReader {
    return this.o.history;
  }

  headHeight(): number {
    return this.history.cursor()?.height ?? this.o.genesis.config.genesisHeight;
  }

  async block(ref: BlockReference): Promise<object> {
    return new RawJson((await resolveBlock(this.history, ref, this.history.firstHeight(), 'BLOCK')).json);
  }

  async chunk(id: ChunkReference): Promise<object> {
    const h = this.history;
    let raw: string | undefined;
    let chunkHash: string;
    if ('chunkId' in id) {
      chunkHash = base58Encode(id.chunkId);
      raw = await h.chunkByHash(id.chunkId);
    } else {
      const b = await resolveBlock(h, { blockId: id.blockId }, h.firstHeight(), 'BLOCK');
      // A shard id above 2^53 (a bigint) names no shard.
      const shardId = typeof id.shardId === 'number' ? id.shardId : -1;
      raw = shardId < 0 ? undefined : await h.chunk(b.hash, shardId);
      if (raw !== undefined) return new RawJson(raw);
      const known = this.facts.of(b).chunkHashes.get(shardId);
      if (known === undefined) {
        throw new HandlerError(
          'INVALID_SHARD_ID',
          { shard_id: id.shardId },
          `Shard id ${id.shardId} does not exist`,
        );
      }
      chunkHash = known;
      // A shard without a new chunk in this block names the chunk of an earlier block.
      raw = await h.chunkByHash(base58Decode(known));
    }
    if (raw === undefined) {
      throw new HandlerError(
        'UNKNOWN_CHUNK',
        { chunk_hash: chunkHash },
        `Chunk Missing (unavailable on the node): ChunkHash(\`${chunkHash}\`) \n Cause: Unknown`,
      );
    }
    return new RawJson(raw);
  }

  /** view_global_contract_code(_by_account_id): the code as the upstream gives it at the block. */
  query(ref: BlockReference, req: QueryRequest): Promise<object> {
    return this.queries.query(ref, req);
  }

  /** UNKNOWN_BLOCK with the cause as legacy `data`, as RpcStateChangesError gives it (changesUnknownBlock). */
  private async changesBlock(ref: BlockReference): Promise<StoredBlock> {
    const b = await lookupBlock(this.history, ref, this.history.firstHeight());
    if (!b) throw changesUnknownBlock();
    return b;
  }

  async changes(ref: BlockReference, req: Parameters<RpcBackend['changes']>[1]): Promise<object> {
    return changesView(this.history, await this.changesBlock(ref), req);
  }

  async changesInBlock(ref: BlockReference): Promise<object> {
    return changesInBlockView(this.history, await this.changesBlock(ref));
  }

  async status(): Promise<object> {
    const h = this.history;
    const cfg = this.o.genesis.config;
    const cursor = h.cursor();
    const first = h.firstHeight();
    const [head, earliest, genesisBlock] = await Promise.all([
      cursor ? h.block(cursor.hash) : undefined,
      first === null || cursor === null ? undefined : h.blockAt(first),
      cursor === null || cfg.genesisHeight > cursor.height ? undefined : h.blockAt(cfg.genesisHeight),
    ]);
    const hf = head && this.facts.of(head);
    const ef = earliest && this.facts.of(earliest);
    const zero = '11111111111111111111111111111111';
    const nearNetwork = isNearNetwork(cfg.chainId);
    // A chain nearlite produces starts its epochs on the genesis' grid; a NEAR network's drift, and its
    // stream names no block producers (the genesis' validators of 2020 produce nothing there now):
    // where the history begins inside the head's epoch, and who produces in it, are the upstream's.
    const nearHead = nearNetwork ? hf : undefined;
    const historyStart = nearHead ? await this.epochStarts.of(nearHead) : null;
    const upstream = nearHead
      ? await this.upstreamEpoch.of(nearHead.epochId, base58Encode(nearHead.hash), historyStart === null)
      : null;
    const epochStart = historyStart ?? upstream?.startHeight ?? null;
    return statusView({
      version: this.o.version,
      config: cfg,
      rpcAddr: this.o.rpcAddr,
      latest: {
        hash: hf ? base58Encode(hf.hash) : zero,
        height: hf?.height ?? cfg.genesisHeight,
        timestampNs: hf?.timestamp ?? cfg.genesisTimeNs,
        stateRoot: hf?.prevStateRoot ?? zero,
        epochId: hf?.epochId ?? zero,
      },
      earliest: {
        hash: ef ? base58Encode(ef.hash) : zero,
        height: ef?.height ?? cfg.genesisHeight,
        timestampNs: ef?.timestamp ?? cfg.genesisTimeNs,
      },
      syncing: this.o.syncing(),
      validatorAccountId: null,
      validatorPublicKey: null,
      nodePublicKey: this.o.nodePublicKey,
      uptimeSec: Math.floor((Date.now() - this.startedAt) / 1000),
      genesisHash: genesisBlock
        ? base58Encode(genesisBlock.hash)
        : (genesisHashFromChild(ef, cfg.genesisHeight) ??
          nearNetworkGenesisHash(cfg) ??
          (await this.upstreamGenesis.get()) ??
          zero),
      // A real network's head runs a later version than its genesis' (mainnet's 29); its header says
      // which its producers run, the one fact of it the stream carries.
      ...(hf ? { headProtocolVersion: hf.protocolVersion } : {}),
      ...(upstream?.protocolVersion ? { epochProtocolVersion: upstream.protocolVersion } : {}),
      ...(epochStart !== null ? { epochStartHeight: epochStart } : {}),
      ...(nearNetwork ? { validators: upstream?.producers ?? [] } : {}),
    });
  }

  /** The node is stopping: clients waiting on transactions are answered TIMEOUT_ERROR now. */
  endWaits(): void {
    this.txs.stop();
  }

  health(): void {
    this.o.health?.();
  }

  networkInfo(): object {
    return networkInfoView();
  }

  async validators(ref: Parameters<RpcBackend['validators']>[0]): Promise<object> {
    if (!(await this.validatorsAreGenesis())) {
      const params =
        ref === null
          ? [null]
          : 'epochId' in ref
            ? { epoch_id: base58Encode(ref.epochId) }
            : { block_id: blockIdJson(ref.blockId) };
      return this.fromUpstream('validators', params, validatorInfoUnavailable);
    }
    // nearcore's GetValidatorInfo rules, as in the chain's ViewClient.validators.
    const h = this.history;
    const cfg = this.o.genesis.config;
    const cursor = h.cursor();
    const head = cursor && (await h.block(cursor.hash));
    const headFacts = head && this.facts.of(head);
    if (ref === null || ('epochId' in ref && base58Encode(ref.epochId) === headFacts?.epochId)) {
      const height = headFacts?.height ?? cfg.genesisHeight;
      return validatorsView(cfg, this.shardIds, height, false, await this.validatorFacts.factsAt(height));
    }
    if (!headFacts) throw unknownEpoch();
    if ('epochId' in ref) {
      const genesis = h.genesisHeight();
      const genesisBlock = genesis === null ? undefined : await h.blockAt(genesis);
      const idBlock = await h.block(ref.epochId);
      const last = endedEpochLastHeight(cfg, headFacts.height, {
        isZero: bytesEqual(ref.epochId, ZERO_HASH),
        isGenesis: genesisBlock !== undefined && bytesEqual(ref.epochId, genesisBlock.hash),
        idHeight: idBlock?.height,
      });
      if (last === null) throw unknownEpoch();
      return validatorsView(cfg, this.shardIds, last, true, await this.validatorFacts.factsAt(last));
    }
    const b = await lookupBlock(h, { blockId: ref.blockId }, h.firstHeight());
    if (!b) throw unknownEpoch();
    let next: StoredBlock | undefined;
    for (let height = b.height + 1; height <= headFacts.height && !next; height++) {
      next = await h.blockAt(height);
    }
    if (!next) throw unknownEpoch();
    const view = (x: StoredBlock) =>
      (JSON.parse(x.json) as { header: { epoch_id: string; next_epoch_id: string; prev_hash: string } })
        .header;
    const [cur, nxt] = [view(b), view(next)];
    if (nxt.prev_hash !== base58Encode(b.hash)) throw unknownEpoch();
    if (cur.epoch_id === nxt.epoch_id || cur.next_epoch_id !== nxt.epoch_id) throw validatorInfoUnavailable();
    return validatorsView(cfg, this.shardIds, b.height, true, await this.validatorFacts.factsAt(b.height));
  }

  async gasPrice(blockId: Parameters<RpcBackend['gasPrice']>[0]): Promise<object> {
    const h = this.history;
    const b = await resolveBlock(h, blockId === null ? { finality: 'final' } : { blockId }, h.firstHeight());
    return { gas_price: this.facts.of(b).gasPrice };
  }

  genesisConfig(): object {
    return genesisConfigView(this.o.genesis.config);
  }

  async protocolConfig(ref: BlockReference): Promise<object> {
    // A header is enough: a collected block's answers as nearcore's does.
    const b = await lookupHeader(this.history, ref, this.history.firstHeight());
    if (!b) {
      // RpcProtocolConfigError's legacy text (see the chain's ViewClient.protocolConfig).
      const text = 'blockId' in ref ? dbNotFound(ref.blockId, 'BLOCK HEADER') : 'EarliestAvailable';
      throw new HandlerError('UNKNOWN_BLOCK', {}, `Block Not Found: ${text}`);
    }
    // The parameters known here are those a nearlite chain keeps for life, under its genesis'
    // version (own_parameters.ts); a real network's block ran that version's own.
    const version = this.facts.of(b).protocolVersion;
    const genesis = this.o.genesis.config;
    if (!ranOwnParameters(genesis, version)) {
      const params = { block_id: base58Encode(b.hash) };
      const known =
        version === genesis.protocolVersion
          ? `this node does not have the parameters ${genesis.chainId} ran at that version`
          : `this node knows the parameters of version ${genesis.protocolVersion} only`;
      return this.fromUpstream('EXPERIMENTAL_protocol_config', params, () =>
        HandlerError.internal(
          `EXPERIMENTAL_protocol_config: block #${b.height} runs protocol version ${version} and ${known}; start the follower with --upstream-rpc to ask its RPC`,
        ),
      );
    }
    return protocolConfigView(this.o.genesis.config, this.o.runtimeConfigView);
  }

  async sendTx(signedTx: Uint8Array, waitUntil: Parameters<RpcBackend['sendTx']>[1]): Promise<object> {
    decodeTx(signedTx);
    const params = { signed_tx_base64: toBase64(signedTx), wait_until: waitUntil };
    return this.fromUpstream('send_tx', params, readOnly);
  }

  async broadcastTxAsync(signedTx: Uint8Array): Promise<string> {
    const { hash } = decodeTx(signedTx);
    const upstream = this.o.upstream;
    if (!upstream) throw readOnly();
    // nearcore answers with the hash before it checks the transaction, but has it in its pool by
    // then; here it is the upstream's to keep, so a forward that fails is the client's error (as
    // read-rpc answers), not a hash for a transaction nobody has.
    await upstream.call('broadcast_tx_async', [toBase64(signedTx)]);
    return base58Encode(hash);
  }

  txStatus(
    query: TxStatusQuery,
    waitUntil: Parameters<RpcBackend['txStatus']>[1],
    withReceipts: boolean,
  ): Promise<object> {
    if ('txHash' in query) return this.txs.status(query.txHash, waitUntil, withReceipts);
    const stx = decodeTx(query.signedTx);
    const wait = {};
    return this.txs.status(stx.hash, waitUntil, withReceipts, () => this.txCheck.check(stx, wait));
  }

  receipt(receiptId: CryptoHash): Promise<object> {
    return receiptView(this.history, receiptId);
  }

  /**
   * Walked back through the history's outcomes as a producer walks its own. A receipt whose creators
   * are not all kept here (below the first followed block, or collected) is asked of the upstream
   * RPC when there is one.
   */
  async receiptToTx(req: ReceiptToTxQuery): Promise<object> {
    try {
      return await receiptToTxOver(historyReceiptSource(this.history), req);
    } catch (e) {
      const upstream = this.o.upstream;
      if (!upstream || !(e instanceof HandlerError) || e.cause !== 'UNKNOWN_RECEIPT') throw e;
      return upstream.call('EXPERIMENTAL_receipt_to_tx', {
        receipt_id: base58Encode(req.receiptId),
        ...(req.blockHeight !== undefined ? { block_height: req.blockHeight } : {}),
        ...(req.shardId !== undefined ? { shard_id: req.shardId } : {}),
        ...(req.window !== undefined ? { window: req.window } : {}),
      });
    }
  }

  // The light-client methods prove with the block merkle tree and approvals, which the stream does not
  // carry: they are the upstream's answers, as NEAR's read-rpc proxies what it does not serve.
  lightClientProof(req: LightClientProofRequest, head: CryptoHash): Promise<object> {
    const id =
      req.type === 'transaction'
        ? { transaction_hash: base58Encode(req.transactionHash), sender_id: req.senderId }
        : { receipt_id: base58Encode(req.receiptId), receiver_id: req.receiverId };
    const params = { type: req.type, ...id, light_client_head: base58Encode(head) };
    return this.fromUpstream('EXPERIMENTAL_light_client_proof', params, () =>
      lightClientUnavailable('EXPERIMENTAL_light_client_proof'),
    );
  }

  nextLightClientBlock(lastBlockHash: CryptoHash): Promise<object> {
    return this.fromUpstream(
      'next_light_client_block',
      { last_block_hash: base58Encode(lastBlockHash) },
      () => {
        // RpcLightClientNextBlockError's legacy `data` is the serialized error, not its text.
        const e = lightClientUnavailable('next_light_client_block');
        return new HandlerError(e.cause, e.info, { name: e.cause, info: e.info });
      },
    );
  }

  lightClientBlockProof(blockHash: CryptoHash, head: CryptoHash): Promise<object> {
    const params = { block_hash: base58Encode(blockHash), light_client_head: base58Encode(head) };
    return this.fromUpstream('EXPERIMENTAL_light_client_block_proof', params, () =>
      lightClientUnavailable('EXPERIMENTAL_light_client_block_proof'),
    );
  }

  async validatorsOrdered(blockId: BlockId | null): Promise<object> {
    if (!(await this.validatorsAreGenesis())) {
      const params = { block_id: blockId === null ? null : blockIdJson(blockId) };
      return this.fromUpstream('EXPERIMENTAL_validators_ordered', params, validatorInfoUnavailable);
    }
    let height = this.headHeight();
    if (blockId !== null) {
      const h = this.history;
      try {
        height = (await resolveBlock(h, { blockId }, h.firstHeight())).height;
      } catch (err) {
        if (err instanceof HandlerError) throw new HandlerError('UNKNOWN_EPOCH', undefined, 'Unknown Epoch');
        throw err;
      }
    }
    return validatorsOrderedView(this.o.genesis.config, (await this.validatorFacts.stakesAt(height)).stakes);
  }

  async congestionLevel(id: ChunkReference): Promise<object> {
    const chunk = (await this.chunk(id)) as RawJson;
    const header = (
      JSON.parse(chunk.json) as {
        header: {
          chunk_hash: string;
          height_included: number;
          congestion_info?: CongestionInfoJson | null;
        };
      }
    ).header;
    // The limits are those of the protocol the chunk's block runs (nearcore reads the protocol
    // config at height_included): this node's own where the block ran them (own_parameters.ts),
    // else the upstream's answer, or without one the limits nearcore's parameter files give that
    // version.
    const included = await this.history.blockAt(header.height_included);
    const version = included
      ? this.facts.of(included).protocolVersion
      : this.o.genesis.config.protocolVersion;
    let limits = congestionLimits(this.o.runtimeConfigView);
    if (!ranOwnParameters(this.o.genesis.config, version)) {
      if (this.o.upstream) {
        return this.o.upstream.call('EXPERIMENTAL_congestion_level', { chunk_id: header.chunk_hash });
      }
      limits = congestionLimitsOfVersion(version);
    }
    const info = header.congestion_info;
    // A chunk from before congestion control has no congestion info: level 0, as nearcore says.
    const level = info ? congestionLevel(congestionInfoFromView(info), limits) : 0;
    return { congestion_level: new JsonF64(level) };
  }

  async maintenanceWindows(accountId: string): Promise<object> {
    if (!(await this.validatorsAreGenesis())) {
      return this.fromUpstream('maintenance_windows', { account_id: accountId }, () =>
        HandlerError.internal(
          'maintenance_windows: the block stream does not carry the block and chunk producers of this network; start the follower with --upstream-rpc to ask its RPC',
        ),
      );
    }
    const cfg = this.o.genesis.config;
    return maintenanceWindowsView(cfg, this.history.cursor()?.height ?? cfg.genesisHeight, accountId);
  }

  /** The stream carries final blocks only: the head is final as soon as it is kept. */
  async splitStorageInfo(): Promise<object> {
    const height = this.history.cursor()?.height ?? null;
    return {
      head_height: height,
      final_head_height: height,
      cold_head_height: null,
      hot_db_kind: (await this.o.archivalStore()) ? 'Archive' : 'RPC',
    };
  }

  clientConfig(): object {
    return this.o.clientConfig();
  }
}

function unknownEpoch(): HandlerError {
  return new HandlerError('UNKNOWN_EPOCH', undefined, 'Unknown Epoch');
}
