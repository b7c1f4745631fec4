// The read RPC over a history, shared by a follower (`run --follow`) and a front end (`serve`): the
// follower's backend, its metrics, and the same JSON-RPC server a producer runs. View calls run on
// the given worker pool, each state read a history lookup as the contract makes it (in the worker
// itself when the history is this process's LevelDB with flat rows).
import type { Genesis } from '@nearlite/chain';
import {
  FollowerBackend,
  type FollowLoop,
  type HistoryReader,
  HistoryStore,
  StakesNotKnown,
  UpstreamRpc,
} from '@nearlite/follower';
import { chargeViewGas, type RpcServer, startRpcServer } from '@nearlite/jsonrpc';
import { HandlerError } from '@nearlite/primitives';
import { clientConfigView, withExpectedShutdown } from './client_config.js';
import { type NodeConfig, parseHostPort } from './config.js';
import type { DynamicConfig } from './dyn_config.js';
import { internalErrorLog } from './error_log.js';
import { FollowerMetrics } from './follower_metrics.js';
import { HeadClock } from './head_clock.js';
import { nodePublicKey } from './key_files.js';
import { type LeveldbSource, registerLeveldbMetrics } from './leveldb_metrics.js';
import type { Logger } from './log.js';
import { noNewBlocks, staleAfterMs } from './rpc_backend.js';
import { rpcSettings } from './rpc_settings.js';
import type { Services } from './services.js';
import { checkUpstream } from './upstream_check.js';
import { BUILD_VERSION } from './version.js';
import { ValidatorsUnknown } from './view_errors.js';
import type { ViewCallPool } from './view_pool.js';

export interface HistoryRpcOptions {
  readonly history: HistoryReader;
  readonly genesis: Genesis;
  readonly services: Services;
  /** config.json's settings with the command line's RPC flags over them (`withRpcFlags`). */
  readonly fileConfig: NodeConfig;
  /** Whether the history keeps every block (a follower without GC), as `client_config` says. */
  readonly archive: boolean;
  /**
   * Whether the history's store is archival (`hot_db_kind`), asked at each call; a GC store taken
   * with `--archive` is not.
   */
  readonly archivalStore: () => Promise<boolean>;
  readonly nodeKeyPath: string;
  readonly upstreamRpc: string | undefined;
  readonly pool: ViewCallPool;
  /** The follow loop when this process writes the history; a front end has none. */
  readonly loop: FollowLoop | null;
  /** Whether the node is behind its source, for `status`. */
  readonly syncing: () => boolean;
  /** LevelDB's own figures for /metrics, when the history is in the node's LevelDB. */
  readonly leveldb?: LeveldbSource;
  readonly logger: Logger;
  /** log_config.json and `expected_shutdown`, read again on SIGHUP. */
  readonly dynamicConfig: DynamicConfig;
}

