// Connections to a history's databases: the driver loaded on first use, a pool per database checked
// reachable at once, and each component's schema brought up to date.
import type pg from 'pg';
import { withDeadline } from './deadline.js';
import { nameDatabaseFailure, PgHistoryError, PgHistoryErrorCode, redactUrl } from './errors.js';
import { type Component, migrate } from './schema.js';
import { withConnection } from './transaction.js';

// Loaded on first use: every node's start would otherwise pay for the driver (~50 ms of module
// loading), and only a node whose store is PostgreSQL needs it.
let driver: Promise<typeof pg> | undefined;
export const pgDriver = (): Promise<typeof pg> => {
  driver ??= import('pg').then((m) => m.default);
  return driver;
};

export async function connectPool(
  url: string,
  what: string,
  max: number,
  deadlineMs?: number,
): Promise<pg.Pool> {
  const { Pool } = await pgDriver();
  const pool = new Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: 10_000,
    ...(deadlineMs === undefined ? {} : { query_timeout: deadlineMs }),
  });
  pool.on('error', () => {});
  nameFailures(pool, what, url);
  if (deadlineMs !== undefined) withDeadline(pool, deadlineMs, what, url);
  try {
    const c = await pool.connect();
    c.release();
  } catch (err) {
    await pool.end().catch(() => {});
    throw new PgHistoryError(
      PgHistoryErrorCode.Unreachable,
      `cannot reach the ${what} database ${redactUrl(url)}: ${(err as Error).message}`,
    );
  }
  return pool;
}

export async function migrated(
  pool: pg.Pool,
  components: readonly Component[],
  url: string,
  upgrade: boolean,
): Promise<void> {
  await withConnection(pool, async (c) => {
    for (const component of components) await migrate(c, component, url, upgrade);
  }).catch((err: unknown) => {
    // The schema's own refusals name their database; anything else (a missing privilege) is named here.
    if (err instanceof Error && !(err instanceof PgHistoryError))
      nameDatabaseFailure(err, `the ${components.join(' and ')} database ${redactUrl(url)}`);
    throw err;
  });
}

/**
 * A statement's failure names the database it failed on: with a meta and several shard databases, a
 * bare `ECONNREFUSED` or `Connection terminated unexpectedly` leaves an operator to guess which one.
 * The error keeps its class and code.
 */
export function nameFailures(pool: pg.Pool, what: string, url: string): void {
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  const where = `the ${what} database ${redactUrl(url)}`;
  (pool as { query: unknown }).query = (...args: unknown[]): Promise<unknown> =>
    query(...args).catch((err: unknown) => {
      if (err instanceof Error) nameDatabaseFailure(err, where);
      throw err;
    });
}
