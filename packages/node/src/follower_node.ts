// The composition root of a follower (`nearlite run --follow SOURCE`): the node's LevelDB as a
// history store, the genesis state as history, the follow loop over the source, and the same
// JSON-RPC server as a producer's, over the follower's backend. View calls run on the node's
// worker pool, fed from state prefetched out of history.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { loadValidGenesis } from '@nearlite/chain';
import {
  FollowLoop,
  genesisAnchor,
  type HistoryReader,
  HistoryStore,
  type HistoryWriter,
  loadGenesisHistory,
  PreparePool,
} from '@nearlite/follower';
import { urlForDisplay } from '@nearlite/primitives';
import { type BlockSource, pause, StreamErrorCode, StreamSourceError } from '@nearlite/stream';
import { STORAGE_USAGE_CONFIG } from './applier.js';
import { DynamicConfig } from './dyn_config.js';
import { followerStats } from './follower_stats.js';
import { type OpenedHistory, openLevelHistory, openPgHistory } from './history_open.js';
import { startHistoryRpc } from './history_rpc.js';
import { genesisRecordsPath, homeConfig, homeFiles } from './home.js';
import type { Logger } from './log.js';
import { NodeError } from './node.js';
import { type RpcFlags, withRpcFlags } from './rpc_flags.js';
import { createServices } from './services.js';
import type { StatsLog } from './stats_log.js';
import { effectiveStore, type HistoryStoreConfig } from './store_config.js';
import { VERSION } from './version.js';
import { ViewCallPool } from './view_pool.js';

export interface FollowOptions extends RpcFlags {
  readonly home: string;
  readonly source: BlockSource;
  readonly upstreamRpc?: string;
  readonly archive?: boolean;
  readonly convertDbKind?: boolean;
  readonly logger: Logger;
  /** Heights fetched ahead of the cursor (8 by default). */
  readonly concurrency?: number;
  readonly pollMs?: number;
  /** Where the history goes; config.json's `store` (LevelDB by default) when absent. */
  readonly store?: HistoryStoreConfig;
  /** Most blocks committed at once while catching up (32 by default). */
  readonly batchSize?: number;
  /**
   * Threads that fetch and prepare blocks for a LevelDB history (by default one per core but one, at
   * least 2 and at most 8; 0: none).
   */
  readonly prepareThreads?: number;
}

/**
 * A catch-up is bound by preparing blocks (reading, parsing, checking and encoding their JSON), which
 * spreads over threads; the loop's own thread and LevelDB's take the core left over.
 */
export function defaultPrepareThreads(cores = availableParallelism()): number {
  return Math.min(8, Math.max(2, cores - 1));
}

export class FollowerNode {
  private constructor(
    readonly url: string,
    readonly port: number,
    readonly history: HistoryReader & HistoryWriter,
    readonly loop: FollowLoop,
    private readonly close: () => Promise<void>,
    private readonly dynamicConfig: DynamicConfig,
  ) {}

