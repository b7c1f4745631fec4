// nearcore's dynamic config on a running node: config.json's `expected_shutdown` stops a producer or
// a follower by itself at that height, cleanly, and SIGHUP reads it and log_config.json again.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { editConfig, initHome, type RunningNode, refused, startNode, waitForHeight } from './helpers/node.js';
import { tempDir } from './helpers/tmp.js';

const cleanStopHeight = (home: string) =>
  (JSON.parse(readFileSync(join(home, 'clean_stop.json'), 'utf8')) as { height: number }).height;

async function until(what: string, node: RunningNode, cond: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(
    `${what} did not happen; the node's last log lines:\n${node.logs().split('\n').slice(-20).join('\n')}`,
  );
}

const metrics = async (node: RunningNode) => (await fetch(`${node.url}/metrics`)).text();
const head = async (node: RunningNode) =>
  (await node.rpc<{ header: { height: number } }>('block', { finality: 'optimistic' })).body.result!.header
    .height;

t.test('a producer stops by itself at expected_shutdown, and makes no block above it', async (t) => {
  const home = tempDir(t);
  initHome(home);
  editConfig(home, (c) => ({ ...c, expected_shutdown: 8 }));
  const node = await startNode(home, ['--block-time', '1']);
  t.teardown(() => node.kill());
  t.equal(await node.exited, 0, 'exit status 0');
  t.match(
    node.logs(),
    /"level":30,[^\n]*"msg":"Expected shutdown triggered: head block\(8\) >= \(8\)"/,
    "nearcore's line",
  );
  t.match(
    node.logs(),
    /"level":40,[^\n]*"msg":"expected_shutdown reached, stopping\.\.\. this may take a few minutes\."/,
    'and a warning a warn-level log keeps',
  );
  t.match(node.logs(), /"msg":"stopped"/, 'a clean stop');
  t.equal(cleanStopHeight(home), 8, 'its head is the height');

  const again = await startNode(home, ['--block-time', '50']);
  t.teardown(() => again.kill());
  t.equal(await again.exited, 0, 'started again, it stops at once');
  t.match(again.logs(), /Expected shutdown triggered: head block\(8\) >= \(8\)/);
  t.equal(cleanStopHeight(home), 8, 'without a block more');
});

t.test('SIGHUP reads config.json and log_config.json again', async (t) => {
  const home = tempDir(t);
  initHome(home);
  editConfig(home, (c) => ({ ...c, log_summary_period: { secs: 0, nanos: 100_000_000 } }));
  const node = await startNode(home, ['--block-time', '50']);
  t.teardown(() => node.kill());
  await waitForHeight(node, 3);
  const expectedShutdown = async () =>
    (await node.rpc<{ expected_shutdown: string }>('client_config', [])).body.result!.expected_shutdown;
  t.equal(await expectedShutdown(), 'null', 'none at the start, as nearcore writes it');
  t.match(await metrics(node), /near_config_reloads_total 1\n/);

  writeFileSync(join(home, 'log_config.json'), '{ "rust_log": "info,stats=warn" }');
  editConfig(home, (c) => ({ ...c, expected_shutdown: 1_000_000_000 }));
  node.proc.kill('SIGHUP');
  await until('the reload', node, () =>
    node.logs().includes("Updated config field 'expected_shutdown' from None to Some(1000000000)"),
  );
  t.equal(await expectedShutdown(), '1000000000', 'client_config says the new height');
  const text = await metrics(node);
  t.match(text, /near_config_reloads_total 2\n/);
  t.match(text, /near_config_correct 1\n/);
  t.match(text, /near_config_mutable_field\{field_name="expected_shutdown",timestamp="\d+",value="None"\} 0/);
  t.match(text, /value="Some\(1000000000\)"\} 1/);
  // The status line comes every 100 ms: over 20 blocks (~1 s) after the reload, none is logged.
  const reloadedAt = node.logs().length;
  await waitForHeight(node, (await head(node)) + 20);
  t.notMatch(
    node.logs().slice(reloadedAt),
    /"target":"stats"/,
    "log_config.json's stats=warn hides the status line",
  );

  rmSync(join(home, 'log_config.json'));
  const removedAt = node.logs().length;
  node.proc.kill('SIGHUP');
  await until('the status line again', node, () => node.logs().slice(removedAt).includes('"target":"stats"'));
  t.pass('without log_config.json the filter is the start one again');

  writeFileSync(join(home, 'log_config.json'), '{ "rust_log": ');
  node.proc.kill('SIGHUP');
  await until('the refusal', node, () => node.logs().includes('Dynamically updatable configs are not valid'));
  t.match(
    await metrics(node),
    /near_config_correct 0\n/,
    'a file that cannot be read is said in the metrics',
  );
  const at = await head(node);
  await waitForHeight(node, at + 3);
  t.pass('and the node goes on');

  rmSync(join(home, 'log_config.json'));
  const stopAt = (await head(node)) + 40;
  editConfig(home, (c) => ({ ...c, expected_shutdown: stopAt }));
  node.proc.kill('SIGHUP');
  t.equal(await node.exited, 0, 'a height set by SIGHUP stops the node');
  t.match(
    node.logs(),
    new RegExp(`Expected shutdown triggered: head block\\(${stopAt}\\) >= \\(${stopAt}\\)`),
  );
  t.equal(cleanStopHeight(home), stopAt, 'at that height');
});

