// The composition root: store, genesis, chain, runtime, view client, RPC server and the block timer.
import { existsSync, readFileSync } from 'node:fs';
import {
  assertChainWhole,
  Chain,
  ChainStore,
  type ChunkApplier,
  gcStep,
  loadGenesis,
  NOOP_CHUNK_APPLIER,
  type Signer,
  shardLayoutFromView,
  signerFromKeyFile,
  ViewClient,
} from '@nearlite/chain';
import { startRpcServer } from '@nearlite/jsonrpc';
import { base58Encode, publicKeyEquals } from '@nearlite/primitives';
import { ensureMetadata, Store } from '@nearlite/store';
import { LakePublisher, NeardataService } from '@nearlite/stream';
import { takeCleanStop, writeCleanStop } from './clean_stop.js';
import { DEFAULT_CONFIG, loadConfig, type NodeConfig, parseHostPort } from './config.js';
import { checkFinalHead, FinalHeadWriter } from './final_head.js';
import { homePaths } from './home.js';
import { type LakeTarget, lakeSink } from './lake.js';
import type { Logger } from './log.js';
import { NodeMetrics } from './metrics.js';
import { createRpcBackend, healthCheck } from './rpc_backend.js';
import { createServices } from './services.js';
import { VERSION } from './version.js';
import { WarmUp } from './warm_up.js';

export interface RunOptions {
  readonly home: string;
  readonly rpcAddr?: string;
  readonly blockTimeMs?: number;
  readonly archive?: boolean;
  readonly convertDbKind?: boolean;
  /** Serve the sandbox methods (overrides config.json's `sandbox`). */
  readonly sandbox?: boolean;
  /** Publish every final block in the NEAR Lake layout to this directory or bucket. */
  readonly lakeOut?: LakeTarget;
  readonly logger: Logger;
}

export class NodeError extends Error {
  override readonly name = 'NodeError';
}

function loadSigner(
  path: string,
  genesisValidators: Chain['genesis']['config']['validators'],
  log: Logger,
): Signer | null {
  if (!existsSync(path)) {
    log.warn(`no ${path}: serving the chain read-only`);
    return null;
  }
  const signer = signerFromKeyFile(JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>);
  const match = genesisValidators.find(
    (v) => v.accountId === signer.accountId && publicKeyEquals(v.publicKey, signer.publicKey),
  );
  if (!match) {
    log.warn(
      `validator key ${signer.accountId} is not a genesis validator: this node holds no block producer key, ` +
        'so it serves the chain read-only (queries answer on the blocks it has)',
    );
    return null;
  }
  return signer;
}

export class NearliteNode {
  private timer: NodeJS.Timeout | null = null;
  private stopping = false;
  private lastBlockAt = Date.now();
  private collectedSinceCompaction = 0;
  private lake: LakePublisher | null = null;

  private constructor(
    readonly chain: Chain,
    readonly views: ViewClient,
    readonly config: NodeConfig,
    readonly url: string,
    readonly port: number,
    private readonly store: Store,
    private readonly home: string,
    private readonly closeServer: () => Promise<void>,
    private readonly closeServices: () => Promise<void>,
    private readonly log: Logger,
    private readonly metrics: NodeMetrics,
  ) {}