  static async start(o: FollowOptions): Promise<FollowerNode> {
    const fileConfig = withRpcFlags(
      homeConfig(o.home, (m) => o.logger.warn(m)),
      o,
    );
    const p = homeFiles(o.home, fileConfig);
    if (!existsSync(p.genesis))
      throw new NodeError(
        `no ${fileConfig.genesisFile} in ${o.home}; run \`nearlite init --home ${o.home} --genesis FILE\` first`,
      );
    const dynamicConfig = DynamicConfig.open(o.home, o.logger, fileConfig.expectedShutdown);
    const archive = o.archive ?? fileConfig.archive;
    const genesis = loadValidGenesis(p.genesis, genesisRecordsPath(o.home, fileConfig) ?? undefined);
    const services = createServices();
    const storeConfig = effectiveStore(o.store, fileConfig.store);
    const opened: OpenedHistory =
      storeConfig.kind === 'postgres'
        ? await openPgHistory(storeConfig, genesis, 'writer', {
            genesisPath: p.genesis,
            archive,
            convertDbKind: o.convertDbKind ?? false,
          })
        : await openLevelHistory(p.data, {
            home: o.home,
            archive,
            convertDbKind: o.convertDbKind ?? false,
            compression: storeConfig.compression,
            genesis: { config: genesis.config, path: p.genesis },
            warn: (m) => o.logger.warn(m),
          });
    const pool = new ViewCallPool(2, null, fileConfig.maxGasBurntView);
    // Ends a wait for the source's first block when the node stops.
    const firstAbort = new AbortController();
    // Parsing, checking and encoding blocks take most of a catch-up: worker threads do them, each
    // with its own copy of the source, when the source says how to open it again.
    const prepareThreads = o.prepareThreads ?? defaultPrepareThreads();
    const preparePool =
      opened.prepared && o.source.reopen && prepareThreads > 0
        ? new PreparePool(o.source.reopen, prepareThreads, undefined, o.source.onRetry)
        : null;
    try {
      const history = opened.history;
      // As a producer's store (node.ts): a GC store opened with --archive collects nothing from then
      // on and stays a GC store.
      const archivalStore = (await opened.archival()) ?? archive;
      if (archive && !archivalStore)
        o.logger.info(
          'archive on a garbage-collected store: every block from here on is kept (--convert-db-kind makes the store archival)',
        );
      if (await loadGenesisHistory(history, genesis, STORAGE_USAGE_CONFIG)) {
        o.logger.info(
          `genesis state of ${genesis.config.chainId} written as history at #${genesis.config.genesisHeight}`,
        );
      }
      if (history instanceof HistoryStore) {
        const keys = await history.buildFlatState();
        if (keys > 0) o.logger.info(`flat state rows of ${keys} keys written from the state history`);
      }
      const from = archive ? await history.markStateFrom() : null;
      if (from !== null)
        o.logger.info(`the history began after the genesis: its state is held from #${from} on`);
      const cursor = history.cursor();
      // On a new home the loop asks the source where its history begins, with the RPC up: a source
      // that is down at the start is waited for there, and `health` says the node is syncing.
      let stats: StatsLog | null = null;
      const loop = new FollowLoop({
        history,
        source: o.source,
        startHeight: genesis.config.genesisHeight,
        ...(cursor ? {} : { firstHeight: () => firstHeightOf(o.source, o.logger, firstAbort.signal) }),
        genesis: genesisAnchor(genesis.config),
        log: o.logger,
        // Like a producer's GC: gc_num_epochs_to_keep epochs of blocks below the head.
        gc: archive ? null : { keepBlocks: fileConfig.gcNumEpochsToKeep * genesis.config.epochLength },
        ...(o.concurrency !== undefined ? { concurrency: o.concurrency } : {}),
        ...(o.pollMs !== undefined ? { pollMs: o.pollMs } : {}),
        // Catching up, 32 blocks per batch: one LevelDB write (or PostgreSQL transaction) carries
        // them all, each block with its cursor row, so a SIGKILL still leaves whole blocks.
        batchSize: o.batchSize ?? 32,
        ...(preparePool && opened.prepared
          ? { prepared: { pool: preparePool, writer: opened.prepared } }
          : {}),
        // config.json's expected_shutdown: nothing above it is followed, and the node stops there.
        stopAt: () => dynamicConfig.expectedShutdown,
        onBlock: (height, gasUsed) => {
          stats?.blockProcessed(gasUsed);
          dynamicConfig.headAt(height);
        },
        onStopReached: (height) => dynamicConfig.headAt(height),
      });
      const server = await startHistoryRpc({
        history,
        genesis,
        services,
        fileConfig,
        archive,
        // Only this process converts its history, at its start.
        archivalStore: async () => archivalStore,
        nodeKeyPath: p.nodeKey,
        upstreamRpc: o.upstreamRpc,
        pool,
        loop,
        syncing: () => loop.syncing,
        ...(opened.leveldb ? { leveldb: opened.leveldb } : {}),
        logger: o.logger,
        dynamicConfig,
      });
      if (cursor) dynamicConfig.headAt(cursor.height);
      stats = followerStats(history, loop, fileConfig.logSummaryPeriodMs, o.logger);
      loop.start();
      o.logger.info(
        `nearlite ${VERSION}: following ${o.source.name} (chain ${genesis.config.chainId}) from ` +
          `${cursor ? `#${cursor.height + 1}` : 'its first block'}, store at ${opened.where}` +
          (o.upstreamRpc ? `, writes forwarded to ${urlForDisplay(o.upstreamRpc)}` : '') +
          (preparePool ? `, blocks prepared on ${prepareThreads} threads` : '') +
          `, RPC on ${server.url}`,
      );
      return new FollowerNode(
        server.url,
        server.port,
        history,
        loop,
        async () => {
          stats?.stop();
          await loop.stop();
          firstAbort.abort();
          await preparePool?.close();
          await server.close();
          await pool.close();
          await services.close();
          await o.source.close();
          await opened.close();
        },
        dynamicConfig,
      );
    } catch (err) {
      await preparePool?.close();
      await pool.close();
      await opened.close();
      throw err;
    }
  }

  /** Settles when following stops on its own (the history can be written no more); stop() first. */
  failed(): Promise<Error> {
    return this.loop.whenFailed();
  }

  async stop(): Promise<void> {
    await this.close();
  }

  /** Reads log_config.json and config.json's `expected_shutdown` again (SIGHUP). */
  reloadConfig(): void {
    this.dynamicConfig.reload();
  }

  /** Settles, with what to log, once every height up to config.json's `expected_shutdown` is followed. */
  expectedShutdown(): Promise<string> {
    return this.dynamicConfig.shutdown;
  }
}

/** What a wait for the source's first block ends with when the node stops (nobody awaits it then). */
class FirstHeightAbandoned extends Error {
  override readonly name = 'FirstHeightAbandoned';
}

/**
 * The source's first height, for a follower with nothing followed yet: a source that is down is
 * waited for, as the follow loop waits for one that goes down later, rather than ending the node (a
 * supervisor would restart it in a loop). Any other failure (a bucket that does not exist) ends it.
 */
async function firstHeightOf(
  source: BlockSource,
  logger: Logger,
  signal: AbortSignal,
): Promise<number | null> {
  for (let wait = 1000; ; wait = Math.min(wait * 2, 30_000)) {
    try {
      return await source.firstHeight();
    } catch (err) {
      if (signal.aborted) throw new FirstHeightAbandoned((err as Error).message);
      if (!(err instanceof StreamSourceError) || err.code !== StreamErrorCode.UNAVAILABLE) throw err;
      logger.warn(`${err.message}; asking ${source.name} for its first block again in ${wait / 1000} s`);
      await pause(wait, signal);
      if (signal.aborted) throw new FirstHeightAbandoned(err.message);
    }
  }
}
