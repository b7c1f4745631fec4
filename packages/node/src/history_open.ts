// Opens the history a follower writes or a front end reads, as the store config names it: the
// node's LevelDB (a follower only: one process owns it), or PostgreSQL databases any number of
// `nearlite serve` front ends read while one follower writes.
import type { Genesis, GenesisConfig } from '@nearlite/chain';
import {
  checkGenesisConfig,
  genesisConfigDigest,
  genesisMismatch,
  shardLayoutFromView,
} from '@nearlite/chain';
import {
  assertHistoryWhole,
  type HistoryReader,
  HistoryStore,
  type HistoryWriter,
  type PreparedWriter,
} from '@nearlite/follower';
import { PgHistory, redactUrl } from '@nearlite/history-pg';
import { bytesEqual } from '@nearlite/primitives';
import { type DbKind, ensureMetadata, Store } from '@nearlite/store';
import type { LeveldbSource } from './leveldb_metrics.js';
import type { HistoryStoreConfig } from './store_config.js';
import { checkStoreRole } from './store_role.js';

export interface OpenedHistory {
  readonly history: HistoryReader & HistoryWriter;
  /** Takes blocks prepared on worker threads (the LevelDB history does; PostgreSQL writes messages). */
  readonly prepared?: PreparedWriter;
  /** Where it is, for logs (no passwords). */
  readonly where: string;
  /** LevelDB's own figures and directory, for /metrics (the LevelDB history only). */
  readonly leveldb?: LeveldbSource;
  /**
   * Settles once a front end refuses the history its databases came to hold (another chain's, written
   * after it started): it then serves nothing of it, and exits.
   */
  readonly refused?: Promise<Error>;
  /**
   * Whether the history is archival, as recorded in it: a collecting history opened with `--archive`
   * stays a collecting one (LevelDB's `ensureMetadata`, PostgreSQL's `checkKind`).
   */
  readonly archival: () => Promise<boolean | undefined>;
  close(): Promise<void>;
}

export async function openLevelHistory(
  dataDir: string,
  o: {
    /** The node's home, for the repair command a damaged history's refusal names. */
    home: string;
    archive: boolean;
    convertDbKind: boolean;
    compression: boolean;
    genesis: { config: GenesisConfig; path: string };
    /** Where a warning of a disk running low goes. */
    warn: (msg: string) => void;
  },
): Promise<OpenedHistory> {
  const store = await Store.open(dataDir, { compression: o.compression, diskSpace: { warn: o.warn } });
  const history = new HistoryStore(store);
  let kind: DbKind;
  try {
    checkStoreRole(store, 'history', dataDir);
    ({ kind } = await ensureMetadata(store, o.archive ? 'archival' : 'gc', { convert: o.convertDbKind }));
    await checkGenesisConfig(store, o.genesis.config, o.genesis.path);
    await assertHistoryWhole(history, o.home);
  } catch (err) {
    await store.close();
    throw err;
  }
  return {
    history,
    prepared: history,
    where: dataDir,
    leveldb: { stats: () => store.leveldbStats(), dataDir },
    archival: async () => kind === 'archival',
    close: () => store.close(),
  };
}

export async function openPgHistory(
  cfg: Extract<HistoryStoreConfig, { kind: 'postgres' }>,
  genesis: Genesis,
  role: 'writer' | 'reader',
  o: { readonly genesisPath: string; readonly archive?: boolean; readonly convertDbKind?: boolean },
): Promise<OpenedHistory> {
  const digest = genesisConfigDigest(genesis.config);
  const history = await PgHistory.open({
    metaUrl: cfg.metaUrl,
    shardUrls: cfg.shardUrls,
    shardLayout: shardLayoutFromView(genesis.config.shardLayout),
    role,
    archive: o.archive ?? false,
    convertDbKind: o.convertDbKind ?? false,
    ...(cfg.poolSize !== undefined ? { poolSize: cfg.poolSize } : {}),
    checkGenesis: (kept) => {
      if (kept !== undefined && !bytesEqual(kept, digest)) throw genesisMismatch(o.genesisPath, digest, kept);
    },
  });
  // The genesis the history was made from, as for a LevelDB history (checkGenesisConfig): a writer
  // records it, and a writer or front end with another genesis.json is refused.
  try {
    const kept = await history.genesisDigest();
    if (kept === undefined) {
      if (role === 'writer') await history.recordGenesisDigest(digest);
    } else if (!bytesEqual(kept, digest)) throw genesisMismatch(o.genesisPath, digest, kept);
  } catch (err) {
    await history.close();
    throw err;
  }
  const shards = [...cfg.shardUrls].map(([id, url]) => `${id}=${redactUrl(url)}`).join(', ');
  return {
    history,
    where: `PostgreSQL (meta ${redactUrl(cfg.metaUrl)}; shards ${shards})`,
    refused: history.refused,
    archival: () => history.archival(),
    close: () => history.close(),
  };
}
