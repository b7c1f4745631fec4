// Versioned schemas of the meta database and of the shard databases, applied at start.
//
// `schema_version` holds one row per component (`meta`, `shard`): a database may serve as the meta
// database and as one or more shard databases at once (one small server), so each component is
// migrated on its own. Migrations run in one transaction under an advisory lock, so two processes
// starting at once apply them once. A database whose version of a component is newer than this code
// knows is refused: it was written by a newer nearlite and its rows may mean something else.
//
// State history is range-partitioned by block height; partitions of `partition_size` heights are
// created by the writer as heights advance. Its primary key (key, block_height) answers "the value of
// key K as of H" with one backward index probe per partition, and a prefix scan at H with one index
// range per partition. `state_flat` holds each key's newest row (its height and value, a deletion
// as NULL): a scan at a height reads one row a key there, and goes to the history only for the keys
// written after that height, where a scan of the history alone read every version of every key.
import type pg from 'pg';
import { PgHistoryError, PgHistoryErrorCode, redactUrl } from './errors.js';
import { inTransaction } from './transaction.js';

export type Component = 'meta' | 'shard';

const META: readonly string[] = [
  `CREATE TABLE meta (
     name text PRIMARY KEY,
     block_height bigint NOT NULL,
     block_hash bytea
   )`,
  `CREATE TABLE blocks (
     block_height bigint PRIMARY KEY,
     block_hash bytea NOT NULL UNIQUE,
     json text NOT NULL
   )`,
];

const SHARD: readonly string[] = [
  `CREATE TABLE shard_settings (name text PRIMARY KEY, value bigint NOT NULL)`,
  `CREATE TABLE chunks (
     block_hash bytea NOT NULL,
     shard_id integer NOT NULL,
     block_height bigint NOT NULL,
     chunk_hash bytea NOT NULL,
     json text NOT NULL,
     PRIMARY KEY (block_hash, shard_id)
   )`,
  `CREATE INDEX chunks_by_hash ON chunks (chunk_hash)`,
  `CREATE INDEX chunks_by_height ON chunks (block_height)`,
  `CREATE TABLE transactions (hash bytea PRIMARY KEY, block_height bigint NOT NULL, json text NOT NULL)`,
  `CREATE INDEX transactions_by_height ON transactions (block_height)`,
  `CREATE TABLE outcomes (id bytea PRIMARY KEY, block_height bigint NOT NULL, json text NOT NULL)`,
  `CREATE INDEX outcomes_by_height ON outcomes (block_height)`,
  `CREATE TABLE receipts (id bytea PRIMARY KEY, block_height bigint NOT NULL, json text NOT NULL)`,
  `CREATE INDEX receipts_by_height ON receipts (block_height)`,
  `CREATE TABLE block_state_changes (
     block_hash bytea NOT NULL,
     shard_ord integer NOT NULL,
     block_height bigint NOT NULL,
     json text NOT NULL,
     PRIMARY KEY (block_hash, shard_ord)
   )`,
  `CREATE INDEX block_state_changes_by_height ON block_state_changes (block_height)`,
  `CREATE TABLE state_history (
     key bytea NOT NULL,
     block_height bigint NOT NULL,
     value bytea,
     PRIMARY KEY (key, block_height)
   ) PARTITION BY RANGE (block_height)`,
];

/**
 * Version 2: the height whose GC takes a transaction, outcome or receipt row with it (a receipt
 * listed in one block and executed in a later one goes with the later one).
 */
const SHARD_GC_HEIGHT: readonly string[] = ['transactions', 'outcomes', 'receipts'].flatMap((t) => [
  `ALTER TABLE ${t} ADD COLUMN gc_height bigint`,
  `UPDATE ${t} SET gc_height = block_height`,
  `ALTER TABLE ${t} ALTER COLUMN gc_height SET NOT NULL`,
  `CREATE INDEX ${t}_by_gc_height ON ${t} (gc_height)`,
]);

/**
 * Version 3: each key's newest state row, filled from the history the database already holds. Its
 * writer keeps it in the same transaction as the history rows.
 */
