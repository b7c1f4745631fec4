// A statement that fails on one of a history's databases says which database it was.
import { createServer } from 'node:net';
import pg from 'pg';
import t from 'tap';
import { isDatabaseFailure } from '../src/errors.js';
import { nameFailures } from '../src/pools.js';

t.test('a failed statement names its database, without the password, and keeps its code', async (t) => {
  const port = await new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 1));
    });
  });
  const url = `postgres://nearlite:s3cret@127.0.0.1:${port}/shard1`;
  const pool = new pg.Pool({ connectionString: url, connectionTimeoutMillis: 2000 });
  pool.on('error', () => {});
  t.teardown(() => pool.end());
  nameFailures(pool, 'shard', url);
  const err = (await pool.query('SELECT 1').catch((e: unknown) => e)) as Error & { code?: string };
  t.match(
    err.message,
    new RegExp(`^the shard database postgres://nearlite:\\*+@127\\.0\\.0\\.1:${port}/shard1: .*ECONNREFUSED`),
  );
  t.notMatch(err.message, /s3cret/);
  t.equal(err.code, 'ECONNREFUSED', 'the code is kept');
  t.ok(isDatabaseFailure(err), 'known as a database failure');
  t.notOk(isDatabaseFailure(new Error(err.message)), 'by identity, not by its text');
});

t.test('a database URL is shown without its password, in the user part or as a parameter', async (t) => {
  const { redactUrl } = await import('../src/errors.js');
  t.equal(redactUrl('postgres://u:secret@h:5432/meta'), 'postgres://u:***@h:5432/meta');
  t.equal(
    redactUrl('postgres://u@h/meta?sslmode=require&password=secret'),
    'postgres://u@h/meta?sslmode=require&password=***',
  );
  t.equal(redactUrl('postgres://u@h/meta?PASSWORD=secret'), 'postgres://u@h/meta?PASSWORD=***');
});
