// Where a follower keeps its history: the node's LevelDB (the default), or PostgreSQL — a meta
// database and one database per shard — from config.json's `store` or the command line
// (`--store postgres://… --shard-db 0=postgres://…`; flags win over the file).
import { ConfigError } from './config.js';

export type HistoryStoreConfig =
  /** `compression`: snappy on the history's LevelDB tables (`StoreOptions.compression`); off by default. */
  | { readonly kind: 'leveldb'; readonly compression: boolean }
  | {
      readonly kind: 'postgres';
      readonly metaUrl: string;
      readonly shardUrls: ReadonlyMap<number, string>;
      /** Connections each process keeps to each database (`store.pool_size`; 8 by default). */
      readonly poolSize?: number;
    };

export const LEVELDB_STORE: HistoryStoreConfig = { kind: 'leveldb', compression: false };

function postgresUrl(v: unknown, what: string): string {
  if (typeof v !== 'string' || !/^postgres(ql)?:\/\//.test(v))
    throw new ConfigError(`${what} must be a postgres:// URL`);
  return v;
}

function shardId(text: string, what: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n))
    throw new ConfigError(`${what}: '${text}' is not a shard id`);
  return n;
}

/**
 * config.json's `store`: absent or `{kind: 'leveldb', compression?: boolean}`, or
 * `{kind: 'postgres', meta_url, shard_urls, pool_size?}`. Without a `kind` it is nearcore's own `store` section
 * (its RocksDB's `path`, `max_open_files`, cache sizes…, which tools such as near-sandbox's library
 * write into config.json): the node's LevelDB, whose directory `path` names (`storePathFromJson`),
 * the other settings having nothing to tune here.
 */
export function storeFromJson(raw: unknown, path: string): HistoryStoreConfig {
  if (raw === undefined || raw === null) return LEVELDB_STORE;
  const o = raw as Record<string, unknown>;
  if (typeof o !== 'object' || Array.isArray(o)) throw new ConfigError(`${path}: store must be an object`);
  // PostgreSQL settings without their kind are a mistake, not nearcore's section.
  if (o.kind === undefined && (o.meta_url !== undefined || o.shard_urls !== undefined))
    throw new ConfigError(`${path}: store.meta_url and store.shard_urls need store.kind 'postgres'`);
  if (o.kind === 'leveldb' || o.kind === undefined) {
    if (o.compression === undefined) return LEVELDB_STORE;
    if (typeof o.compression !== 'boolean')
      throw new ConfigError(`${path}: store.compression must be true or false`);
    return { kind: 'leveldb', compression: o.compression };
  }
  if (o.kind !== 'postgres') throw new ConfigError(`${path}: store.kind must be 'leveldb' or 'postgres'`);
  const metaUrl = postgresUrl(o.meta_url, `${path}: store.meta_url`);
  const urls = o.shard_urls;
  if (typeof urls !== 'object' || urls === null || Array.isArray(urls))
    throw new ConfigError(`${path}: store.shard_urls must be an object of shard id → postgres:// URL`);
  const shardUrls = new Map<number, string>();
  for (const [k, v] of Object.entries(urls))
    shardUrls.set(shardId(k, `${path}: store.shard_urls`), postgresUrl(v, `${path}: store.shard_urls.${k}`));
  if (o.pool_size === undefined) return { kind: 'postgres', metaUrl, shardUrls };
  const poolSize = o.pool_size;
  // A writer holds one of its meta pool's connections for its lock, and needs another to write.
  if (typeof poolSize !== 'number' || !Number.isInteger(poolSize) || poolSize < 2 || poolSize > 1000)
    throw new ConfigError(
      `${path}: store.pool_size must be a whole number of connections from 2 to 1000 (a writer keeps one for its lock)`,
    );
  return { kind: 'postgres', metaUrl, shardUrls, poolSize };
}

/**
 * The store a command runs on: the flags' where given, with config.json's `store.pool_size` (the
 * flags name the databases, not how many connections each process keeps to them).
 */
export function effectiveStore(
  flags: HistoryStoreConfig | undefined,
  file: HistoryStoreConfig,
): HistoryStoreConfig {
  if (!flags) return file;
  if (flags.kind === 'postgres' && file.kind === 'postgres' && file.poolSize !== undefined)
    return { ...flags, poolSize: file.poolSize };
  return flags;
}

/**
 * nearcore's `store.path` (with or without a `kind`): the LevelDB's directory, relative to the home
 * or absolute; null when not given. A PostgreSQL store has no directory to name.
 */
export function storePathFromJson(raw: unknown, path: string): string | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const o = raw as Record<string, unknown>;
  if (o.path === undefined || o.path === null) return null;
  if (typeof o.path !== 'string' || o.path.length === 0 || o.path.includes('\0'))
    throw new ConfigError(`${path}: store.path must be a directory, relative to the home or absolute`);
  if (o.kind === 'postgres')
    throw new ConfigError(`${path}: store.path names a LevelDB directory, not a PostgreSQL store's`);
  return o.path;
}

/** `--store URL|leveldb` and `--shard-db ID=URL` (repeated); null when neither is given. */
export function storeFromFlags(
  store: string | undefined,
  shardDbs: readonly string[] | undefined,
): HistoryStoreConfig | null {
  if (store === undefined) {
    if (shardDbs && shardDbs.length > 0)
      throw new ConfigError('--shard-db needs --store postgres://META-URL');
    return null;
  }
  if (store === 'leveldb') {
    if (shardDbs && shardDbs.length > 0)
      throw new ConfigError('--shard-db needs --store postgres://META-URL');
    return LEVELDB_STORE;
  }
  const metaUrl = postgresUrl(store, '--store');
  const shardUrls = new Map<number, string>();
  for (const spec of shardDbs ?? []) {
    const eq = spec.indexOf('=');
    if (eq < 0) throw new ConfigError(`--shard-db '${spec}': expected SHARD_ID=postgres://URL`);
    const id = shardId(spec.slice(0, eq), '--shard-db');
    if (shardUrls.has(id)) throw new ConfigError(`--shard-db: shard ${id} is given twice`);
    shardUrls.set(id, postgresUrl(spec.slice(eq + 1), `--shard-db ${id}`));
  }
  return { kind: 'postgres', metaUrl, shardUrls };
}

/**
 * What a node that keeps its own chain takes of config.json's `store`: whether its LevelDB writes
 * snappy tables. A PostgreSQL store holds a followed history, which `run --follow` writes and `serve`
 * reads; a chain is kept in the node's LevelDB, so such a home is refused rather than quietly given
 * a LevelDB it did not ask for.
 */
export function chainStoreCompression(store: HistoryStoreConfig, path: string): boolean {
  if (store.kind === 'postgres')
    throw new ConfigError(
      `${path}: store.kind 'postgres' holds a followed history ('nearlite run --follow SOURCE' writes it, ` +
        "'nearlite serve' reads it); a node that keeps its own chain keeps it in its LevelDB: remove `store` " +
        "or make its kind 'leveldb'",
    );
  return store.compression;
}
