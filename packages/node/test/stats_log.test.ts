// nearcore's `stats` line (chain/client/src/info.rs): its numbers as PrettyNumber writes them (the
// cases of nearcore's test_pretty_number), and the line as InfoHelper::info puts it together.
import t from 'tap';
import { formatStatsLine, prettyNumber, StatsLog } from '../src/stats_log.js';

t.test("prettyNumber writes nearcore's test_pretty_number cases", async (t) => {
  const cases: [string, number][] = [
    ['0 U', 0],
    ['1 U', 1],
    ['10 U', 10],
    ['100 U', 100],
    ['1.00 kU', 1_000],
    ['10.0 kU', 10_000],
    ['100 kU', 100_000],
    ['1.00 MU', 1_000_000],
    ['10.0 MU', 10_000_000],
    ['100 MU', 100_000_000],
    ['18.4 EU', Number(2n ** 64n - 1n)],
  ];
  for (const [want, n] of cases) t.equal(prettyNumber(n, 'U'), want, `${n}`);
});

const HASH = '5XVkcVH2DJ4kqm2uXvBmBu1r5cqBQtqUVB4LN1VLCVxG';

t.test("the line: the head, the node's part, peers, blocks and gas a second, CPU and memory", async (t) => {
  const line = {
    height: 74,
    hash: HASH,
    validators: { isValidator: true, count: 1 },
    blocks: 16,
    gasUsed: 2_500_000_000_000n,
    elapsedMs: 10_000,
    cpuPercent: 1.4,
    memoryBytes: 45_000_000,
  };
  t.equal(
    formatStatsLine(line),
    `#      74 ${HASH} Validator | 1 validator 0 peers ⬇ 0 B/s ⬆ 0 B/s 1.60 bps 250 Ggas/s CPU: 1%, Mem: 45.0 MB`,
  );
  t.equal(
    formatStatsLine({ ...line, validators: { isValidator: false, count: 4 }, gasUsed: 0n, blocks: 0 }),
    `#      74 ${HASH} 4 validators 0 peers ⬇ 0 B/s ⬆ 0 B/s 0.00 bps 0 gas/s CPU: 1%, Mem: 45.0 MB`,
    'a node that validates nothing, and an idle one',
  );
  t.equal(
    formatStatsLine({ ...line, validators: null }),
    `#      74 ${HASH} 0 peers ⬇ 0 B/s ⬆ 0 B/s 1.60 bps 250 Ggas/s CPU: 1%, Mem: 45.0 MB`,
    'where the validators are not known, none are named',
  );
});

t.test("a node catching up says so as nearcore's block sync does", async (t) => {
  const line = {
    height: 150,
    hash: HASH,
    validators: null,
    blocks: 500,
    gasUsed: 0n,
    elapsedMs: 10_000,
    cpuPercent: 97,
    memoryBytes: 345_000_000,
  };
  t.equal(
    formatStatsLine({ ...line, sync: { startHeight: 100, highestHeight: 200 } }),
    '#     150 Downloading blocks 50.00% (50 left; at 150) 0 peers ⬇ 0 B/s ⬆ 0 B/s 50.00 bps 0 gas/s CPU: 97%, Mem: 345 MB',
  );
  t.equal(
    formatStatsLine({ ...line, sync: { startHeight: 150, highestHeight: 150 } }),
    '#     150 Downloading blocks 0.00% (0 left; at 150) 0 peers ⬇ 0 B/s ⬆ 0 B/s 50.00 bps 0 gas/s CPU: 97%, Mem: 345 MB',
    'nothing to cover yet: 0 %',
  );
  t.equal(
    formatStatsLine({ ...line, sync: null }),
    `#     150 ${HASH} 0 peers ⬇ 0 B/s ⬆ 0 B/s 50.00 bps 0 gas/s CPU: 97%, Mem: 345 MB`,
    'in sync: the head hash',
  );
});

t.test('the log counts blocks and gas between two lines, then starts again', async (t) => {
  const lines: string[] = [];
  // A period no test outlasts: the lines are asked for.
  const stats = new StatsLog(
    { head: () => ({ height: 9, hash: HASH }), validators: () => ({ isValidator: true, count: 1 }) },
    (l) => lines.push(l),
    3_600_000,
  );
  t.teardown(() => stats.stop());
  stats.blockProcessed(1_000_000n);
  stats.blockProcessed(2_000_000n);
  await new Promise((r) => setTimeout(r, 20));
  stats.logNow();
  t.equal(lines.length, 1);
  const [bps, gas] = /([\d.]+) bps ([\d.]+ \w*gas\/s)/.exec(lines[0]!)!.slice(1);
  t.ok(Number(bps) > 0, `blocks counted: ${bps} bps`);
  t.match(gas, /[kMG]gas\/s$/, `gas counted: ${gas}`);
  t.match(lines[0], /^# {7}9 /, 'the head');
  stats.logNow();
  t.match(lines[1], / 0\.00 bps 0 gas\/s /, 'the next line counts from nothing');
});

t.test('a node with no head yet logs nothing', async (t) => {
  const lines: string[] = [];
  const stats = new StatsLog({ head: () => null, validators: () => null }, (l) => lines.push(l), 3_600_000);
  t.teardown(() => stats.stop());
  stats.blockProcessed(5n);
  stats.logNow();
  t.same(lines, []);
});
