// Connections taken from a pool for more than one statement, and transactions on them.
import type pg from 'pg';

const ignore = (): void => {};

/**
 * `use` on a connection of `pool`, released after. While a connection is out, pg-pool takes its own
 * `error` listener off it, and a connection that ends then (the server restarted, the backend was
 * terminated) emits `error`: with no listener, that would end the process. The statement in flight
 * fails with the error all the same, and the pool drops a broken connection when it is released.
 */
export async function withConnection<T>(pool: pg.Pool, use: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  const c = await pool.connect();
  c.on('error', ignore);
  try {
    return await use(c);
  } finally {
    c.off('error', ignore);
    c.release();
  }
}

/** One transaction on a connection: committed when `write` returns, rolled back when it throws. */
export async function inTransaction<T>(c: pg.ClientBase, write: () => Promise<T>): Promise<T> {
  await c.query('BEGIN');
  try {
    const out = await write();
    await c.query('COMMIT');
    return out;
  } catch (err) {
    await c.query('ROLLBACK').catch(() => {});
    throw err;
  }
}