export async function startHistoryRpc(o: HistoryRpcOptions): Promise<RpcServer> {
  const { history, fileConfig } = o;
  // A follower's head moves with its loop; only a front end's is watched.
  const headClock = o.loop ? null : new HeadClock(history, (height) => o.dynamicConfig.headAt(height));
  const nodeKey = nodePublicKey(o.nodeKeyPath);
  const metrics = new FollowerMetrics(history, o.loop);
  if (o.leveldb) registerLeveldbMetrics(metrics.registry, o.leveldb);
  o.dynamicConfig.register(metrics.registry);
  // Whether the upstream answered its last call: an operator learns from the log when the calls
  // forwarded to it begin to fail and when they answer again (the start's check says how it began).
  let failing: boolean | null = null;
  const upstream = o.upstreamRpc
    ? new UpstreamRpc(o.upstreamRpc, undefined, (method, outcome, seconds) => {
        metrics.observeUpstream(method, outcome, seconds);
        const now = outcome === 'failed';
        if (failing === false && now)
          o.logger.warn(
            `--upstream-rpc ${upstream?.shown} did not answer ${method}: calls forwarded to it fail until it does`,
          );
        else if (failing === true && !now) o.logger.info(`--upstream-rpc ${upstream?.shown} answers again`);
        failing = now;
      })
    : null;
  if (upstream) await checkUpstream(upstream, o.genesis.config.chainId, o.logger);
  const clientConfig = clientConfigView({
    config: { ...fileConfig, archive: o.archive },
    genesis: o.genesis.config,
  });
  const backend = new FollowerBackend({
    history,
    genesis: o.genesis,
    runtimeConfigView: o.services.runtimeConfigView,
    version: BUILD_VERSION,
    rpcAddr: fileConfig.rpcAddr,
    nodePublicKey: nodeKey,
    upstream,
    runView: (prepared, read, height, given, validatorsKnown) => {
      const req = { ...prepared.input, validators: validatorsKnown ? [...prepared.input.validators] : null };
      // A LevelDB history with flat rows: the worker reads them itself, the main thread only the
      // keys changed after `height`.
      const path =
        history instanceof HistoryStore && history.hasFlatState() ? history.store.sharedPath() : null;
      // What the call burnt counts against its client's `view_gas_per_second`, as on a producer.
      const stateFrom = history.stateFrom();
      const call =
        path === null
          ? o.pool.callLazy(req, read, chargeViewGas)
          : o.pool.callHistory(
              req,
              {
                path,
                height,
                ...(given.length > 0 ? { given } : {}),
                ...(stateFrom !== null ? { stateFrom } : {}),
              },
              read,
              chargeViewGas,
            );
      return call.catch((err: unknown) => {
        throw err instanceof ValidatorsUnknown ? new StakesNotKnown(height) : err;
      });
    },
    syncing: o.syncing,
    health: () => {
      const cursor = history.cursor();
      if (cursor === null) throw new HandlerError('NODE_IS_SYNCING', undefined, 'Node is syncing');
      if (headClock) {
        const elapsed = headClock.idleMs();
        if (elapsed > staleAfterMs(fileConfig.maxBlockProductionDelayMs)) throw noNewBlocks(elapsed);
      }
      // A follow loop that stopped on its own leaves the history where it was: a supervisor or a
      // load balancer learns it here (the command line also exits).
      if (o.loop?.failed) throw noNewBlocks(Date.now() - o.loop.lastWrite);
      // nearcore calls a node whose head is older than its staleness bound unhealthy. A follower's
      // head is as old as its source's (an archive of a stopped chain is never "new"), so here it is
      // the source that went quiet: no call to it has answered for that long.
      if (o.loop && o.loop.sourceFailingMs > staleAfterMs(fileConfig.maxBlockProductionDelayMs))
        throw noNewBlocks(Date.now() - o.loop.lastWrite);
      // As nearcore's health check: a node catching up answers with history the network has left
      // behind, so a load balancer should send its clients elsewhere until it is back at the tip.
      if (o.syncing()) throw new HandlerError('NODE_IS_SYNCING', undefined, 'Node is syncing');
    },
    stateSizeLimit:
      fileConfig.trieViewerStateSizeLimit === null ? null : BigInt(fileConfig.trieViewerStateSizeLimit),
    archivalStore: o.archivalStore,
    clientConfig: () => withExpectedShutdown(clientConfig, o.dynamicConfig.expectedShutdown),
    pollingTimeoutMs: fileConfig.pollingTimeoutMs,
  });
  const { host, port } = parseHostPort(fileConfig.rpcAddr);
  const server = await startRpcServer({
    backend,
    host,
    port,
    ...rpcSettings(fileConfig, (m) => o.logger.warn(m), o.leveldb !== undefined),
    observe: (method, outcome, seconds) => metrics.observe(method, outcome, seconds),
    metrics: () => metrics.text(),
    ...(o.logger.pino ? { loggerInstance: o.logger.pino } : {}),
    onInternalError: internalErrorLog(o.logger),
  });
  if (server.metricsUrl) o.logger.info(`Prometheus metrics on ${server.metricsUrl}`);
  return {
    ...server,
    // Closed once following has stopped: no block will answer the clients still waiting.
    close: () => {
      headClock?.stop();
      backend.endWaits();
      return server.close();
    },
  };
}
