// The command line's own refusals: usage errors name what is wrong instead of starting anything.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { main, UsageError, VERSION } from '@nearlite/node';
import { Store } from '@nearlite/store';
import t from 'tap';
import { initHome, startNode } from '../../../test/helpers/node.js';
import { tempDir } from '../../../test/helpers/tmp.js';

const CLI = join(import.meta.dirname, '..', 'bin', 'nearlite.js');

t.test('version, help and usage', async (t) => {
  const { status, stdout } = spawnSync(process.execPath, [CLI, '--version'], { encoding: 'utf8' });
  t.equal(status, 0);
  t.equal(stdout, `${VERSION}\n`);
  const help = spawnSync(process.execPath, [CLI, '--help'], { encoding: 'utf8' });
  t.equal(help.status, 0);
  t.match(help.stdout, /Usage:/);
  t.equal(spawnSync(process.execPath, [CLI], { encoding: 'utf8' }).status, 2, 'no command: usage, exit 2');
  // A command's own usage, wherever the flag stands, and nothing started.
  const home = tempDir(t);
  for (const [args, shows, hides] of [
    [['run', '--help'], /nearlite run +--home DIR --follow SOURCE/, /nearlite init/],
    [['--home', home, 'run', '-h'], /nearlite run +--home DIR \[--rpc-addr/, /nearlite serve/],
    [['help', 'inspect'], /nearlite inspect --home DIR block/, /nearlite run/],
    [['start', '--rpc-addr', '127.0.0.1:0', '--help'], /nearlite start \[--home DIR\]/, /nearlite repair/],
    [
      ['--home', home, 'view-state', 'dump-state', '--help'],
      /view-state dump-state \[--stream\]/,
      /nearlite init/,
    ],
  ] as const) {
    const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
    t.equal(r.status, 0, `${args.join(' ')}: exit 0`);
    t.match(r.stdout, shows, `${args.join(' ')}: its usage`);
    t.notMatch(r.stdout, hides, `${args.join(' ')}: no other command's`);
  }
  t.notOk(existsSync(join(home, 'data')), 'help runs nothing');
  const after = spawnSync(process.execPath, [CLI, 'init', '--home', join(home, 'x'), '--', '--help'], {
    encoding: 'utf8',
  });
  t.not(after.status, 0, 'after `--` it is an argument, refused as any other');
});

// The launchers are commands of their own: their first line sets the malloc settings `nearlite.js`
// explains, which `npm start`, the `nearlite` command and near-workspaces' `near-sandbox` all get.
t.test('the launchers run as commands, with their malloc settings', async (t) => {
  for (const name of ['nearlite.js', 'near-sandbox.js']) {
    const bin = join(import.meta.dirname, '..', 'bin', name);
    // A preloaded module prints what the launched Node.js process sees.
    const shown = 'data:text/javascript,console.log(process.env.GLIBC_TUNABLES)';
    const env = { ...process.env, NODE_OPTIONS: `--import=${shown}` };
    delete env.GLIBC_TUNABLES;
    const r = spawnSync(bin, ['--version'], { encoding: 'utf8', env });
    t.equal(r.status, 0, `${name} runs by itself`);
    const [tunables, version] = r.stdout.split('\n');
    t.equal(version, VERSION);
    const settings = new Map(tunables!.split(':').map((kv) => kv.split('=') as [string, string]));
    t.equal(settings.get('glibc.malloc.mmap_threshold'), String(4 * 1024 * 1024), `${name}: mmap threshold`);
    t.equal(settings.get('glibc.malloc.trim_threshold'), String(32 * 1024 * 1024), `${name}: trim threshold`);
  }
});

t.test('usage errors', async (t) => {
  await t.rejects(main(['bogus']), UsageError, 'an unknown command');
  await t.rejects(
    main(['--home', '/nowhere', 'view-state', 'apply-range']),
    { name: 'UsageError', message: /only `dump-state \[--stream\] \[--file PATH\]/ },
    "nearcore's other state-viewer tools",
  );
  await t.rejects(main(['view-state', 'dump-state']), { name: 'UsageError', message: /--home/ });
  await t.rejects(
    main(['run', '--home', 'view-state', '--bogus-flag']),
    { name: 'UsageError', message: /^unknown option '--bogus-flag'/ },
    'a home named view-state is a home, not the command',
  );
  await t.rejects(main(['--home', '/nowhere', 'view-state', 'dump-state']), {
    name: 'StateDumpError',
    message: /no genesis\.json/,
  });
  await t.rejects(main(['run']), { name: 'UsageError', message: /--home/ }, 'run without a home');
  for (const url of ['garbage', 'http://', 'ftp://host/']) {
    await t.rejects(
      main(['run', '--home', '/nowhere', '--follow', 'file:/nowhere', '--upstream-rpc', url]),
      { name: 'UsageError', message: /--upstream-rpc must be an http\(s\):\/\/ URL/ },
      `--upstream-rpc ${url}`,
    );
  }
  await t.rejects(main(['init']), { name: 'UsageError', message: /--home/ }, 'init without a home');
  await t.rejects(main(['inspect']), { name: 'UsageError', message: /--home/ });
  await t.rejects(
    main(['init', '--home', tempDir(t), '--shards', 'two']),
    { name: 'UsageError', message: /--shards/ },
    'a non-numeric flag',
  );
  await t.rejects(
    main(['--no-such-flag']),
    {
      name: 'UsageError',
      message: "unknown option '--no-such-flag' (nearlite --help lists each command's options)",
    },
    'an unknown flag is refused by the parser, named',
  );
  // `start` would have run a sandbox that produces blocks, with the flags of `run` ignored.
  const home = tempDir(t);
  await t.rejects(
    main(['start', '--home', home, '--follow', 'http://127.0.0.1:1']),
    { name: 'UsageError', message: /start takes --home and --rpc-addr only, not --follow/ },
    'start with a flag of run',
  );
  await t.rejects(main(['start', '--home', home, '--archive', '--block-time', '50']), {
    name: 'UsageError',
    message: /not --archive, --block-time/,
  });
  t.notOk(existsSync(join(home, 'genesis.json')), 'nothing was initialised');
  // A listening address is nearcore's SocketAddr: an IP address and a port.
  for (const addr of ['127.0.0.1', 'abc:3511', '127.0.0.1:70000']) {
    await t.rejects(
      main(['run', '--home', home, '--rpc-addr', addr]),
      {
        name: 'UsageError',
        message: `--rpc-addr: invalid socket address syntax: '${addr}' (an IP address and a port, as 0.0.0.0:3030)`,
      },
      `--rpc-addr ${addr}`,
    );
  }
  t.notOk(existsSync(join(home, 'genesis.json')), 'nothing was initialised');
  const help = spawnSync(process.execPath, [CLI, 'help', 'bogus'], { encoding: 'utf8' });
  t.equal(help.status, 2, 'help for a command there is not: exit 2');
  t.match(help.stderr, /unknown command 'bogus'/);
});

// The S3 flags configure an S3 target or source; where there is none they would be ignored.
t.test('S3 flags without an S3 target or source are refused', async (t) => {
  const home = tempDir(t);
  const cases: [string[], RegExp][] = [
    [
      ['run', '--home', home, '--s3-endpoint', 'http://127.0.0.1:1'],
      /--s3-endpoint apply to --lake-out s3:\/\/BUCKET\[\/PREFIX\], which was not given/,
    ],
    [
      ['run', '--home', home, '--lake-out', join(home, 'lake'), '--s3-region', 'r'],
      /--s3-region apply to --lake-out s3:\/\/BUCKET\[\/PREFIX\], not /,
    ],
    [
      ['run', '--home', home, '--follow', 'http://127.0.0.1:1', '--s3-endpoint', 'http://x'],
      /--s3-endpoint apply to an s3:\/\/ source, not http:\/\/127\.0\.0\.1:1/,
    ],
    [
      [
        'lake-export',
        '--home',
        home,
        '--out',
        join(home, 'out'),
        '--s3-prefix',
        'p',
        '--s3-endpoint',
        'http://x',
      ],
      /--s3-endpoint, --s3-region|--s3-endpoint, --s3-prefix apply to --s3-bucket, and lake-export was given --out/,
    ],
  ];
  for (const [args, message] of cases)
    await t.rejects(main(args), { name: 'UsageError', message }, args.join(' '));
  t.notOk(existsSync(join(home, 'out')), 'nothing was exported');
});

// One parser reads every command's flags: a flag of another command was taken and ignored.
t.test('a flag of another command is refused, naming it', async (t) => {
  const home = tempDir(t);
  const cases: [string[], RegExp][] = [
    [
      ['run', '--home', home, '--follow', 'file:/nowhere', '--lake-out', '/tmp/lake'],
      /run --follow does not take --lake-out/,
    ],
    [
      ['run', '--home', home, '--follow', 'file:/nowhere', '--block-time', '5', '--sandbox'],
      /run --follow does not take --block-time, --sandbox/,
    ],
    [['run', '--home', home, '--genesis', 'g.json'], /run does not take --genesis/],
    [['run', '--home', home, '--out', '/tmp/o'], /run does not take --out/],
    [['init', '--home', home, '--archive'], /init does not take --archive/],
    [
      ['lake-export', '--home', home, '--out', '/tmp/o', '--block-time', '5'],
      /lake-export does not take --block-time/,
    ],
    [['repair', '--home', home, '--archive'], /repair does not take --archive/],
    [['inspect', '--home', home, '--follow', 'x', 'verify'], /inspect does not take --follow/],
    [['serve', '--home', home, '--archive'], /serve does not take --archive/],
    [['run', '--home', home, '--shard-db', '0=postgres://h/d'], /--store needs --follow SOURCE/],
  ];
  for (const [argv, message] of cases)
    await t.rejects(main(argv), { name: 'UsageError', message }, argv.join(' '));
  t.notOk(existsSync(join(home, 'genesis.json')), 'nothing was initialised');
  t.notOk(existsSync(join(home, 'data')), 'no database was opened');
});

t.test('a Lake directory missing at start is waited for, with a warning', async (t) => {
  const home = tempDir(t);
  initHome(home);
  const lake = join(tempDir(t), 'not-yet');
  const node = await startNode(home, ['--follow', `file:${lake}`]);
  t.teardown(() => node.stop());
  t.match(
    node.logs(),
    `--follow file:${lake}: no such directory yet; waiting for blocks to be published there`,
  );
  const { body } = await node.rpc<{ sync_info: { latest_block_height: number } }>('status', []);
  t.ok(body.result, 'the follower serves while it waits');
});

t.test('inspect of a store that holds no block yet says so', async (t) => {
  const home = tempDir(t);
  initHome(home);
  // A database with nothing in it (as a repair that reached genesis leaves one).
  await (await Store.open(join(home, 'data'))).close();
  for (const what of [['chunk'], ['account', 'test.near'], ['block'], ['state', 'test.near']])
    await t.rejects(
      main(['inspect', '--home', home, ...what]),
      { name: 'InspectError', message: 'the store holds no block yet' },
      what[0],
    );
});
