// A follower whose PostgreSQL writer session ends can write no more (another writer may hold the
// lock by then). It does not go on serving a frozen history as healthy: `health` answers
// NO_NEW_BLOCKS, and the command exits non-zero so its supervisor restarts it, after the cursor.
import { join } from 'node:path';
import { FollowerNode } from '@nearlite/node';
import { FileSource } from '@nearlite/stream';
import pg from 'pg';
import t from 'tap';
import { startCli } from './helpers/cli_process.js';
import { rawRpc } from './helpers/node.js';
import { followLakeArgs, pgHome, storeArgs } from './helpers/pg_home.js';
import { lakePublisher, syntheticChain } from './helpers/synthetic_chain.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const FROM = 10_000_000;

async function setUp(t: Tap.Test) {
  const { metaUrl, shardUrl, dir, home } = await pgHome(t);
  const lake = join(dir, 'blocks');
  const chain = syntheticChain(40, { from: FROM });
  const publish = lakePublisher(lake, join(dir, 'staging'));
  publish(chain.slice(0, 20));
  const sql = new pg.Client({ connectionString: metaUrl });
  // The server stops at teardown; this client's goodbye is no failure.
  sql.on('error', () => {});
  await sql.connect();
  t.teardown(() => sql.end().catch(() => {}));
  const cursor = async (): Promise<number> => {
    const r = await sql.query<{ h: string }>(`SELECT block_height AS h FROM meta WHERE name = 'cursor'`);
    return r.rows[0] ? Number(r.rows[0].h) : -1;
  };
  const untilCursor = async (height: number) => {
    for (let i = 0; i < 600 && (await cursor()) < height; i++) await sleep(100);
    t.equal(await cursor(), height, `followed to #${height}`);
  };
  /** Ends the session holding the writer lock, as a server restart would. */
  const endWriterSession = async () => {
    const r = await sql.query<{ ended: boolean }>(
      `SELECT pg_terminate_backend(pid) AS ended FROM pg_locks WHERE locktype = 'advisory' AND granted
       AND classid = x'6e6c2d77'::bigint::oid AND objid = x'72697465'::bigint::oid`,
    );
    t.same(r.rows, [{ ended: true }], 'the writer lock’s session was ended');
  };
  return { metaUrl, shardUrl, lake, home, chain, publish, cursor, untilCursor, endWriterSession };
}

t.test('health answers NO_NEW_BLOCKS once the writer can write no more', async (t) => {
  const s = await setUp(t);
  const lines: string[] = [];
  const node = await FollowerNode.start({
    home: s.home,
    source: new FileSource(s.lake),
    rpcAddr: '127.0.0.1:0',
    store: { kind: 'postgres', metaUrl: s.metaUrl, shardUrls: new Map([[0, s.shardUrl]]) },
    logger: { info: (m) => lines.push(m), warn: (m) => lines.push(m), error: (m) => lines.push(m) },
    pollMs: 20,
    prepareThreads: 0,
  });
  t.teardown(() => node.stop());
  await s.untilCursor(FROM + 19);
  const healthy = await rawRpc(node.url, 'health', []);
  t.same(JSON.parse(healthy.body).result, null, 'healthy while following');

  await s.endWriterSession();
  s.publish(s.chain.slice(20));
  const failure = await node.failed();
  t.match(failure.message, /writer's session .* ended/, 'the loop stopped on the lost session');

  const res = await rawRpc(node.url, 'health', []);
  const body = JSON.parse(res.body) as {
    error?: { name: string; cause: { name: string; info: { elapsed: { secs: number; nanos: number } } } };
  };
  t.equal(body.error?.name, 'HANDLER_ERROR');
  t.equal(body.error?.cause.name, 'NO_NEW_BLOCKS', 'health says the history no longer moves');
  t.type(body.error?.cause.info.elapsed.secs, 'number');
  const get = await fetch(`${node.url}/health`);
  t.equal(get.status, 503, 'GET /health fails too');
  t.equal(await s.cursor(), FROM + 19, 'nothing was written after the session ended');
});

t.test('the command exits non-zero, and a restart resumes after the cursor', async (t) => {
  const s = await setUp(t);
  const args = [...followLakeArgs(s.home, s.lake), ...storeArgs(s)];
  const writer = await startCli(args);
  t.teardown(() => writer.stop());
  await s.untilCursor(FROM + 19);

  await s.endWriterSession();
  s.publish(s.chain.slice(20));
  const code = await new Promise<number | null>((resolve) => {
    if (writer.proc.exitCode !== null) resolve(writer.proc.exitCode);
    else writer.proc.on('exit', (c) => resolve(c));
  });
  t.equal(code, 1, 'exit code 1');
  t.match(writer.logs(), /following stopped \(.*ended.*\): shutting down/, 'it says why');

  const again = await startCli(args);
  t.teardown(() => again.stop());
  await s.untilCursor(FROM + 39);
  t.equal(await again.stop(), 0, 'SIGTERM still exits 0');
});