t.test('a follower stops by itself once it has followed to expected_shutdown', async (t) => {
  const chainHome = tempDir(t);
  initHome(chainHome);
  const producer = await startNode(chainHome, ['--block-time', '50']);
  t.teardown(() => producer.stop());
  await waitForHeight(producer, 30);
  const home = join(chainHome, 'follower');
  initHome(home, ['--genesis', join(chainHome, 'genesis.json')]);
  editConfig(home, (c) => ({ ...c, expected_shutdown: 12 }));
  const follower = await startNode(home, ['--follow', producer.url]);
  t.teardown(() => follower.kill());
  t.equal(await follower.exited, 0, 'exit status 0');
  t.match(follower.logs(), /Expected shutdown triggered: head block\(12\) >= \(12\)"/);
  t.match(follower.logs(), /"msg":"stopped"/);

  // Started again, it says where its history ends, and stops at once.
  const again = await startNode(home, ['--follow', producer.url]);
  t.teardown(() => again.kill());
  t.equal(await again.exited, 0);
  t.match(
    again.logs(),
    /Expected shutdown triggered: head block\(12\) >= \(12\)/,
    'nothing above 12 was written',
  );
});

t.test('SIGHUPs and a SIGTERM while an expected shutdown stops the node leave it a clean exit', async (t) => {
  const home = tempDir(t);
  initHome(home);
  editConfig(home, (c) => ({ ...c, expected_shutdown: 6 }));
  const node = await startNode(home, ['--block-time', '50']);
  t.teardown(() => node.kill());
  const exited = node.exited;
  let done = false;
  void exited.then(() => {
    done = true;
  });
  // A SIGHUP every 10 ms from the start to the exit, so some come during the stop and after it.
  let termSent = false;
  while (!done) {
    node.proc.kill('SIGHUP');
    if (!termSent && node.logs().includes('expected_shutdown reached')) {
      node.proc.kill('SIGTERM');
      termSent = true;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  t.equal(await exited, 0, 'exit status 0');
  t.equal(node.proc.signalCode, null, `not ended by a signal (${node.proc.signalCode})`);
  t.match(node.logs(), /"msg":"stopped"/, 'a clean stop');
  t.equal(cleanStopHeight(home), 6);
  if (termSent)
    t.notMatch(node.logs(), /again while stopping/, 'the SIGTERM was not taken for a second signal');
});

t.test(
  'log_config.json: one that cannot be read stops the start; a filter the log cannot take does not',
  async (t) => {
    const home = tempDir(t);
    initHome(home);
    writeFileSync(join(home, 'log_config.json'), '{ "rust_log": ');
    refused(t, ['run', '--home', home, '--rpc-addr', '127.0.0.1:0'], /log_config\.json/, 'JSON cut short');
    writeFileSync(join(home, 'log_config.json'), '{ "rust_log": "info,stats=loud" }');
    editConfig(home, (c) => ({ ...c, expected_shutdown: 3 }));
    const node = await startNode(home, ['--block-time', '50']);
    t.teardown(() => node.kill());
    t.equal(await node.exited, 0, 'it starts, and stops at expected_shutdown');
    t.match(
      node.logs(),
      /Failed to update the logging layer according to the changed `log_config.json`. Errors: .*stats=loud/,
    );
    rmSync(join(home, 'log_config.json'));
    editConfig(home, (c) => ({ ...c, expected_shutdown: -1 }));
    refused(
      t,
      ['run', '--home', home, '--rpc-addr', '127.0.0.1:0'],
      /expected_shutdown must be a block height or null/,
      'a height that is none',
    );
  },
);
