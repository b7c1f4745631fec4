// The follower case of `npm run bench` (runnable alone: `node bench/src/follow.js [--quick]`): how
// fast a follower catches up from a local source, and how its reads compare with the producer's on
// the same chain. The bench dataset is exported to the Lake layout on disk and a fresh follower home
// follows it with `--follow file:DIR` until its cursor reaches the last height. The catch-up gives two
// rates: over the whole chain (mostly blocks with a few state changes each, where the cost per block
// sets the pace), and over the dataset's dense stretch (its last blocks, a steady stream of transfers
// at a few hundred state changes a block; mainnet's blocks carry ~50–150), where the cost per state
// change does. The stretch is timed inside the same catch-up, from the cursor reaching it to the
// cursor leaving it.
// Then the same read cases load the producer and the follower in turn.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildDataset } from './dataset.js';
import { load } from './load.js';
import { cliSync, cpuSeconds, rpc, rssMb, startNode } from './node_process.js';
import { benchParams } from './params.js';

const pick = (a) => a[Math.floor(Math.random() * a.length)];
const int = (n) => Math.floor(Math.random() * n);
const env = (method, params) => ({ jsonrpc: '2.0', id: 'b', method, params });

/** State changes per height of a Lake directory, in height order. */
function lakeHeights(lake) {
  const out = [];
  for (const h of readdirSync(lake)
    .filter((d) => /^\d{12}$/.test(d))
    .sort()) {
    let changes = 0;
    for (const f of readdirSync(join(lake, h)))
      if (f.startsWith('shard_'))
        changes += JSON.parse(readFileSync(join(lake, h, f), 'utf8')).state_changes.length;
    out.push({ dir: h, height: Number(h), changes });
  }
  return out;
}

const changesOf = (hs) => hs.reduce((n, h) => n + h.changes, 0);

/** Blocks and state changes of `hs` over `seconds`. */
function rates(hs, seconds) {
  const changes = changesOf(hs);
  return {
    blocks: hs.length,
    stateChanges: changes,
    seconds: Number(seconds.toFixed(2)),
    blocksPerSecond: Math.round(hs.length / seconds),
    stateChangesPerSecond: Math.round(changes / seconds),
  };
}

/**
 * A fresh follower of `lake` from start to its cursor at the last height: the timed catch-up, with
 * the dense stretch `dense` ({ from, to } heights) timed inside it. The cursor is polled every
 * 10 ms, less often while the follower's threads hold both cores.
 */
async function catchUp(cache, name, genesis, lake, heights, dense) {
  const followerHome = join(cache, `follower-${name}`);
  rmSync(followerHome, { recursive: true, force: true });
  cliSync(['init', '--home', followerHome, '--genesis', genesis]);
  const last = heights.at(-1).height;
  const started = performance.now();
  const follower = await startNode(followerHome, ['--follow', `file:${lake}`, '--archive']);
  // The ingest rate proper runs from the process's first answer: what it ingests from then on.
  const serving = performance.now();
  const cursorAtServing = (await rpc(follower.url, 'status', [])).sync_info.latest_block_height;
  // The stretch's window: from the last poll whose cursor was below its first height (the blocks
  // before it are in) to the first poll whose cursor reached its last height.
  let entered = null;
  let left = null;
  let poll = { at: serving, cursor: cursorAtServing };
  for (;;) {
    if (poll.cursor < dense.from) entered = poll;
    if (left === null && poll.cursor >= dense.to) left = poll;
    if (poll.cursor >= last) break;
    await new Promise((r) => setTimeout(r, 10));
    const cursor = (await rpc(follower.url, 'status', [])).sync_info.latest_block_height;
    poll = { at: performance.now(), cursor };
  }
  const ended = performance.now();
  const between = (lo, hi) => heights.filter((h) => h.height > lo && h.height <= hi);
  const whole = rates(heights, (ended - started) / 1000);
  // Once serving: the blocks after the cursor of its first answer, over the time from then.
  const servingWhole = rates(between(cursorAtServing, last), (ended - serving) / 1000);
  return {
    follower,
    // The heights after the entering poll's cursor up to the leaving poll's, some of them sparse
    // blocks on either side of the stretch.
    dense:
      entered && left
        ? {
            firstHeight: dense.from,
            lastHeight: dense.to,
            ...rates(between(entered.cursor, left.cursor), (left.at - entered.at) / 1000),
          }
        : null,
    // The dataset before the stretch: its blocks of a few state changes each, where the cost per
    // block sets the pace (start-up included, and once serving).
    sparse: entered
      ? {
          ...rates(between(-Infinity, entered.cursor), (entered.at - started) / 1000),
          servingBlocksPerSecond: rates(
            between(cursorAtServing, entered.cursor),
            (entered.at - serving) / 1000,
          ).blocksPerSecond,
        }
      : null,
    figures: {
      ...whole,
      startupMs: Math.round(follower.startupMs),
      servingBlocksPerSecond: servingWhole.blocksPerSecond,
      servingStateChangesPerSecond: servingWhole.stateChangesPerSecond,
      followerPeakRssMb: await rssMb(follower.proc.pid),
    },
  };
}

