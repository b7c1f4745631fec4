// A stateless RPC front end (`nearlite serve --store postgres://… --shard-db …`): it produces
// nothing and follows nothing. It reads the history one follower writes into PostgreSQL, serves
// every height up to the writer's cursor (re-read as the writer moves it), forwards write methods to
// `--upstream-rpc`, and can be started as many times as read load needs.
import { existsSync } from 'node:fs';
import { loadValidGenesis } from '@nearlite/chain';
import type { HistoryReader } from '@nearlite/follower';
import { urlForDisplay } from '@nearlite/primitives';
import { DynamicConfig } from './dyn_config.js';
import { openPgHistory } from './history_open.js';
import { startHistoryRpc } from './history_rpc.js';
import { homeConfig, homeFiles } from './home.js';
import type { Logger } from './log.js';
import { NodeError } from './node.js';
import { type RpcFlags, withRpcFlags } from './rpc_flags.js';
import { createServices } from './services.js';
import { effectiveStore, type HistoryStoreConfig } from './store_config.js';
import { VERSION } from './version.js';
import { ViewCallPool } from './view_pool.js';

export interface ServeOptions extends RpcFlags {
  /** A home with the chain's genesis.json and node_key.json (and optionally config.json); nothing is written there. */
  readonly home: string;
  readonly store?: HistoryStoreConfig;
  readonly upstreamRpc?: string;
  readonly logger: Logger;
}

export class ServeNode {
  private constructor(
    readonly url: string,
    readonly port: number,
    readonly history: HistoryReader,
    private readonly close: () => Promise<void>,
    private readonly refused: Promise<Error> | undefined,
    private readonly dynamicConfig: DynamicConfig,
  ) {}

  static async start(o: ServeOptions): Promise<ServeNode> {
    const fileConfig = withRpcFlags(
      homeConfig(o.home, (m) => o.logger.warn(m)),
      o,
    );
    const p = homeFiles(o.home, fileConfig);
    if (!existsSync(p.genesis))
      throw new NodeError(
        `no ${fileConfig.genesisFile} in ${o.home}: a front end needs the chain's genesis to serve it`,
      );
    const store = effectiveStore(o.store, fileConfig.store);
    if (store.kind !== 'postgres')
      throw new NodeError(
        'serve reads a PostgreSQL history: give --store postgres://META-URL and --shard-db ID=URL for each shard (or store in config.json)',
      );
    const genesis = loadValidGenesis(p.genesis);
    // A front end's head is its writer's cursor: it stops once that reaches `expected_shutdown`.
    const dynamicConfig = DynamicConfig.open(o.home, o.logger, fileConfig.expectedShutdown);
    const services = createServices();
    const opened = await openPgHistory(store, genesis, 'reader', { genesisPath: p.genesis });
    const history = opened.history;
    const pool = new ViewCallPool(2, null, fileConfig.maxGasBurntView);
    try {
      // The history's kind, as its writer recorded it: a front end keeps nothing of its own. Asked
      // again at each `hot_db_kind`: the writer may convert the history while this front end runs.
      const kind = async () => (await opened.archival()) ?? fileConfig.archive;
      const archival = await kind();
      const server = await startHistoryRpc({
        history,
        genesis,
        services,
        fileConfig,
        archive: archival,
        archivalStore: kind,
        nodeKeyPath: p.nodeKey,
        upstreamRpc: o.upstreamRpc,
        pool,
        loop: null,
        // Whether the writer is behind its source is the writer's to say; a front end is as far
        // as the cursor.
        syncing: () => history.cursor() === null,
        logger: o.logger,
        dynamicConfig,
      });
      const cursor = history.cursor();
      o.logger.info(
        `nearlite ${VERSION}: serving ${genesis.config.chainId} from ${opened.where} up to ` +
          `${cursor ? `#${cursor.height}` : 'the first block the writer commits'}` +
          (o.upstreamRpc ? `, writes forwarded to ${urlForDisplay(o.upstreamRpc)}` : '') +
          `, RPC on ${server.url}`,
      );
      return new ServeNode(
        server.url,
        server.port,
        history,
        async () => {
          await server.close();
          await pool.close();
          await services.close();
          await opened.close();
        },
        opened.refused,
        dynamicConfig,
      );
    } catch (err) {
      await pool.close();
      await services.close();
      await opened.close();
      throw err;
    }
  }

  async stop(): Promise<void> {
    await this.close();
  }

  /** Reads log_config.json and config.json's `expected_shutdown` again (SIGHUP). */
  reloadConfig(): void {
    this.dynamicConfig.reload();
  }

  /** Settles, with what to log, once the writer's cursor reaches config.json's `expected_shutdown`. */
  expectedShutdown(): Promise<string> {
    return this.dynamicConfig.shutdown;
  }

  /** Settles once the databases came to hold another chain's history: the front end then exits. */
  failed(): Promise<Error> {
    return this.refused ?? new Promise<never>(() => {});
  }
}
