// A writer whose database session ends (the server restarted, the connection dropped) has lost the
// writer lock with it: it writes nothing more and says so, with an error the follow loop stops on
// rather than retry; a new writer then takes the lock and resumes after the cursor. A writer that
// stops cleanly frees the lock before its close returns.
import net from 'node:net';
import { FollowLoop } from '@nearlite/follower';
import { PgHistoryErrorCode } from '@nearlite/history-pg';
import t from 'tap';
import { MemorySource } from '../../../test/helpers/stream_fixtures.js';
import { syntheticChain } from '../../../test/helpers/synthetic_chain.js';
import { logs, until } from '../../follower/test/helpers.js';
import { dataBlock, ONE_SHARD, oneDatabase, openPg } from './helpers.js';

t.test('a writer whose session ended writes nothing more, and the follow loop stops', async (t) => {
  const { dbs, sql } = await oneDatabase(t, 'lost');

  const writer = await openPg(dbs, ONE_SHARD, 'writer');
  t.teardown(() => writer.close());
  await writer.writeGenesis(0, []);
  const chain = syntheticChain(2, { from: 10 });
  await writer.writeBlocks([chain[0]!], true);
  // The session holding the writer lock ends, as a server restart would end it.
  const ended = await sql.query<{ ended: boolean }>(
    `SELECT pg_terminate_backend(pid) AS ended FROM pg_locks WHERE locktype = 'advisory' AND granted
     AND classid = x'6e6c2d77'::bigint::oid AND objid = x'72697465'::bigint::oid`,
  );
  t.same(ended.rows, [{ ended: true }], 'the writer lock’s session was ended');
  // The first write after it may fail on the dead connection itself; from then on, WRITER_LOST.
  let code: unknown;
  for (let i = 0; i < 50 && code !== PgHistoryErrorCode.WriterLost; i++) {
    code = await writer.writeBlocks([dataBlock(11, [[[1], 'b']])], false).then(
      () => 'written',
      (err) => (err as { code?: unknown }).code,
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  t.equal(code, PgHistoryErrorCode.WriterLost, 'the writer knows its session ended');
  t.equal(writer.cursor()?.height, 10, 'nothing more was written');

  // The follow loop stops on it, where it would retry a write that may succeed.
  const source = new MemorySource(chain);
  const log = logs();
  const loop = new FollowLoop({ history: writer, source, startHeight: 10, log, pollMs: 10, retryMaxMs: 10 });
  loop.start();
  await until(() => log.lines.some((l) => l.includes('follow loop stopped')), 'the loop to stop');
  t.match(log.lines.join('\n'), /WRITER_LOST|session on .* ended/);
  // An expected failure whose message says what to do: one line, without the stack.
  const stopped = log.lines.find((l) => l.includes('follow loop stopped'))!;
  t.match(stopped, /^.*follow loop stopped: PgHistoryError: /);
  t.notMatch(stopped, /\n\s+at /, 'no stack');
  await loop.stop();

  const next = await openPg(dbs, ONE_SHARD, 'writer');
  t.teardown(() => next.close());
  t.equal(next.cursor()?.height, 10, 'a new writer takes the lock and resumes after the cursor');
});

t.test('a shard connection that drops mid-transaction fails that write alone', async (t) => {
  const { dbs, sql } = await oneDatabase(t, 'dropped');
  const writer = await openPg(dbs, ONE_SHARD, 'writer');
  t.teardown(() => writer.close());
  await writer.writeGenesis(0, []);
  await writer.writeBlocks([syntheticChain(1, { from: 10 })[0]!], true);

  // The shard transaction waits on a lock this test holds; its backend is then terminated, so its
  // connection ends while it is out of the pool, in the middle of a statement.
  await sql.query('BEGIN');
  await sql.query('LOCK TABLE state_flat IN ACCESS EXCLUSIVE MODE');
  const write = writer.writeBlocks([dataBlock(11, [[[1], 'a']])], false).then(
    () => 'written',
    (err: Error) => err.message,
  );
  let waiting: { pid: number }[] = [];
  for (let i = 0; i < 500 && waiting.length === 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    waiting = (
      await sql.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`,
      )
    ).rows;
  }
  t.equal(waiting.length, 1, 'the shard transaction waits on the lock');
  await sql.query('SELECT pg_terminate_backend($1)', [waiting[0]!.pid]);
  await sql.query('ROLLBACK');

  t.match(await write, /terminat/, 'the write fails with the connection’s error');
  t.equal(writer.cursor()?.height, 10, 'the cursor did not move');
  await writer.writeBlocks([dataBlock(11, [[[1], 'a']])], false);
  t.equal(writer.cursor()?.height, 11, 'the next write takes a new connection and lands');
});

/**
 * A TCP relay to `port` whose client-to-server bytes are held back `delayMs` once `slow` is set: the
 * server then sees a closing session's Terminate late, as a loaded server handles it late.
 */
async function relay(t: Tap.Test, port: number) {
  const state = { slow: false, delayMs: 2000 };
  const server = net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1');
    const later = (f: () => void) => (state.slow ? setTimeout(f, state.delayMs) : f());
    client.on('data', (d) => later(() => upstream.write(d)));
    client.on('end', () => later(() => upstream.end()));
    upstream.on('data', (d) => client.write(d));
    upstream.on('end', () => client.end());
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { state, port: (server.address() as net.AddressInfo).port };
}

t.test('a writer closed cleanly leaves the writer lock free when close returns', async (t) => {
  const { dbs } = await oneDatabase(t, 'restart');
  const direct = new URL(dbs.metaUrl);
  const r = await relay(t, Number(direct.port));
  const relayed = new URL(dbs.metaUrl);
  relayed.port = String(r.port);
  const through = { metaUrl: relayed.href, shardUrls: new Map([[0, relayed.href]]) };
  const writer = await openPg(through, ONE_SHARD, 'writer');
  r.state.slow = true;
  await writer.close();
  // An operator's stop and immediate start: the lock must not wait for the server to see the old
  // session end.
  const next = await openPg(dbs, ONE_SHARD, 'writer');
  t.pass('the next writer took the lock at once');
  await next.close();
});
