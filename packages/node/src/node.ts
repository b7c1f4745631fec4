// The composition root: store, genesis, the chain (on a thread of its own when this node produces
// blocks), view client and RPC server.
import { existsSync } from 'node:fs';
import {
  assertChainWhole,
  assertNoStoppedRepair,
  Chain,
  type ChainHandle,
  ChainStore,
  checkGenesisConfig,
  type Genesis,
  KeyFileError,
  loadValidGenesis,
  NOOP_CHUNK_APPLIER,
  type Signer,
  shardLayoutFromView,
  signerFromKeyFile,
  ViewClient,
} from '@nearlite/chain';
import { startRpcServer } from '@nearlite/jsonrpc';
import { base58Encode, publicKeyEquals } from '@nearlite/primitives';
import { ensureMetadata, recordDbVersion, Store } from '@nearlite/store';
import { LakePublisher, NeardataService } from '@nearlite/stream';
import { STORAGE_USAGE_CONFIG } from './applier.js';
import type { ChainWorkerData } from './chain_messages.js';
import { RPC_STORE_OPTIONS } from './chain_store_options.js';
import { bootChainThread, ChainThread } from './chain_thread.js';
import { takeCleanStop, writeCleanStop } from './clean_stop.js';
import { maxBlockProductionDelayMs, type NodeConfig, parseHostPort, savesTrieChanges } from './config.js';
import { DynamicConfig } from './dyn_config.js';
import {
  adoptHomeFinalHead,
  checkFinalHead,
  FinalHeadWriter,
  forgetFinalHeadOfRemovedStore,
} from './final_head.js';
import { genesisRecordsPath, homeConfig, homeFiles } from './home.js';
import { nodePublicKey, readKeyFile } from './key_files.js';
import { type LakeTarget, lakeSink } from './lake.js';
import { registerLeveldbMetrics } from './leveldb_metrics.js';
import type { Logger } from './log.js';
import { NodeMetrics } from './metrics.js';
import { producerStats } from './producer_stats.js';
import { createRpcBackend, healthCheck } from './rpc_backend.js';
import { type RpcFlags, withRpcFlags } from './rpc_flags.js';
import { rpcSettings } from './rpc_settings.js';
import { createServices } from './services.js';
import type { StatsLog } from './stats_log.js';
import { chainStoreCompression } from './store_config.js';
import { checkStoreRole } from './store_role.js';
import { BUILD_VERSION, VERSION } from './version.js';
import { WarmUp } from './warm_up.js';

export interface RunOptions extends RpcFlags {
  readonly home: string;
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

/** The validator key, if it is a genesis validator's: with it the node produces blocks. */
function loadSigner(
  path: string,
  genesisValidators: Genesis['config']['validators'],
  log: Logger,
): { readonly signer: Signer; readonly keyFile: Record<string, string> } | null {
  if (!existsSync(path)) {
    log.warn(`no ${path}: serving the chain read-only`);
    return null;
  }
  const keyFile = readKeyFile(path);
  let signer: Signer;
  try {
    signer = signerFromKeyFile(keyFile);
  } catch (err) {
    throw new KeyFileError(`${path}: ${(err as Error).message}`);
  }
  const match = genesisValidators.find(
    (v) => v.accountId === signer.accountId && publicKeyEquals(v.publicKey, signer.publicKey),
  );
  if (!match) {
    const named = genesisValidators.some((v) => v.accountId === signer.accountId);
    const what = named
      ? `does not hold genesis validator ${signer.accountId}'s public key`
      : `names ${signer.accountId}, which is not a genesis validator`;
    log.warn(
      `the validator key ${what}: this node holds no block producer key, ` +
        'so it serves the chain read-only (queries answer on the blocks it has)',
    );
    return null;
  }
  return { signer, keyFile };
}

export class NearliteNode {
  private stopping = false;
  /** When the last block was announced (health's NO_NEW_BLOCKS). */
  lastBlockAt = Date.now();
  private lake: LakePublisher | null = null;

  private constructor(
    readonly chain: ChainHandle,
    readonly views: ViewClient,
    readonly config: NodeConfig,
    readonly url: string,
    readonly port: number,
    private readonly store: Store,
    private readonly home: string,
    private readonly closeServer: () => Promise<void>,
    private readonly closeServices: () => Promise<void>,
    private readonly chainThread: ChainThread | null,
    private readonly logger: Logger,
    private readonly dynamicConfig: DynamicConfig,
  ) {}

