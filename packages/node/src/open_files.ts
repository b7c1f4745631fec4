// How many connections the RPC may hold at once. Every connection is a file descriptor, and so is
// every table LevelDB opens: connections left unbounded (clients that open them and never finish a
// request) can take the last descriptors, and a write that then cannot open a file fails LevelDB for
// good, which stops block production. nearcore raises its limit to RocksDB's max_open_files plus
// 1,000 or refuses to start (ensure_max_open_files_limit, core/store/src/db/rocksdb.rs); Node has
// already raised the soft limit to the hard one, so the RPC keeps what the database needs free.
import { readFileSync } from 'node:fs';

/** LevelDB's max_open_files (classic-level's default). */
export const DB_OPEN_FILES = 1000;
/** What a node opens besides LevelDB's tables and its connections: logs, the manifest, threads, pipes. */
export const OTHER_FILES = 100;
/** What a node on LevelDB keeps free of connections. */
export const RESERVED_FILES = DB_OPEN_FILES + OTHER_FILES;
/** Connections allowed however low the limit. */
export const MIN_CONNECTIONS = 64;

/** The process's soft limit on open files, where the system says (Linux); null when unknown or unlimited. */
export function openFilesLimit(limits = readLimits()): number | null {
  const line = limits?.split('\n').find((l) => l.startsWith('Max open files'));
  const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0];
  return soft !== undefined && /^\d+$/.test(soft) ? Number(soft) : null;
}

function readLimits(): string | null {
  try {
    return readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return null;
  }
}

export interface ConnectionCap {
  /** The cap, or undefined where the limit is unknown. */
  readonly maxConnections: number | undefined;
  /** Set when the limit leaves the database and connections less than they need: say so at start. */
  readonly warning?: string;
}

/**
 * `leveldb`: the process keeps a LevelDB (a producer, a follower on LevelDB), whose tables are set
 * aside; a PostgreSQL writer or front end keeps only its few pooled connections besides.
 */
export function connectionCap(leveldb: boolean, limit: number | null = openFilesLimit()): ConnectionCap {
  if (limit === null) return { maxConnections: undefined };
  const reserved = leveldb ? RESERVED_FILES : OTHER_FILES;
  const left = limit - reserved;
  if (left >= MIN_CONNECTIONS) return { maxConnections: left };
  return {
    maxConnections: MIN_CONNECTIONS,
    warning:
      `the open-file limit is ${limit}: ` +
      (leveldb ? `the database may keep ${DB_OPEN_FILES} files open, so ` : '') +
      `RPC connections are capped at ${MIN_CONNECTIONS}` +
      (leveldb ? ' and the database may still run short' : '') +
      `; raise it (ulimit -n) to ${reserved + MIN_CONNECTIONS} or more`,
  };
}
