// A front end answers every request in bounded time: a database that stops answering (a stalled
// server, a dropped network path that TCP has not noticed) fails the request once the deadline
// passes, where it would otherwise be held, with every request queued behind it, until the server
// came back. A writer has no deadline: its statements (GC's deletes, catch-up batches) may rightly be
// long, and a stalled one holds nothing but its own progress.
import type pg from 'pg';
import { PgHistoryError, PgHistoryErrorCode, redactUrl } from './errors.js';

/**
 * `pool.query` fails with `TIMEOUT` after `ms`, counted from the call, so the wait for a free
 * connection counts too. The pool's own `query_timeout` (set where it is made) drops the connection
 * of a statement that timed out, so a stalled connection does not go back to serve another.
 */
export function withDeadline(pool: pg.Pool, ms: number, what: string, url: string): void {
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  const timedOut = (): PgHistoryError =>
    new PgHistoryError(
      PgHistoryErrorCode.Timeout,
      `the ${what} database ${redactUrl(url)} did not answer within ${ms / 1000} s`,
    );
  (pool as { query: unknown }).query = (...args: unknown[]): Promise<unknown> => {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(timedOut()), ms);
    });
    const answer = query(...args);
    // The statement's own failure, after the deadline has answered, is no one's to handle.
    answer.catch(() => {});
    return Promise.race([answer, deadline]).finally(() => clearTimeout(timer));
  };
}