  static async start(o: RunOptions): Promise<NearliteNode> {
    const fileConfig = homeConfig(o.home, (m) => o.logger.warn(m));
    const p = homeFiles(o.home, fileConfig);
    if (!existsSync(p.genesis))
      throw new NodeError(
        `no ${fileConfig.genesisFile} in ${o.home}; run \`nearlite init --home ${o.home}\` first`,
      );
    const dynamicConfig = DynamicConfig.open(o.home, o.logger, fileConfig.expectedShutdown);
    const config: NodeConfig = {
      ...withRpcFlags(fileConfig, o),
      blockTimeMs: o.blockTimeMs ?? fileConfig.blockTimeMs,
      archive: o.archive ?? fileConfig.archive,
      sandbox: o.sandbox ?? fileConfig.sandbox,
    };
    // Read before anything is opened: a home whose config asks for another store is refused whole.
    const compression = chainStoreCompression(config.store, p.config);
    const { data } = p;
    const recordsPath = genesisRecordsPath(o.home, config);
    const genesis = loadValidGenesis(p.genesis, recordsPath ?? undefined);
    const validator = loadSigner(p.validatorKey, genesis.config.validators, o.logger);
    const chainData: ChainWorkerData | null = validator
      ? {
          dataPath: data,
          compression,
          genesisPath: p.genesis,
          genesisRecordsPath: recordsPath,
          validatorKey: validator.keyFile,
          blockTimeMs: config.blockTimeMs,
          archive: config.archive,
          saveTrieChanges: savesTrieChanges(config),
          gcNumEpochsToKeep: config.gcNumEpochsToKeep,
          sandboxHostFunctions: config.sandbox,
          // Whenever the logger can show them: a filter reloaded later may.
          sandboxDebugLog: config.sandbox && o.logger.sandboxDebug !== undefined,
        }
      : null;
    // The chain thread boots beside the checks below; it opens the store only once they pass.
    const booted = chainData ? bootChainThread(chainData) : null;
    let cleanStop: ReturnType<typeof takeCleanStop>;
    let store: Store;
    // A start refused here (a home it cannot write, a store it cannot open) stops the booting
    // thread too, which would otherwise keep the process alive.
    try {
      const forgotten = forgetFinalHeadOfRemovedStore(o.home, data);
      if (forgotten)
        o.logger.warn(
          `no database in ${data}: a new chain starts from genesis, and final block #${forgotten.height} ` +
            `(${forgotten.hash}) of the store that was there is forgotten`,
        );
      // Taken before the open, which rewrites LevelDB's files.
      cleanStop = takeCleanStop(o.home, data);
      store = await Store.open(data, { ...RPC_STORE_OPTIONS, compression });
    } catch (err) {
      await booted?.terminate();
      throw err;
    }
    let chainThread: ChainThread | null = null;
    try {
      checkStoreRole(store, 'chain', data);
      const { kind: storeKind } = await ensureMetadata(store, config.archive ? 'archival' : 'gc', {
        convert: o.convertDbKind ?? false,
      });
      if (config.archive && storeKind === 'gc')
        o.logger.info(
          'archive on a garbage-collected store: every block from here on is kept (--convert-db-kind makes the store archival)',
        );
      await checkGenesisConfig(store, genesis.config, p.genesis);
      // Before extending anything: the store must still hold what this node announced as final, and
      // every recent height beneath its head must be whole.
      assertNoStoppedRepair(store, o.home);
      const existing = new ChainStore(store);
      const existingHead = existing.head();
      adoptHomeFinalHead(o.home, data, existingHead ? existing : null);
      checkFinalHead(o.home, data, existingHead, existingHead ? existing : null);
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
      await recordDbVersion(store);
      const services = createServices(
        config.sandbox ? { log: o.logger.sandboxDebug ?? null } : null,
        config.maxGasBurntView,
      );
      chainThread =
        chainData && booted
          ? await ChainThread.open({ store, genesis, data: chainData, log: o.logger, booted })
          : null;
      // Without a validator key nothing produces blocks: the chain is read where it stands.
      const chain: ChainHandle =
        chainThread ??
        (await Chain.open({
          store,
          genesis,
          signer: null,
          applier: NOOP_CHUNK_APPLIER,
          storageUsageConfig: STORAGE_USAGE_CONFIG,
        }));
      const finalHeads = new FinalHeadWriter(o.home, data);
      let node: NearliteNode | null = null;
      // Made once the RPC is up, with the node (a failed start logs no status).
      let stats: StatsLog | null = null;
      chain.events.on('block', ({ header, gasUsed }) => {
        if (node) node.lastBlockAt = Date.now();
        dynamicConfig.headAt(header.lite.height);
        stats?.blockProcessed(gasUsed);
        const final = chain.chainStore.blockHeader(header.rest.lastFinalBlock);
        if (final) finalHeads.write(final.lite.height, final.hash);
      });
      const { host, port } = parseHostPort(config.rpcAddr);
      const nodeKey = nodePublicKey(p.nodeKey);
      const views = new ViewClient({
        chain,
        transactionView: services.transactionView,
        receiptView: services.receiptView,
        runtimeConfigView: services.runtimeConfigView,
        nodePublicKey: nodeKey,
        validatorPublicKey: validator ? `ed25519:${base58Encode(validator.signer.publicKey.data)}` : null,
        validatorAccountId: validator?.signer.accountId ?? null,
        rpcAddr: config.rpcAddr,
        version: BUILD_VERSION,
        stateSizeLimit:
          config.trieViewerStateSizeLimit === null ? null : BigInt(config.trieViewerStateSizeLimit),
        ...(config.archive ? {} : { gcNumEpochsToKeep: config.gcNumEpochsToKeep }),
      });
      const backend = createRpcBackend(
        views,
        services.bind(chain, views, config, storeKind, () => dynamicConfig.expectedShutdown),
        healthCheck(
          chain.canProduce
            ? () => node?.lastBlockAt ?? Date.now()
            : () => Number(chain.headHeader().lite.timestamp / 1_000_000n),
          maxBlockProductionDelayMs(config),
        ),
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
      const metrics = new NodeMetrics(
        chain,
        () => chainThread?.storeStats() ?? store.stats,
        services.viewGasBurnt,
        chainThread
          ? () => ({
              heap: chainThread!.heap,
              cpuSeconds: chainThread!.cpuSeconds,
              eventLoopActiveSeconds: chainThread!.eventLoopActiveSeconds,
            })
          : null,
        config.archive ? null : config.gcNumEpochsToKeep,
      );
      // The chain thread's database is this handle's: LevelDB shares one between the threads.
      registerLeveldbMetrics(metrics.registry, { stats: () => store.leveldbStats(), dataDir: data });
      dynamicConfig.register(metrics.registry);
      // Made once the node is up (a failed start has nothing to warm).
      let warmUp: WarmUp | null = null;
      const server = await startRpcServer({
        observe: (method, outcome, seconds) => {
          metrics.observe(method, outcome, seconds);
          warmUp?.answered();
        },
        metrics: () => metrics.text(),
        backend,
        blockStream: new NeardataService(chain, { archive: config.archive }),
        host,
        port,
        ...rpcSettings(config, (m) => o.logger.warn(m), true),
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
          stats?.stop();
          warmUp?.cancel();
          finalHeads.close();
          await services.close();
        },
        chainThread,
        o.logger,
        dynamicConfig,
      );
      node.lake = lake;
      stats = producerStats(chain, config.logSummaryPeriodMs, o.logger);
      o.logger.info(
        `nearlite ${VERSION}: chain ${genesis.config.chainId}, head #${chain.head().height}, ` +
          `${config.archive ? 'archival' : 'gc'} store at ${data}, RPC on ${server.url}`,
      );
      if (server.metricsUrl) o.logger.info(`Prometheus metrics on ${server.metricsUrl}`);
      if (chainThread) {
        dynamicConfig.watchExpectedShutdown((height) => chainThread!.produceUpTo(height));
        chainThread.run({
          onProduced: (seconds) => metrics.blockProduced(seconds),
          onCollected: (blocks) => metrics.gcCollected(blocks),
        });
      } else o.logger.warn('read-only: no block production');
      dynamicConfig.headAt(chain.head().height);
      warmUp = new WarmUp(() => services.warm());
      return node;
    } catch (err) {
      if (chainThread) await chainThread.stop();
      else await booted?.terminate();
      await store.close();
      throw err;
    }
  }

  /** Reads log_config.json and config.json's `expected_shutdown` again (SIGHUP). */
  reloadConfig(): void {
    this.dynamicConfig.reload();
  }

  /** Settles, with what to log, once the head reaches config.json's `expected_shutdown`. */
  expectedShutdown(): Promise<string> {
    return this.dynamicConfig.shutdown;
  }

  /** Stops block production, finishes the block being written, closes RPC and the store. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    await this.chainThread?.stop();
    this.chain.events.emit('stopped');
    await this.lake?.stop();
    await this.closeServer();
    await this.closeServices();
    const head = this.chain.head();
    await this.store.flushLog();
    await this.store.close();
    const unwritten = writeCleanStop(this.home, homeFiles(this.home, this.config).data, {
      height: head.height,
      hash: base58Encode(head.hash),
    });
    // The store is closed whole either way; without the record the next start checks every kept height.
    if (unwritten)
      this.logger.warn(
        `the clean-stop record could not be written (${unwritten.message}): the next start checks the store`,
      );
  }
}