/**
 * Waits until the process uses under 5 % of a core over a second (at most a minute); returns the
 * seconds waited.
 */
async function settle(pid) {
  const started = performance.now();
  let before = await cpuSeconds(pid);
  while (performance.now() - started < 60_000) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = await cpuSeconds(pid);
    if (now - before < 0.05) break;
    before = now;
  }
  return Math.round((performance.now() - started) / 1000);
}

/**
 * The follower figures on the dataset in `home` (the producer's home, not running: its LOCK is
 * taken here). Returns { exportSeconds, ingest, sparse, dense, reads }.
 */
export async function measureFollower({ cache, home, meta, P, log }) {
  const lake = join(cache, `lake-${P.name}`);
  rmSync(lake, { recursive: true, force: true });
  const started = performance.now();
  cliSync(['lake-export', '--home', home, '--out', lake]);
  const exportSeconds = Number(((performance.now() - started) / 1000).toFixed(1));
  const heights = lakeHeights(lake);
  log(`exported ${heights.length} blocks (${changesOf(heights)} state changes) in ${exportSeconds} s`);
  const genesis = join(home, 'genesis.json');

  const {
    follower,
    figures: ingest,
    dense,
    sparse,
  } = await catchUp(cache, P.name, genesis, lake, heights, meta.dense);
  log(
    `whole chain: ${ingest.blocksPerSecond} blocks/s, ${ingest.stateChangesPerSecond} state changes/s ` +
      `(${ingest.seconds} s, start-up included; once serving: ${ingest.servingBlocksPerSecond} blocks/s)`,
  );
  if (sparse)
    log(
      `the dataset up to the dense stretch (${sparse.blocks} blocks, ${sparse.stateChanges} state changes): ` +
        `${sparse.blocksPerSecond} blocks/s start-up included, ${sparse.servingBlocksPerSecond} once serving`,
    );
  if (dense)
    log(
      `dense stretch (heights ${dense.firstHeight}..${dense.lastHeight}; ${dense.blocks} blocks timed, ` +
        `${Math.round(dense.stateChanges / dense.blocks)} state changes per block): ${dense.blocksPerSecond} blocks/s, ` +
        `${dense.stateChangesPerSecond} state changes/s`,
    );

  // A follower that has just caught up is still compacting what it wrote (LevelDB's background
  // thread: a few seconds of a core on the full chain), which would be counted against its reads.
  const settledSeconds = await settle(follower.proc.pid);
  log(`follower settled ${settledSeconds} s after catching up`);

  const producer = await startNode(home, ['--block-time', '1000', '--archive']);
  const head = heights.at(-1).height;
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
  try {
    // Producer, follower, follower, producer: on a machine whose speed drifts, neither node is
    // always measured first, and each side's figure is the mean of its two runs.
    const mean = (a, b) => ({
      ...a,
      rps: Math.round((a.rps + b.rps) / 2),
      runs: [a.rps, b.rps],
      cpuUsPerRequest: Math.round((a.cpuUsPerRequest + b.cpuUsPerRequest) / 2),
    });
    // Beside throughput, each node's CPU per request (all its threads; the unmeasured warm-up second
    // counted at the measured rate): on two cores shared with the load generator, throughput swings
    // with the machine, CPU per request much less.
    const measure = async (node, make) => {
      const before = await cpuSeconds(node.proc.pid);
      const r = await load(node.url, make, { duration: P.duration });
      const used = (await cpuSeconds(node.proc.pid)) - before;
      return { ...r, cpuUsPerRequest: Math.round((used * 1e6) / Math.max(1, r.rps * (P.duration + 1))) };
    };
    for (const [name, make] of cases) {
      const p1 = await measure(producer, make);
      const f1 = await measure(follower, make);
      const f2 = await measure(follower, make);
      const p2 = await measure(producer, make);
      const p = mean(p1, p2);
      const f = mean(f1, f2);
      f.errors = f1.errors + f2.errors;
      reads.push({ name, producer: p, follower: f, ratio: Number((f.rps / p.rps).toFixed(2)) });
      log(
        `${name}: producer ${p.rps} req/s, follower ${f.rps} req/s (${f.errors} errors) → ${(f.rps / p.rps).toFixed(2)}; CPU per request ${p.cpuUsPerRequest} and ${f.cpuUsPerRequest} µs`,
      );
    }
  } finally {
    await producer.stop();
    await follower.stop();
  }
  return { exportSeconds, ingest, sparse, dense, reads };
}

