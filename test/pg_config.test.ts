// Bad PostgreSQL configurations are refused at start with a clear error and no stack trace: an
// unreachable database (its password never printed), a schema written by a newer nearlite, a shard
// without a database or a database for a shard the chain does not have, a malformed --shard-db,
// `serve` without PostgreSQL, and a second writer.
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { PgHistory } from '@nearlite/history-pg';
import pg from 'pg';
import t from 'tap';
import { startCli } from './helpers/cli_process.js';
import { MAINNET_GENESIS_HEIGHT } from './helpers/mainnet.js';
import { refused } from './helpers/node.js';
import { followLakeArgs, pgHome, serveArgs, storeArgs } from './helpers/pg_home.js';
import { lakePublisher, syntheticChain } from './helpers/synthetic_chain.js';

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 1));
    });
  });
}

t.test('bad PostgreSQL configuration is refused at start', async (t) => {
  const { metaUrl, shardUrl, dir, home } = await pgHome(t);
  const serve = ['serve', '--home', home, '--rpc-addr', '127.0.0.1:0'];
  const follow = followLakeArgs(home, join(dir, 'blocks'));

  const port = await closedPort();
  const down = `postgres://nearlite:s3cret-pw@127.0.0.1:${port}/meta`;
  const err = refused(
    t,
    [...serve, '--store', down, '--shard-db', `0=${shardUrl}`],
    /cannot reach the meta database postgres:\/\/nearlite:\*\*\*@127\.0\.0\.1/,
    'unreachable meta database',
  );
  t.notMatch(err, /s3cret-pw/, 'the password is not printed');
  refused(
    t,
    [...follow, '--store', metaUrl, '--shard-db', `0=${down.replace('/meta', '/shard')}`],
    /cannot reach the shard database/,
    'unreachable shard database',
  );
  refused(t, [...serve, '--store', metaUrl], /no database for shard 0/, 'a shard without a database');
  refused(
    t,
    [...serve, '--store', metaUrl, '--shard-db', 'zero=x'],
    /--shard-db: 'zero' is not a shard id/,
    'bad shard id',
  );
  refused(
    t,
    [...serve, '--store', metaUrl, '--shard-db', '0=mysql://x'],
    /--shard-db 0 must be a postgres:\/\/ URL/,
    'not a postgres URL',
  );
  refused(
    t,
    [...serve, '--store', metaUrl, '--shard-db', `0=${shardUrl}`, '--shard-db', `5=${shardUrl}`],
    /shard 5 is given a database, and the chain has no shard 5/,
    'a database for a shard the chain does not have',
  );
  refused(t, serve, /serve reads a PostgreSQL history/, 'serve without PostgreSQL');
  refused(t, [...follow.slice(0, 5), '--store', metaUrl], /--store needs --follow/, '--store on a producer');

  // A front end starts on the databases (creating the schema), then a newer schema is refused.
  writeFileSync(
    join(home, 'config.json'),
    JSON.stringify({
      rpc: { addr: '127.0.0.1:0' },
      store: { kind: 'postgres', meta_url: metaUrl, shard_urls: {} },
    }),
  );
  refused(
    t,
    ['serve', '--home', home],
    /no database for shard 0:.*store\.shard_urls/,
    'config.json without shard 0',
  );
  writeFileSync(
    join(home, 'config.json'),
    JSON.stringify({ store: { kind: 'postgres', meta_url: metaUrl, shard_urls: { '0': 42 } } }),
  );
  refused(
    t,
    ['serve', '--home', home],
    /store\.shard_urls\.0 must be a postgres:\/\/ URL/,
    'config.json with a bad URL',
  );
  writeFileSync(join(home, 'config.json'), JSON.stringify({ rpc: { addr: '127.0.0.1:0' } }));

  const c = new pg.Client({ connectionString: metaUrl });
  await c.connect();
  t.teardown(() => c.end());
  await c.query('CREATE TABLE schema_version (component text PRIMARY KEY, version integer NOT NULL)');
  await c.query(`INSERT INTO schema_version VALUES ('meta', 99)`);
  refused(
    t,
    [...serve, '--store', metaUrl, '--shard-db', `0=${shardUrl}`],
    /the meta database .* has schema version 99, newer than this nearlite knows \(1\)/,
    'a newer meta schema',
  );
  const tables = await c.query(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'blocks'`);
  t.equal(tables.rows[0].n, 0, 'nothing was created in a database it refused');
});

t.test(
  'a history made from another genesis is refused, as nearcore refuses a genesis mismatch',
  async (t) => {
    const pgh = await pgHome(t);
    // The databases of a history whose writer recorded another genesis config's digest.
    const history = await PgHistory.open({
      metaUrl: pgh.metaUrl,
      shardUrls: new Map([[0, pgh.shardUrl]]),
      shardLayout: { shardIds: [0] },
      role: 'writer',
    });
    await history.recordGenesisDigest(new Uint8Array(32).fill(7));
    await history.close();
    const mismatch =
      /genesis\.json is not the genesis this store was made from .*genesis mismatch between storage and config/;
    refused(t, serveArgs(pgh.home, pgh), mismatch, 'a front end');
    refused(
      t,
      [...followLakeArgs(pgh.home, join(pgh.dir, 'blocks')), ...storeArgs(pgh)],
      mismatch,
      'a writer',
    );
  },
);

t.test(
  'a front end started before its writer refuses another chain written into its databases, and exits',
  async (t) => {
    const pgh = await pgHome(t);
    const front = await startCli(serveArgs(pgh.home, pgh));
    t.teardown(() => front.stop());
    const exited = new Promise<number | null>((resolve) => front.proc.once('exit', resolve));
    // Empty databases: a history without blocks yet.
    const before = await front.rpc('block', { finality: 'final' });
    t.ok(before.body.error, 'no block to answer before a writer writes one');
    // Another chain's writer takes the empty databases: its genesis is not the front end's.
    const history = await PgHistory.open({
      metaUrl: pgh.metaUrl,
      shardUrls: new Map([[0, pgh.shardUrl]]),
      shardLayout: { shardIds: [0] },
      role: 'writer',
    });
    await history.recordGenesisDigest(new Uint8Array(32).fill(7));
    await history.close();
    const still = new Promise<string>((resolve) =>
      setTimeout(() => resolve('still serving'), 20_000).unref(),
    );
    t.equal(await Promise.race([exited, still]), 1, 'the front end exits, as its restart would refuse it');
    t.match(
      front.logs(),
      /serving stopped \(.*genesis\.json is not the genesis this store was made from .*genesis mismatch between storage and config.*\): shutting down/,
    );
  },
);

t.test('a front end runs on a role that may only read (as on a hot standby)', async (t) => {
  const pgh = await pgHome(t);
  const lake = join(pgh.dir, 'blocks');
  const chain = syntheticChain(20, { from: 10_000_000, afterGenesis: MAINNET_GENESIS_HEIGHT });
  lakePublisher(lake, join(pgh.dir, 'staging'))(chain);
  const last = chain.at(-1)!.block.header;
  const writer = await startCli([...followLakeArgs(pgh.home, lake), ...storeArgs(pgh)]);
  t.teardown(() => writer.stop());
  const deadline = Date.now() + 60_000;
  while (
    (await writer.rpc<{ header: { height: number } }>('block', { finality: 'final' })).body.result?.header
      .height !== last.height &&
    Date.now() < deadline
  )
    await new Promise((r) => setTimeout(r, 100));
  await writer.stop();

  // A role with SELECT and nothing more, on both databases.
  for (const url of [pgh.metaUrl, pgh.shardUrl]) {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    if (url === pgh.metaUrl) await c.query(`CREATE ROLE reader LOGIN PASSWORD 'reader-pw'`);
    await c.query('GRANT USAGE ON SCHEMA public TO reader');
    await c.query('GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader');
    await c.end();
  }
  const asReader = (url: string) => url.replace(/\/\/[^@]*@/, '//reader:reader-pw@');
  const front = await startCli(
    serveArgs(pgh.home, { metaUrl: asReader(pgh.metaUrl), shardUrl: asReader(pgh.shardUrl) }),
  );
  t.teardown(() => front.stop());
  const block = await front.rpc<{ header: { hash: string } }>('block', { block_id: last.height });
  t.equal(block.body.result?.header.hash, last.hash, 'it serves the history it may only read');
  t.notMatch(front.logs(), /permission denied/);
  await front.stop();

  // A schema this nearlite does not know is refused for what it is, not for the role's privileges.
  const c = new pg.Client({ connectionString: pgh.shardUrl });
  await c.connect();
  await c.query(`UPDATE schema_version SET version = 99 WHERE component = 'shard'`);
  await c.end();
  refused(
    t,
    serveArgs(pgh.home, { metaUrl: asReader(pgh.metaUrl), shardUrl: asReader(pgh.shardUrl) }),
    /the shard database .* has schema version 99, newer than this nearlite knows/,
    'a read-only front end on a newer schema',
  );
});

t.test("a front end's listening session that ends is opened again", async (t) => {
  const pgh = await pgHome(t);
  const front = await startCli(serveArgs(pgh.home, pgh));
  t.teardown(() => front.stop());
  const admin = new pg.Client({ connectionString: pgh.metaUrl });
  await admin.connect();
  t.teardown(() => admin.end());
  const listeners = async () =>
    (
      await admin.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE query = 'LISTEN nearlite_cursor' AND pid <> pg_backend_pid()`,
      )
    ).rows.map((r) => r.pid);
  const until = async (ok: (pids: number[]) => boolean) => {
    for (let i = 0; i < 150; i++) {
      const pids = await listeners();
      if (ok(pids)) return pids;
      await new Promise((r) => setTimeout(r, 100));
    }
    return listeners();
  };
  const [first] = await until((p) => p.length === 1);
  t.ok(first, 'the front end listens for the cursor');
  // The server ends the session, as a restart does.
  await admin.query('SELECT pg_terminate_backend($1)', [first]);
  const again = await until((p) => p.length === 1 && p[0] !== first);
  t.equal(again.length, 1, 'a new session listens');
  t.not(again[0], first);
});