const SHARD_FLAT_STATE: readonly string[] = [
  `CREATE TABLE state_flat (key bytea PRIMARY KEY, block_height bigint NOT NULL, value bytea)`,
  `INSERT INTO state_flat (key, block_height, value)
   SELECT DISTINCT ON (key) key, block_height, value FROM state_history ORDER BY key, block_height DESC`,
];

/**
 * Version 4: which shards of which history a database holds, so that a database given for a shard
 * it does not hold (an empty replacement, two URLs swapped) is refused rather than read as if the
 * shard had no rows.
 */
const SHARD_CLAIMS: readonly string[] = [
  `CREATE TABLE shard_claims (shard_id integer PRIMARY KEY, history_id bytea NOT NULL)`,
];

/** Each component's migrations, in order: version N is the first N entries applied. */
const MIGRATIONS: Record<Component, readonly (readonly string[])[]> = {
  meta: [META],
  shard: [SHARD, SHARD_GC_HEIGHT, SHARD_FLAT_STATE, SHARD_CLAIMS],
};

export const SCHEMA_VERSION: Record<Component, number> = {
  meta: MIGRATIONS.meta.length,
  shard: MIGRATIONS.shard.length,
};

/** Advisory lock key taken while migrating ("nearlite" in ASCII, truncated). */
const MIGRATION_LOCK = 0x6e6561726c697465n;

/**
 * Brings `component` to this code's schema. With `upgrade` false (a front end) only a new database's
 * schema is created; an older one is refused: its writer may be an older nearlite still running,
 * which would not keep what the newer schema adds.
 */
export async function migrate(
  client: pg.ClientBase,
  component: Component,
  url: string,
  upgrade = true,
): Promise<void> {
  // A front end reads the version before anything else: on a database already at this schema it
  // writes nothing (so it runs on a role that may only read), and one at another is refused with the
  // schema's own message rather than the role's missing privilege.
  if (!upgrade) {
    const have = await versionOf(client, component);
    if (have === SCHEMA_VERSION[component]) return;
    if (have > 0) checkVersion(component, url, have, upgrade);
  }
  await inTransaction(client, async () => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK.toString()]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_version (component text PRIMARY KEY, version integer NOT NULL)',
    );
    const r = await client.query<{ version: number }>(
      'SELECT version FROM schema_version WHERE component = $1',
      [component],
    );
    const have = r.rows[0]?.version ?? 0;
    const known = SCHEMA_VERSION[component];
    checkVersion(component, url, have, upgrade);
    for (let v = have; v < known; v++) for (const sql of MIGRATIONS[component][v]!) await client.query(sql);
    if (have < known) {
      await client.query(
        `INSERT INTO schema_version (component, version) VALUES ($1, $2)
         ON CONFLICT (component) DO UPDATE SET version = EXCLUDED.version`,
        [component, known],
      );
    }
  });
}

/** The component's schema version, or 0 where none is recorded (read without writing). */
async function versionOf(client: pg.ClientBase, component: Component): Promise<number> {
  const exists = await client.query<{ t: string | null }>(`SELECT to_regclass('schema_version')::text AS t`);
  if (!exists.rows[0]?.t) return 0;
  const r = await client.query<{ version: number }>(
    'SELECT version FROM schema_version WHERE component = $1',
    [component],
  );
  return r.rows[0]?.version ?? 0;
}

/** A version newer than this code's is refused; an older one too, to a front end (`upgrade` false). */
function checkVersion(component: Component, url: string, have: number, upgrade: boolean): void {
  const known = SCHEMA_VERSION[component];
  if (have > known) {
    throw new PgHistoryError(
      PgHistoryErrorCode.SchemaTooNew,
      `the ${component} database ${redactUrl(url)} has schema version ${have}, newer than this nearlite knows (${known}): upgrade nearlite, or point it at another database`,
    );
  }
  if (have > 0 && have < known && !upgrade) {
    throw new PgHistoryError(
      PgHistoryErrorCode.SchemaTooOld,
      `the ${component} database ${redactUrl(url)} has schema version ${have}, older than this nearlite's (${known}): stop its writer and start this nearlite's writer first (it upgrades the schema), then the front ends`,
    );
  }
}
