// A producer publishes NEAR Lake to an S3 server (s3rver on 127.0.0.1) while it runs
// (`run --lake-out`); the real near-lake-framework from npm streams the bucket unmodified, and every
// block it delivers is the producer's /v0/block/:h. The neardata HTTP source, the S3 source and the
// Lake directory that `lake-export` writes from the stopped node all return the same messages.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringifyJson } from '@nearlite/primitives';
import { FileSource, HttpSource, S3Source, type StreamerMessage } from '@nearlite/stream';
import t from 'tap';
import { localChain } from './helpers/chain.js';
import { CLI, cli } from './helpers/node.js';
import { startS3 } from './helpers/s3.js';
import { streamActivity } from './helpers/stream_activity.js';

/** near-lake-framework-js's renameUnderscoreFieldsToCamelCase, applied to our JSON for comparison. */
function lakeCamel(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(lakeCamel);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.entries(v).map(([k, x]) => [
      k
        .split('_')
        .map((w, i) => (i > 0 ? w.charAt(0).toUpperCase() + w.slice(1) : w))
        .join(''),
      lakeCamel(x),
    ]),
  );
}

async function until<T>(what: string, fn: () => Promise<T | null | false>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== null && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Runs the framework in its own process (its stream never ends) and collects heights first..last. */
async function frameworkMessages(
  endpoint: string,
  bucket: string,
  first: number,
  last: number,
): Promise<Map<number, unknown>> {
  const consumer = join(import.meta.dirname, 'helpers', 'lake_framework_consumer.mjs');
  const child: ChildProcess = spawn(process.execPath, [consumer, endpoint, bucket, String(first)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env },
  });
  const got = new Map<number, unknown>();
  let errors = '';
  child.stderr!.on('data', (d) => {
    errors += d.toString();
  });
  try {
    await new Promise<void>((resolve, reject) => {
      let buf = '';
      const timer = setTimeout(
        () => reject(new Error(`the framework stopped at ${got.size}:\n${errors}`)),
        90_000,
      );
      child.stdout!.on('data', (d) => {
        buf += d.toString();
        for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
          const m = JSON.parse(buf.slice(0, nl)) as { block: { header: { height: number } } };
          buf = buf.slice(nl + 1);
          got.set(m.block.header.height, m);
          if (m.block.header.height >= last) {
            clearTimeout(timer);
            resolve();
          }
        }
      });
      child.on('exit', (code) => reject(new Error(`the framework exited with ${code}:\n${errors}`)));
    });
  } finally {
    child.kill('SIGKILL');
  }
  return got;
}

/** The CLI without blocking this process, whose event loop runs the S3 server. */
function cliAsync(
  args: readonly string[],
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout!.on('data', (d) => {
      stdout += d.toString();
    });
    p.stderr!.on('data', (d) => {
      stderr += d.toString();
    });
    p.on('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

t.test('a producer feeds NEAR Lake on S3; the framework and every source agree with /v0', async (t) => {
  const endpoint = await startS3(t, ['lake-out', 'lake-export']);

  const c = await localChain(t, {
    shards: 2,
    archive: true,
    args: ['--lake-out', 's3://lake-out', '--s3-endpoint', endpoint],
  });
  const txHashes = await streamActivity(c);
  const http = new HttpSource(c.node.url);
  const lastTxFinal = await until('the activity to be final', async () => {
    const h = await http.finalHeight();
    const status = await c.node.rpc<{ final_execution_status: string }>('tx', {
      tx_hash: txHashes.at(-1),
      sender_account_id: 'test.near',
      wait_until: 'NONE',
    });
    return status.body.result?.final_execution_status === 'FINAL' && h;
  });
  const target = lastTxFinal + 2;
  await until('the target height to be final', async () => ((await http.finalHeight()) ?? 0) >= target);
  const bucket = new S3Source('lake-out', '', { endpoint });
  t.teardown(() => bucket.close());
  await until('the bucket to reach the target', async () => ((await bucket.finalHeight()) ?? 0) >= target);

  // What the producer serves, as text and parsed.
  const v0Text = new Map<number, string>();
  const v0 = new Map<number, StreamerMessage | null>();
  for (let h = 0; h <= target; h++) {
    v0Text.set(h, await (await fetch(`${c.node.url}/v0/block/${h}`)).text());
    v0.set(h, await http.fetchBlock(h));
    // u64s stay exact through the source, so a follower writes back the producer's very bytes.
    if (!t.equal(stringifyJson(v0.get(h)), v0Text.get(h), `http source, height ${h}, round-trips`)) break;
  }

  // The real near-lake-framework, unmodified, reading the bucket.
  const delivered = await frameworkMessages(endpoint, 'lake-out', 0, target);
  for (let h = 0; h <= target; h++) {
    const mine = lakeCamel(JSON.parse(v0Text.get(h)!));
    if (!t.same(delivered.get(h), mine, `near-lake-framework's block ${h} is /v0/block/${h}`)) break;
  }
  const txs = [...delivered.values()].flatMap((m) =>
    (
      m as { shards: { chunk: { transactions: { transaction: { hash: string } }[] } | null }[] }
    ).shards.flatMap((s) => s.chunk?.transactions.map((x) => x.transaction.hash) ?? []),
  );
  for (const h of txHashes) t.ok(txs.includes(h), `the framework saw transaction ${h}`);

  // The S3 source reads the same messages the HTTP source does.
  for (let h = 0; h <= target; h++) {
    if (!t.same(await bucket.fetchBlock(h), v0.get(h), `s3 source, height ${h}`)) break;
  }

  t.equal(await c.node.stop(), 0, 'the producer stops cleanly');

  // lake-export of the stopped home: to a directory and to another bucket, path-style.
  const dir = join(c.home, 'lake');
  const out = cli(['lake-export', '--home', c.home, '--out', dir, '--to', String(target)]);
  t.equal(out.status, 0, out.stderr);
  t.match(out.stdout, `heights 0..${target}`);
  const exp = await cliAsync([
    'lake-export',
    '--home',
    c.home,
    '--from',
    '1',
    '--s3-bucket',
    'lake-export',
    '--s3-prefix',
    'testnet',
    '--s3-endpoint',
    endpoint,
  ]);
  t.equal(exp.status, 0, exp.stderr);
  const files = new FileSource(dir);
  const exported = new S3Source('lake-export', 'testnet/', { endpoint });
  t.teardown(() => exported.close());
  t.equal(await exported.firstHeight(), 1, '--from is honoured');
  for (let h = 0; h <= target; h++) {
    const text = v0Text.get(h)!;
    const blockJson = readFileSync(join(dir, String(h).padStart(12, '0'), 'block.json'), 'utf8');
    if (
      !t.equal(
        blockJson,
        text.slice('{"block":'.length, text.indexOf(',"shards":[')),
        `block.json ${h} bytes`,
      )
    )
      break;
    if (!t.same(await files.fetchBlock(h), v0.get(h), `file source, height ${h}`)) break;
    if (h >= 1 && !t.same(await exported.fetchBlock(h), v0.get(h), `exported bucket, height ${h}`)) break;
  }

  const bad = cli(['lake-export', '--home', c.home, '--out', dir, '--from', '100000']);
  t.not(bad.status, 0);
  t.match(bad.stderr, /--from 100000 is above --to/);
  const both = cli(['lake-export', '--home', c.home]);
  t.not(both.status, 0);
  t.match(both.stderr, /needs one of --out DIR or --s3-bucket NAME/);
});
