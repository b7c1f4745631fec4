// What the CLI refuses or warns of before it does anything: arguments it does not take, values
// nearcore's CLI refuses, a home that lost its config.json, and config.json fields nobody knows.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { editConfig, initHome, refused, startNode, waitForHeight } from './helpers/node.js';
import { tempDir } from './helpers/tmp.js';

t.test('arguments a command does not take are refused, named', async (t) => {
  const home = join(tempDir(t), 'home');
  initHome(home);
  refused(t, ['repair', '--home', home, 'extra'], /unexpected argument 'extra'$/m, 'repair');
  refused(t, ['run', '--home', home, 'now'], /unexpected argument 'now'$/m, 'run');
  // A flag of neard's that nearlite has not: named, with no advice to quote it as an argument.
  const stderr = refused(
    t,
    ['run', '--home', home, '--boot-nodes', 'x'],
    /^nearlite: unknown option '--boot-nodes' \(nearlite --help lists each command's options\)$/m,
    'an unknown flag',
  );
  t.notMatch(stderr, /positional/, 'no advice about positional arguments');
  // A negative value is the flag's to refuse, not Node's parser's "ambiguous" flag.
  refused(
    t,
    ['run', '--home', home, '--block-time', '-5'],
    /^nearlite: --block-time must be a non-negative integer below 2\^53, got '-5'$/m,
    'a negative block time',
  );
  refused(
    t,
    ['inspect', '--home', home, 'block', '0', 'extra'],
    /unexpected argument 'extra' for inspect block/,
    'inspect block',
  );
  refused(
    t,
    ['inspect', '--home', home, 'stats', 'all'],
    /unexpected argument 'all' for inspect stats/,
    'inspect stats',
  );
  refused(
    t,
    ['--home', home, 'view-state', 'dump-state', '--bogus'],
    /unknown flag --bogus for view-state dump-state/,
    'a dump-state flag',
  );
  refused(
    t,
    ['--home', home, 'view-state', 'dump-state', 'extra'],
    /unexpected argument 'extra' for view-state dump-state/,
    'a dump-state argument',
  );
});

t.test("inspect's arguments: each refused for what it is, never read as something else", async (t) => {
  const home = join(tempDir(t), 'home');
  initHome(home);
  const node = await startNode(home, ['--block-time', '50']);
  await waitForHeight(node, 2);
  await node.stop();
  const inspect = (...args: string[]) => ['inspect', '--home', home, ...args];
  refused(
    t,
    inspect('block', '-1'),
    /unexpected argument '-1': heights and shard ids are never negative/,
    '-1',
  );
  refused(t, inspect('chunk', '1', '-2'), /unexpected argument '-2'/, 'a negative shard');
  // Past 2^53 a height would be rounded to another one: named as given.
  for (const h of ['9007199254740993', '99999999999999999999'])
    refused(t, inspect('block', h), new RegExp(`'${h}' is not a block height`), h);
  // 32 ones is the base58 hash of 32 zero bytes, not a height.
  refused(t, inspect('block', '1'.repeat(32)), /^nearlite: no block 1{32}$/m, 'the zero hash');
  for (const what of ['chunk', 'account'])
    refused(
      t,
      inspect(what, ...(what === 'chunk' ? ['1'] : ['test.near']), '--prefix', 'k'),
      new RegExp(`--prefix goes with inspect state, not inspect ${what}`),
      `--prefix on ${what}`,
    );
  for (const what of ['account', 'state'])
    refused(
      t,
      inspect(what, 'BAD..'),
      /'BAD\.\.' is not an account id: the Account ID contains an invalid character 'B' at index 0/,
      `${what} of a bad id`,
    );
  // As view_state answers UNKNOWN_ACCOUNT, an account that does not exist is said to, not shown empty.
  refused(t, inspect('state', 'nobody.test.near'), /account nobody\.test\.near does not exist/, 'no account');
});

t.test('init refuses what nearcore refuses: an empty chain id, a number past u64', async (t) => {
  const dir = tempDir(t);
  refused(
    t,
    ['init', '--home', join(dir, 'a'), '--chain-id', ''],
    /--chain-id must not be empty/,
    'empty chain id',
  );
  refused(
    t,
    ['init', '--home', join(dir, 'b'), '--epoch-length', '99999999999999999999'],
    /--epoch-length must be a non-negative integer below 2\^53, got '99999999999999999999'/,
    'epoch length',
  );
  t.notOk(existsSync(join(dir, 'a')) || existsSync(join(dir, 'b')), 'no home is written');
});

t.test('a home that lost its config.json is refused, as nearcore refuses it', async (t) => {
  const home = join(tempDir(t), 'home');
  initHome(home);
  rmSync(join(home, 'config.json'));
  const missing = /Failed to read config from .*config\.json: the file is missing/;
  refused(t, ['run', '--home', home, '--rpc-addr', '127.0.0.1:0'], missing, 'run');
  refused(t, ['inspect', '--home', home, 'stats'], missing, 'inspect');
  // A directory init has not made is still told to run init.
  refused(t, ['run', '--home', join(home, 'nothing')], /run `nearlite init --home/, 'an empty home');
});

t.test('config.json fields neither nearcore nor nearlite knows are warned of at start', async (t) => {
  const home = join(tempDir(t), 'home');
  initHome(home);
  editConfig(home, (c) => ({
    ...c,
    archival: true,
    rpc: { ...c.rpc, api_key: ['k1'], rate_limit: { request_per_second: 5 } },
  }));
  const node = await startNode(home);
  t.teardown(() => node.stop());
  t.match(
    node.logs(),
    `${join(home, 'config.json')}: encountered unrecognised fields: rpc.api_key, rpc.rate_limit.request_per_second, archival`,
  );
  // nearcore's own fields, used here or not, are not.
  const clean = join(tempDir(t), 'clean');
  initHome(clean);
  editConfig(clean, (c) => ({
    ...c,
    network: { addr: '0.0.0.0:24567', boot_nodes: '' },
    tracked_shards_config: 'AllShards',
    view_client_threads: 4,
  }));
  const quiet = await startNode(clean);
  t.teardown(() => quiet.stop());
  t.notMatch(quiet.logs(), /unrecognised/);
});
