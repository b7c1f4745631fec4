// One transaction on a connection: committed when `write` returns, rolled back when it throws.
import type pg from 'pg';

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