/** The follower's lines of the results' Markdown. */
export function followerMarkdown(f) {
  return [
    `Follower (${f.ingest.blocks} blocks over 4 shards exported with \`lake-export\`, followed from \`file:\` on the same disk; Lake export ${f.exportSeconds} s):`,
    '',
    f.sparse
      ? `- Catch-up, the dataset up to its dense stretch (${f.sparse.blocks} blocks, ${f.sparse.stateChanges} state changes): ${f.sparse.blocksPerSecond} blocks/s start-up included (target 1,000 blocks/s), ${f.sparse.servingBlocksPerSecond} once serving`
      : '- Catch-up, the dataset up to its dense stretch: not timed',
    `- Catch-up, whole chain: ${f.ingest.blocksPerSecond} blocks/s, ${f.ingest.stateChangesPerSecond} state changes/s (${f.ingest.stateChanges} state changes, the run's \`send_tx\` transfers included; start-up included); once serving (from the follower's first answer, start-up left out): ${f.ingest.servingBlocksPerSecond} blocks/s, ${f.ingest.servingStateChangesPerSecond} state changes/s; follower start to first answer ${f.ingest.startupMs} ms; follower peak RSS ${f.ingest.followerPeakRssMb} MB`,
    f.dense
      ? `- Catch-up, dense stretch (heights ${f.dense.firstHeight}..${f.dense.lastHeight}, the dataset's stream of transfers; ${f.dense.blocks} blocks timed inside the whole catch-up, ${Math.round(f.dense.stateChanges / f.dense.blocks)} state changes per block): ${f.dense.stateChangesPerSecond} state changes/s (${f.dense.stateChanges} in ${f.dense.seconds} s; target 20,000/s), ${f.dense.blocksPerSecond} blocks/s`
      : '- Catch-up, dense stretch: not timed (the follower passed it between two polls)',
    '',
    '| read | producer req/s (two runs) | follower req/s (two runs) | follower / producer (target ≥ 0.9) | CPU µs per request, producer / follower |',
    '|---|---:|---:|---:|---:|',
    ...f.reads.map(
      (r) =>
        `| ${r.name} | ${r.producer.rps} (${r.producer.runs?.join(', ')}) | ${r.follower.rps} (${r.follower.runs?.join(', ')}) | ${r.ratio} | ${r.producer.cpuUsPerRequest ?? '–'} / ${r.follower.cpuUsPerRequest ?? '–'} |`,
    ),
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const P = benchParams(process.argv.includes('--quick'));
  const cache = join(import.meta.dirname, '..', '.cache');
  const results = join(import.meta.dirname, '..', 'results');
  const log = (m) => process.stderr.write(`${m}\n`);
  mkdirSync(cache, { recursive: true });
  mkdirSync(results, { recursive: true });
  const { home, meta } = await buildDataset(cache, P, log);
  const f = await measureFollower({ cache, home, meta, P, log });
  writeFileSync(
    join(results, `follow-${P.name}.json`),
    `${JSON.stringify({ mode: P.name, date: new Date().toISOString(), ...f }, null, 2)}\n`,
  );
  const md = `${followerMarkdown(f)}\n`;
  writeFileSync(join(results, `follow-${P.name}.md`), md);
  process.stdout.write(md);
}
