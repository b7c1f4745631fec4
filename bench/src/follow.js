// `node bench/src/follow.js [--quick]`: how fast a follower catches up from a local source, and how
// its reads compare with the producer's on the same chain. The bench dataset (built or reused as by
// `npm run bench`) is exported to the Lake layout on disk, a fresh follower home follows it with
// `--follow file:DIR` until its cursor reaches the producer's head, then the same read cases load the
// producer and the follower in turn.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildDataset } from './dataset.js';
import { load } from './load.js';
import { cliSync, rpc, rssMb, startNode } from './node_process.js';

const quick = process.argv.includes('--quick');
const P = quick
  ? { name: 'quick', accounts: 300, holders: 100, transfers: 400, blocks: 2000, duration: 4 }
  : { name: 'full', accounts: 10_000, holders: 10_000, transfers: 20_000, blocks: 20_000, duration: 10 };
const CACHE = join(import.meta.dirname, '..', '.cache');
const RESULTS = join(import.meta.dirname, '..', 'results');
const log = (m) => process.stderr.write(`${m}\n`);
const pick = (a) => a[Math.floor(Math.random() * a.length)];
const int = (n) => Math.floor(Math.random() * n);
const env = (method, params) => ({ jsonrpc: '2.0', id: 'b', method, params });

mkdirSync(CACHE, { recursive: true });
mkdirSync(RESULTS, { recursive: true });
const { home, meta } = await buildDataset(CACHE, P, log);

const lake = join(CACHE, `lake-${P.name}`);
rmSync(lake, { recursive: true, force: true });
let started = performance.now();
cliSync(['lake-export', '--home', home, '--out', lake]);
const exportSeconds = (performance.now() - started) / 1000;
const heights = readdirSync(lake).filter((d) => /^\d{12}$/.test(d));
let stateChanges = 0;
for (const h of heights)
  for (const f of readdirSync(join(lake, h)))
    if (f.startsWith('shard_'))
      stateChanges += JSON.parse(readFileSync(join(lake, h, f), 'utf8')).state_changes.length;
log(`exported ${heights.length} blocks (${stateChanges} state changes) in ${exportSeconds.toFixed(1)} s`);

const followerHome = join(CACHE, `follower-${P.name}`);
rmSync(followerHome, { recursive: true, force: true });
cliSync(['init', '--home', followerHome, '--genesis', join(home, 'genesis.json')]);
const lastHeight = Math.max(...heights.map(Number));
started = performance.now();
const follower = await startNode(followerHome, ['--follow', `file:${lake}`, '--archive']);
for (;;) {
  const s = await rpc(follower.url, 'status', []);
  if (s.sync_info.latest_block_height >= lastHeight) break;
  await new Promise((r) => setTimeout(r, 100));
}
const ingestSeconds = (performance.now() - started) / 1000;
const ingest = {
  blocks: heights.length,
  stateChanges,
  seconds: Number(ingestSeconds.toFixed(2)),
  blocksPerSecond: Math.round(heights.length / ingestSeconds),
  stateChangesPerSecond: Math.round(stateChanges / ingestSeconds),
  followerPeakRssMb: await rssMb(follower.proc.pid),
};
log(
  `follower caught up: ${ingest.blocksPerSecond} blocks/s, ${ingest.stateChangesPerSecond} state changes/s ` +
    `(${ingest.seconds} s, start-up included)`,
);

const producer = await startNode(home, ['--block-time', '1000', '--archive']);
const head = lastHeight;
const cases = [
  ['block by height', () => env('block', { block_id: 1 + int(head) })],
  ['chunk', () => env('chunk', { block_id: 1 + int(head), shard_id: int(4) })],
  [
    'view_account (old block)',
    () =>
      env('query', {
        request_type: 'view_account',
        account_id: pick(meta.accounts),
        block_id: Math.max(1, head - int(head / 2)),
      }),
  ],
  [
    'call_function get_balance',
    () =>
      env('query', {
        request_type: 'call_function',
        account_id: 'token.test.near',
        method_name: 'get_balance',
        args_base64: Buffer.from(JSON.stringify({ owner_id: pick(meta.holders) })).toString('base64'),
        block_id: head,
      }),
  ],
  [
    'tx status',
    () => {
      const [h, s] = pick(meta.txHashes);
      return env('tx', { tx_hash: h, sender_account_id: s, wait_until: 'NONE' });
    },
  ],
];
const reads = [];
for (const [name, make] of cases) {
  const p = await load(producer.url, make, { duration: P.duration });
  const f = await load(follower.url, make, { duration: P.duration });
  reads.push({ name, producer: p, follower: f, ratio: Number((f.rps / p.rps).toFixed(2)) });
  log(
    `${name}: producer ${p.rps} req/s, follower ${f.rps} req/s (${f.errors} errors) → ${(f.rps / p.rps).toFixed(2)}`,
  );
}
await producer.stop();
await follower.stop();

const result = { mode: P.name, date: new Date().toISOString(), exportSeconds, ingest, reads };
writeFileSync(join(RESULTS, `follow-${P.name}.json`), `${JSON.stringify(result, null, 2)}\n`);
const md = [
  `Follower (${P.name} dataset, ${ingest.blocks} blocks over 4 shards, source \`file:\` on the same disk)`,
  '',
  `- Lake export: ${exportSeconds.toFixed(1)} s`,
  `- Catch-up: ${ingest.blocksPerSecond} blocks/s, ${ingest.stateChangesPerSecond} state changes/s (target 1,000 / 20,000); follower peak RSS ${ingest.followerPeakRssMb} MB`,
  '',
  '| read | producer req/s | follower req/s | follower / producer (target ≥ 0.9) |',
  '|---|---:|---:|---:|',
  ...reads.map((r) => `| ${r.name} | ${r.producer.rps} | ${r.follower.rps} | ${r.ratio} |`),
  '',
].join('\n');
writeFileSync(join(RESULTS, `follow-${P.name}.md`), md);
process.stdout.write(md);