  static async start(o: RunOptions, applier?: ChunkApplier): Promise<NearliteNode> {
    const p = homePaths(o.home);
    if (!existsSync(p.genesis))
      throw new NodeError(`no genesis.json in ${o.home}; run \`nearlite init --home ${o.home}\` first`);
    const fileConfig = existsSync(p.config) ? loadConfig(p.config) : DEFAULT_CONFIG;
    const config: NodeConfig = {
      ...fileConfig,
      rpcAddr: o.rpcAddr ?? fileConfig.rpcAddr,
      blockTimeMs: o.blockTimeMs ?? fileConfig.blockTimeMs,
      archive: o.archive ?? fileConfig.archive,
      sandbox: o.sandbox ?? fileConfig.sandbox,
    };
    const genesis = loadGenesis(p.genesis);
    // Taken before the open, which rewrites LevelDB's files.
    const cleanStop = takeCleanStop(o.home, p.data);
    const store = await Store.open(p.data);
    let chain: Chain;
    try {
      await ensureMetadata(store, config.archive ? 'archival' : 'gc', { convert: o.convertDbKind ?? false });
      // Before extending anything: the store must still hold what this node announced as final, and
      // every recent height beneath its head must be whole.
      const existing = new ChainStore(store);
      const existingHead = existing.head();
      checkFinalHead(o.home, existingHead, existingHead ? existing : null);
      const untouchedSinceCleanStop =
        cleanStop !== null &&
        existingHead !== null &&
        cleanStop.height === existingHead.height &&
        cleanStop.hash === base58Encode(existingHead.hash);
      if (existingHead && !untouchedSinceCleanStop)
        assertChainWhole(store, shardLayoutFromView(genesis.config.shardLayout).shardIds, o.home);
      else if (existingHead)
        o.logger.info(
          `the store is as its clean stop at #${existingHead.height} left it: heights beneath the head not re-checked`,
        );
      const signer = loadSigner(p.validatorKey, genesis.config.validators, o.logger);
      const services = createServices({ genesis, config });
      chain = await Chain.open({
        store,
        genesis,
        signer,
        applier: applier ?? (signer ? services.applier : NOOP_CHUNK_APPLIER),
        storageUsageConfig: services.storageUsageConfig,
      });
      const finalHeads = new FinalHeadWriter(o.home);
      chain.events.on('block', ({ header }) => {
        const final = chain.chainStore.blockHeader(header.rest.lastFinalBlock);
        if (final) finalHeads.write(final.lite.height, final.hash);
      });
      const { host, port } = parseHostPort(config.rpcAddr);
      const nodeKey = existsSync(p.nodeKey)
        ? (JSON.parse(readFileSync(p.nodeKey, 'utf8')) as { public_key: string }).public_key
        : '';
      const views = new ViewClient({
        chain,
        transactionView: services.transactionView,
        receiptView: services.receiptView,
        runtimeConfigView: services.runtimeConfigView,
        nodePublicKey: nodeKey,
        validatorPublicKey: signer ? `ed25519:${base58Encode(signer.publicKey.data)}` : null,
        validatorAccountId: signer?.accountId ?? null,
        rpcAddr: config.rpcAddr,
        version: VERSION,
        stateSizeLimit:
          config.trieViewerStateSizeLimit === null ? null : BigInt(config.trieViewerStateSizeLimit),
      });
      let node: NearliteNode | null = null;
      const backend = createRpcBackend(
        views,
        services.bind(chain, views, config),
        healthCheck(() => node?.lastBlockAt ?? Date.now(), config.blockTimeMs, chain.canProduce),
      );
      let lake: LakePublisher | null = null;
      if (o.lakeOut) {
        const sink = lakeSink(o.lakeOut);
        const log = o.logger;
        lake = await LakePublisher.start(chain, sink, {
          onError: (err, height) =>
            log.error(
              `lake: block ${height} not written to ${sink.name} (retried with the next block): ${
                err instanceof Error ? err.message : String(err)
              }`,
            ),
        });
        log.info(`publishing final blocks to ${sink.name} from height ${lake.nextHeight}`);
      }
      const metrics = new NodeMetrics(chain, store, services.viewGasBurnt);
      // Made once the node is up (a failed start has nothing to warm).
      let warmUp: WarmUp | null = null;
      const server = await startRpcServer({
        observe: (method, outcome, seconds) => {
          metrics.observe(method, outcome, seconds);
          warmUp?.answered();
        },
        metrics: () => metrics.text(),
        backend,
        blockStream: new NeardataService(chain),
        host,
        port,
        bodyLimit: config.jsonPayloadMaxSize,
        access: {
          apiKeys: config.apiKeys,
          ...(config.requestsPerSecond !== null ? { requestsPerSecond: config.requestsPerSecond } : {}),
          ...(config.concurrentViewCalls !== null ? { concurrentViewCalls: config.concurrentViewCalls } : {}),
          ...(config.viewGasPerSecond !== null
            ? { viewGasPerSecond: BigInt(Math.floor(config.viewGasPerSecond)) }
            : {}),
        },
        ...(o.logger.pino ? { loggerInstance: o.logger.pino } : {}),
        onInternalError: (err, where) => {
          if (o.logger.pino) o.logger.pino.error({ err, where }, `internal error in ${where}`);
          else
            o.logger.error(
              `internal error in ${where}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
            );
        },
      });
      node = new NearliteNode(
        chain,
        views,
        config,
        server.url,
        server.port,
        store,
        o.home,
        server.close,
        async () => {
          warmUp?.cancel();
          finalHeads.close();
          await services.close();
        },
        o.logger,
        metrics,
      );
      node.lake = lake;
      o.logger.info(
        `nearlite ${VERSION}: chain ${genesis.config.chainId}, head #${chain.head().height}, ` +
          `${config.archive ? 'archival' : 'gc'} store at ${p.data}, RPC on ${server.url}`,
      );
      if (chain.canProduce) node.scheduleBlocks();
      else o.logger.warn('read-only: no block production');
      warmUp = new WarmUp(() => services.warm());
      return node;
    } catch (err) {
      await store.close();
      throw err;
    }
  }

  private scheduleBlocks(): void {
    const tick = async () => {
      if (this.stopping) return;
      const started = Date.now();
      try {
        await this.chain.produceBlock();
        this.lastBlockAt = Date.now();
        this.metrics.blockProduced((this.lastBlockAt - started) / 1000);
        if (!this.config.archive) {
          // nearcore's gc_blocks_limit: a bounded amount of collection per block keeps RPC latency flat.
          const collected = await this.chain.exclusive(() =>
            gcStep(this.chain, { numEpochsToKeep: this.config.gcNumEpochsToKeep, blocksPerStep: 2 }),
          );
          this.collectedSinceCompaction += collected;
          this.metrics.gcCollected(collected);
          // LevelDB keeps deleted rows until compaction: give the space back once an epoch's worth is gone.
          if (this.collectedSinceCompaction >= this.chain.genesis.config.epochLength) {
            this.collectedSinceCompaction = 0;
            await this.store.compact();
          }
        }
      } catch (err) {
        this.log.error(`block production failed: ${(err as Error).stack ?? String(err)}`);
      }
      // Like nearcore's min_block_production_delay, the block time runs from the start of the last
      // block, so a busy block does not stretch the cadence by its own production time.
      const wait = Math.max(0, this.config.blockTimeMs - (Date.now() - started));
      if (!this.stopping) this.timer = setTimeout(tick, wait);
    };
    this.timer = setTimeout(tick, this.config.blockTimeMs);
  }

  /** Stops block production, finishes the block being written, closes RPC and the store. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    await this.chain.exclusive(async () => undefined);
    await this.lake?.stop();
    await this.closeServer();
    await this.closeServices();
    const head = this.chain.head();
    await this.store.flushLog();
    await this.store.close();
    writeCleanStop(this.home, homePaths(this.home).data, {
      height: head.height,
      hash: base58Encode(head.hash),
    });
  }
}
