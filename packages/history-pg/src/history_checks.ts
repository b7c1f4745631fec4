// What the meta database records of the history it names, checked when a writer opens it: that its
// shard databases are its own, its kind (archival or not), the genesis it was made from.
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
 * An archival history stays archival: a writer that would collect its blocks is refused. A history
 * that collects may become archival (its tail stays), as nearcore lets an RPC store be opened as an
 * archive. A history from before the kind was recorded takes the writer's.
 */
export async function checkKind(meta: Queryable, metaUrl: string, archive: boolean): Promise<void> {
  const archival = await readArchival(meta);
  if (archival && !archive) {
    throw new PgHistoryError(
      PgHistoryErrorCode.KindMismatch,
      `the history in ${redactUrl(metaUrl)} is archival, and a writer without --archive (archive: false) would collect its blocks: start it with --archive`,
    );
  }
  if (archival !== archive)
    await meta.query(
      `INSERT INTO meta (name, block_height) VALUES ('archive', $1)
       ON CONFLICT (name) DO UPDATE SET block_height = EXCLUDED.block_height`,
      [archive ? 1 : 0],
    );
}

/** The digest of the genesis config the history was made from, where one is recorded. */
export async function readGenesisDigest(meta: Queryable): Promise<Uint8Array | undefined> {
  const r = await meta.query<{ block_hash: Buffer | null }>(
    `SELECT block_hash FROM meta WHERE name = 'genesis_config'`,
  );
  const hash = r.rows[0]?.block_hash;
  return hash ? new Uint8Array(hash) : undefined;
}

/** Records it, where none is. */
export async function writeGenesisDigest(meta: Queryable, digest: Uint8Array): Promise<void> {
  await meta.query(
    `INSERT INTO meta (name, block_height, block_hash) VALUES ('genesis_config', 0, $1) ON CONFLICT (name) DO NOTHING`,
    [digest],
  );
}
