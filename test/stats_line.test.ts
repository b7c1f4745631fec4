// What an operator tailing a producer's log sees: nearcore's `stats` line every `log_summary_period`
// (chain/client/src/info.rs), at info level under the target "stats": the head, the node's part,
// peers and traffic, blocks and gas a second, CPU and memory.
import t from 'tap';
import { editConfig, initHome, startNode, waitForHeight } from './helpers/node.js';
import { tempDir } from './helpers/tmp.js';

const LINE =
  /^# *(\d+) +([1-9A-HJ-NP-Za-km-z]{43,44}) Validator \| 1 validator 0 peers ⬇ 0 B\/s ⬆ 0 B\/s (\d+\.\d\d) bps ([\d.]+ [kMGTPE]?gas\/s) CPU: \d+%, Mem: [\d.]+ [kMG]B$/;

t.test('a producer logs the stats line every log_summary_period', async (t) => {
  const home = tempDir(t);
  initHome(home);
  editConfig(home, (c) => ({ ...c, log_summary_period: { secs: 0, nanos: 200_000_000 } }));
  const node = await startNode(home, ['--block-time', '50']);
  t.teardown(() => node.stop());
  await waitForHeight(node, 5);
  const config = (await node.rpc<{ log_summary_period: unknown }>('client_config', [])).body.result!;
  t.same(
    config.log_summary_period,
    [0, 200_000_000],
    'client_config says the period, as nearcore writes a Duration',
  );
  const stats = () =>
    node
      .logs()
      .split('\n')
      .filter((l) => l.includes('"target":"stats"'))
      .map((l) => JSON.parse(l) as { level: number; msg: string });
  // Lines logged while the head was below 5 name it there: two more lines are waited for, each
  // logged after the head reached 5 (blocks come every 50 ms, a line every 200 ms).
  const seen = stats().length;
  for (let i = 0; i < 300 && stats().length < seen + 2; i++) await new Promise((r) => setTimeout(r, 100));
  const lines = stats();
  t.ok(lines.length >= seen + 2, `lines logged: ${lines.length}`);
  for (const l of lines) {
    t.equal(l.level, 30, 'info');
    t.match(l.msg, LINE, l.msg);
  }
  const last = LINE.exec(lines.at(-1)!.msg);
  t.ok(Number(last?.[1]) >= 5, 'the head it names has moved on');
  t.ok(
    lines.some((l) => Number(LINE.exec(l.msg)?.[3]) > 0),
    'blocks a second are counted',
  );
  const status = (await node.rpc<{ sync_info: { latest_block_hash: string } }>('status', [])).body.result!;
  t.ok(status.sync_info.latest_block_hash.length > 0);
});

t.test('RUST_LOG=info,stats=warn keeps the info lines and hides the stats line', async (t) => {
  const home = tempDir(t);
  initHome(home);
  editConfig(home, (c) => ({ ...c, log_summary_period: { secs: 0, nanos: 100_000_000 } }));
  const before = process.env.RUST_LOG;
  process.env.RUST_LOG = 'info,stats=warn';
  let node: Awaited<ReturnType<typeof startNode>>;
  try {
    node = await startNode(home, ['--block-time', '50']);
  } finally {
    if (before === undefined) delete process.env.RUST_LOG;
    else process.env.RUST_LOG = before;
  }
  t.teardown(() => node.stop());
  await waitForHeight(node, 20);
  t.match(node.logs(), /RPC on http/, 'info lines are logged');
  t.notMatch(node.logs(), /"target":"stats"/, 'the stats line is not, over ~20 periods');
});

t.test('a log_summary_period of zero is refused, naming the field', async (t) => {
  const home = tempDir(t);
  initHome(home);
  editConfig(home, (c) => ({ ...c, log_summary_period: { secs: 0, nanos: 0 } }));
  await t.rejects(startNode(home), /log_summary_period must be at least a millisecond/);
});
