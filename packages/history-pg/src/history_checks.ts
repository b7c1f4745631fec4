// What the meta database records of the history it names, checked when a writer opens it: that its
// shard databases are its own, its kind (archival or not), the genesis it was made from.
import { randomBytes } from 'node:crypto';
import { toHex } from '@nearlite/primitives';
import type pg from 'pg';
import { PgHistoryError, PgHistoryErrorCode, redactUrl } from './errors.js';
import type { ShardDb } from './shard_db.js';

type Queryable = Pick<pg.Pool, 'query'>;

/**
 * For a meta database that names no history yet (no genesis, no cursor): it takes only shard
 * databases that hold nothing, since a writer clears everything above its cursor at start, which with
 * no cursor would be every row of a history another meta database names.
 */
export async function refuseForeignShards(dbs: Iterable<ShardDb>, metaUrl: string): Promise<void> {
  for (const db of dbs) {
    const r = await db.pool.query<{ held: boolean }>(
      'SELECT EXISTS (SELECT 1 FROM chunks) OR EXISTS (SELECT 1 FROM state_history) AS held',
    );
    if (r.rows[0]?.held) {
      throw new PgHistoryError(
        PgHistoryErrorCode.ForeignHistory,
        `shard database ${redactUrl(db.url)} holds a history the meta database ${redactUrl(metaUrl)} does not name: give the writer that history's own meta database, or an empty shard database`,
      );
    }
  }
}

/** Whether the history is archival, as its writer recorded; undefined before any did. */
export async function readArchival(meta: Queryable): Promise<boolean | undefined> {
  const r = await meta.query<{ block_height: string }>(
    `SELECT block_height FROM meta WHERE name = 'archive'`,
  );
  return r.rows[0] === undefined ? undefined : r.rows[0].block_height === '1';
}

/**
 * The history's kind, as nearcore's store opener takes a store's (and a LevelDB history's,
 * `ensureMetadata`): an archival history is refused to a writer that would collect it; a collecting
 * history taken by an archival writer keeps its kind (the writer collects nothing, and a later one
 * without `--archive` collects again); `convert` records the writer's kind either way. A history from
 * before the kind was recorded takes the writer's. Returns whether the history is archival.
 */
export async function checkKind(
  meta: Queryable,
  metaUrl: string,
  archive: boolean,
  convert = false,
): Promise<boolean> {
  const archival = await readArchival(meta);
  if (archival === archive) return archival;
  if (archival !== undefined && !convert) {
    if (!archival) return false;
    throw new PgHistoryError(
      PgHistoryErrorCode.KindMismatch,
      `the history in ${redactUrl(metaUrl)} is archival, and a writer without --archive (archive: false) would collect its blocks: start it with --archive, or pass --convert-db-kind to convert it explicitly`,
    );
  }
  await meta.query(
    `INSERT INTO meta (name, block_height) VALUES ('archive', $1)
     ON CONFLICT (name) DO UPDATE SET block_height = EXCLUDED.block_height`,
    [archive ? 1 : 0],
  );
  return archive;
}

/** A `meta` row that holds bytes (in its `block_hash` column), where one is recorded. */
async function readMetaBytes(meta: Queryable, name: string): Promise<Uint8Array | undefined> {
  const r = await meta.query<{ block_hash: Buffer | null }>('SELECT block_hash FROM meta WHERE name = $1', [
    name,
  ]);
  const value = r.rows[0]?.block_hash;
  return value ? new Uint8Array(value) : undefined;
}

/** Records it, where none is: the first value stands. */
async function recordMetaBytes(meta: Queryable, name: string, value: Uint8Array): Promise<void> {
  await meta.query(
    'INSERT INTO meta (name, block_height, block_hash) VALUES ($1, 0, $2) ON CONFLICT (name) DO NOTHING',
    [name, value],
  );
}

/** The digest of the genesis config the history was made from, where one is recorded. */
export const readGenesisDigest = (meta: Queryable) => readMetaBytes(meta, 'genesis_config');
export const writeGenesisDigest = (meta: Queryable, digest: Uint8Array) =>
  recordMetaBytes(meta, 'genesis_config', digest);

/** The history's id, which its first writer records and each of its shard databases claims. */
export const readHistoryId = (meta: Queryable) => readMetaBytes(meta, 'history_id');
export const recordHistoryId = (meta: Queryable, id: Uint8Array) => recordMetaBytes(meta, 'history_id', id);

/** A new history's id. */
export const newHistoryId = (): Uint8Array => new Uint8Array(randomBytes(16));

/**
 * Each shard's database must be the one its rows were written to. A database claimed by another
 * history is refused (`FOREIGN_HISTORY`); one that does not claim its shard is refused
 * (`SHARD_MISMATCH`) unless `claim` (a history that holds nothing yet, or one from before claims were
 * recorded), which records the claim: an empty database, or two URLs swapped, would otherwise answer
 * as a shard without rows.
 */
export async function checkShardClaims(
  shardUrls: ReadonlyMap<number, string>,
  dbs: ReadonlyMap<string, ShardDb>,
  historyId: Uint8Array,
  metaUrl: string,
  claim: boolean,
): Promise<void> {
  const ours = toHex(historyId);
  const claims = new Map<string, Map<number, string>>();
  for (const [url, db] of dbs) {
    const r = await db.pool.query<{ shard_id: number; history_id: Buffer }>(
      'SELECT shard_id, history_id FROM shard_claims ORDER BY shard_id',
    );
    const held = new Map(r.rows.map((row) => [row.shard_id, toHex(row.history_id)]));
    if ([...held.values()].some((id) => id !== ours)) {
      throw new PgHistoryError(
        PgHistoryErrorCode.ForeignHistory,
        `shard database ${redactUrl(url)} holds shards ${[...held.keys()].join(', ')} of a history the meta database ${redactUrl(metaUrl)} does not name: give the writer that history's own meta database, or an empty shard database`,
      );
    }
    claims.set(url, held);
  }
  for (const [shardId, url] of shardUrls) {
    const held = claims.get(url)!;
    if (held.has(shardId)) continue;
    if (!claim) {
      const holds = held.size === 0 ? 'no shard' : `shard ${[...held.keys()].join(', ')}`;
      throw new PgHistoryError(
        PgHistoryErrorCode.ShardMismatch,
        `shard database ${redactUrl(url)}, given for shard ${shardId}, holds ${holds} of the history in ${redactUrl(metaUrl)}: give the database shard ${shardId} was written to (store.shard_urls in config.json, or --shard-db ${shardId}=URL)`,
      );
    }
    await dbs
      .get(url)!
      .pool.query(
        'INSERT INTO shard_claims (shard_id, history_id) VALUES ($1, $2) ON CONFLICT (shard_id) DO NOTHING',
        [shardId, historyId],
      );
    held.set(shardId, ours);
  }
}
