// What an operator tailing a producer's log sees: nearcore's `stats` line every `log_summary_period`
// (chain/client/src/info.rs), at info level under the target "stats": the head, the node's part,
// peers and traffic, blocks and gas a second, CPU and memory.
import { join } from 'node:path';
import { actions } from 'near-api-js';
import t from 'tap';
import { editConfig, initHome, readKeyFile, startNode, waitForHeight } from './helpers/node.js';
import { signFromValidator } from './helpers/signed_tx.js';
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

// A follower's line: the stream names no validators, and one catching up says how far it has come.
const FOLLOWER_LINE =
  /^# *(\d+) +(?:[1-9A-HJ-NP-Za-km-z]{43,44}|Downloading blocks \d+\.\d\d% \(\d+ left; at \d+\)) 0 peers ⬇ 0 B\/s ⬆ 0 B\/s (\d+\.\d\d) bps (\d[\d.]* [kMGTPE]?gas)\/s CPU: \d+%, Mem: [\d.]+ [kMG]B$/;

t.test('a follower logs the stats line, counting the blocks it followed and their gas', async (t) => {
  const chainHome = tempDir(t);
  initHome(chainHome);
  const producer = await startNode(chainHome, ['--block-time', '50']);
  t.teardown(() => producer.stop());
  await waitForHeight(producer, 5);
  const home = join(chainHome, 'follower');
  initHome(home, ['--genesis', join(chainHome, 'genesis.json')]);
  editConfig(home, (c) => ({ ...c, log_summary_period: { secs: 0, nanos: 100_000_000 } }));
  const follower = await startNode(home, ['--follow', producer.url]);
  t.teardown(() => follower.stop());
  const tx = await signFromValidator(producer, readKeyFile(chainHome), 'near', [actions.transfer(1n)]);
  const sent = await producer.rpc<{ transaction_outcome: { block_hash: string } }>('send_tx', {
    signed_tx_base64: tx.base64,
    wait_until: 'FINAL',
  });
  t.ok(sent.body.result, 'a transfer is final on the producer');
  const head = (await producer.rpc<{ header: { height: number } }>('block', { finality: 'final' })).body
    .result!.header.height;
  await waitForHeight(follower, head + 10);
  const lines = () =>
    follower
      .logs()
      .split('\n')
      .filter((l) => l.includes('"target":"stats"'))
      .map((l) => JSON.parse(l) as { level: number; msg: string });
  // Lines are logged every 100 ms: the one after the head passed the transfer's blocks is waited for.
  for (let i = 0; i < 300 && !lines().some((l) => Number(FOLLOWER_LINE.exec(l.msg)?.[1]) > head); i++)
    await new Promise((r) => setTimeout(r, 100));
  const all = lines();
  t.ok(all.length > 0, `lines logged: ${all.length}`);
  for (const l of all) t.match(l.msg, FOLLOWER_LINE, l.msg);
  t.ok(
    all.some((l) => Number(FOLLOWER_LINE.exec(l.msg)?.[2]) > 0),
    'blocks a second are counted',
  );
  t.ok(
    all.some((l) => FOLLOWER_LINE.exec(l.msg)?.[3] !== '0 gas'),
    "the transfer's gas is counted",
  );
});
