// What an RPC answer has shown survives a SIGKILL; a second node on the same home is refused; a
// signal stops a node cleanly, whenever it comes.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import t from 'tap';
import { cli, initHome, spawnLogged, startNode, waitForHeight } from './helpers/node.js';
import { signFromValidator } from './helpers/signed_tx.js';
import { tempDir } from './helpers/tmp.js';

t.test('blocks an answer showed survive SIGKILL; the chain continues on restart', async (t) => {
  const home = tempDir(t);
  initHome(home);
  let node = await startNode(home, ['--block-time', '50']);
  t.teardown(() => node.stop());
  await waitForHeight(node, 5);
  const seen = await node.rpc<{ header: { height: number; hash: string } }>('block', {
    finality: 'optimistic',
  });
  const { height, hash } = seen.body.result!.header;
  await node.kill();

  node = await startNode(home, ['--block-time', '50']);
  t.teardown(() => node.stop());
  const again = await node.rpc<{ header: { height: number; hash: string } }>('block', { block_id: height });
  t.equal(again.body.result?.header.hash, hash, 'the block seen before the kill is still there');
  await waitForHeight(node, height + 3);
  const next = await node.rpc<{ header: { prev_hash: string } }>('block', { block_id: height + 1 });
  t.equal(next.body.result?.header.prev_hash, hash, 'production resumed on top of it');
});

t.test('a second process on the same home gets a clear error; SIGTERM exits cleanly', async (t) => {
  const home = tempDir(t);
  initHome(home);
  const node = await startNode(home, ['--block-time', '100']);
  t.teardown(() => node.stop());
  const second = cli(['run', '--home', home, '--rpc-addr', '127.0.0.1:0']);
  t.equal(second.status, 1);
  t.match(second.stderr, /already in use/);
  t.notMatch(second.stderr, /\n\s+at /, 'no stack trace');
  t.equal(await node.stop(), 0, 'SIGTERM exits with 0');
  t.ok(readdirSync(join(home, 'data')).includes('CURRENT'), 'LevelDB lives under <home>/data');
});

t.test('a signal while the node starts stops it once started; a second one ends the start', async (t) => {
  // A follower's start asks its --upstream-rpc for `status` (for up to 5 s): an upstream that holds
  // the answer back keeps the start waiting on it, so the signals land in the start. Its source
  // answers at once, with a first block and no others yet.
  let held: ServerResponse[] = [];
  const upstream = createServer((_req, res) => held.push(res));
  const source = createServer((req, res) => {
    if (req.url === '/v0/first_block') res.writeHead(302, { location: '/v0/block/1' }).end();
    else res.writeHead(404, { 'content-type': 'application/json' }).end('{"type":"BLOCK_DOES_NOT_EXIST"}');
  });
  for (const s of [upstream, source]) await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const res of held) res.destroy();
    upstream.close();
    source.close();
  });
  const address = (s: typeof source) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  const release = () => {
    for (const res of held) res.writeHead(500).end();
    held = [];
  };

  const starting = async () => {
    const home = tempDir(t);
    initHome(home);
    const { proc, logs, exited } = spawnLogged([
      'run',
      '--home',
      home,
      '--follow',
      address(source),
      '--upstream-rpc',
      address(upstream),
      '--rpc-addr',
      '127.0.0.1:0',
    ]);
    t.teardown(() => proc.kill('SIGKILL'));
    const until = async (done: () => boolean) => {
      while (!done()) {
        if (proc.exitCode !== null || proc.signalCode !== null)
          throw new Error(`nearlite ended (${proc.exitCode ?? proc.signalCode}):\n${logs()}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    await until(() => held.length > 0);
    return { proc, exited, logs, until };
  };

  const once = await starting();
  once.proc.kill('SIGTERM');
  await once.until(() => /SIGTERM, stopping once started\.\.\./.test(once.logs()));
  release();
  t.equal(await once.exited, 0, 'the node finished starting, then stopped cleanly');
  t.match(once.logs(), /once started[\s\S]*RPC on http/, 'it started after the signal');

  const twice = await starting();
  twice.proc.kill('SIGTERM');
  await twice.until(() => /stopping once started\.\.\./.test(twice.logs()));
  twice.proc.kill('SIGTERM');
  t.equal(await twice.exited, 1, 'a second signal ends the start');
  t.match(twice.logs(), /SIGTERM again while starting: exiting now/);
  t.notMatch(twice.logs(), /RPC on/);
  release();
});

t.test(
  'SIGHUP reloads the dynamic config and never ends the node; a stop says it finished; a second signal during it says so',
  async (t) => {
    const home = tempDir(t);
    initHome(home);
    const node = await startNode(home, ['--block-time', '50']);
    t.teardown(() => node.kill());
    await waitForHeight(node, 2);
    // nearcore reloads its dynamic config on SIGHUP; a terminal closing or a supervisor's reload must
    // not end the node (what the reload reads: dyn_config_cli.test.ts).
    node.proc.kill('SIGHUP');
    const seen = async (re: RegExp) => {
      for (let i = 0; i < 250 && !re.test(node.logs()); i++) await new Promise((r) => setTimeout(r, 20));
      return re.test(node.logs());
    };
    t.ok(await seen(/SIGHUP: reading log_config.json and config.json again/), 'SIGHUP is logged');
    const height = (await node.rpc<{ sync_info: { latest_block_height: number } }>('status', [])).body.result!
      .sync_info.latest_block_height;
    await waitForHeight(node, height + 2);
    t.equal(node.proc.exitCode, null, 'and the node goes on making blocks');
    t.equal(await node.stop(), 0);
    t.match(
      node.logs(),
      /SIGTERM, stopping\.\.\. this may take a few minutes\.[\s\S]*"msg":"stopped"/,
      'the log says the stop finished',
    );

    // A second signal while the node stops ends it where it is, and says so.
    const again = await startNode(home, ['--block-time', '50']);
    t.teardown(() => again.kill());
    const exited = new Promise<number | null>((resolve) => again.proc.once('exit', resolve));
    again.proc.kill('SIGTERM');
    for (let i = 0; i < 250 && !/SIGTERM, stopping\.\.\./.test(again.logs()); i++)
      await new Promise((r) => setTimeout(r, 5));
    again.proc.kill('SIGTERM');
    const code = await exited;
    if (/again while stopping/.test(again.logs())) {
      t.equal(code, 1, 'it exits at once');
      t.match(again.logs(), /SIGTERM again while stopping: exiting now, without a clean stop/);
    } else t.equal(code, 0, 'or the stop had finished before the second signal came');
  },
);

t.test(
  'a follower whose source has not said where its history begins answers RPC meanwhile, and stops at once',
  async (t) => {
    const held: ServerResponse[] = [];
    const source = createServer((req, res) => {
      if (req.url === '/v0/first_block') held.push(res);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
    t.teardown(() => {
      for (const res of held) res.destroy();
      source.close();
    });
    const home = tempDir(t);
    initHome(home);
    const node = await startNode(home, [
      '--follow',
      `http://127.0.0.1:${(source.address() as AddressInfo).port}`,
    ]);
    t.teardown(() => node.kill());
    while (held.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    // As nearcore's RPC while its node syncs: a load balancer learns the node is not ready, rather than
    // finding nothing listening.
    const status = await node.rpc<{ sync_info: { syncing: boolean } }>('status', []);
    t.equal(status.body.result?.sync_info.syncing, true, 'status: syncing');
    const health = await fetch(`${node.url}/health`);
    t.equal(health.status, 503, 'GET /health: 503');
    const rpcHealth = await node.rpc('health', []);
    t.match(rpcHealth.body.error, { cause: { name: 'NODE_IS_SYNCING' } }, 'health: NODE_IS_SYNCING');
    t.equal(held.length, 1, 'the first block is still being asked for');
    t.equal(await node.stop(), 0, 'it stops without waiting for the source');
    t.match(node.logs(), /"msg":"stopped"/);
  },
);

t.test('init writes a nearcore-style home; opening it the other way round is refused', async (t) => {
  const home = tempDir(t);
  initHome(home, ['--shards', '4', '--epoch-length', '7']);
  const files = readdirSync(home).sort();
  t.same(files, ['config.json', 'genesis.json', 'node_key.json', 'validator_key.json']);
  const node = await startNode(home, ['--block-time', '100', '--archive']);
  t.teardown(() => node.stop());
  await node.stop();
  const gc = cli(['run', '--home', home, '--rpc-addr', '127.0.0.1:0']);
  t.equal(gc.status, 1);
  t.match(gc.stderr, /archival store/);
});

t.test('archive on a GC home keeps every block from then on, as nearcore opens an RPC store', async (t) => {
  const home = tempDir(t);
  initHome(home, ['--epoch-length', '5']);
  let node = await startNode(home, ['--block-time', '50']);
  await waitForHeight(node, 3);
  t.equal(await node.stop(), 0);
  node = await startNode(home, ['--block-time', '50', '--archive']);
  t.teardown(() => node.stop());
  t.match(node.logs(), /archive on a garbage-collected store: every block from here on is kept/);
  const storage = await node.rpc<{ hot_db_kind: string }>('EXPERIMENTAL_split_storage_info', {});
  t.equal(
    storage.body.result?.hot_db_kind,
    'RPC',
    "the store stays a GC store, as nearcore's hot_db_kind says",
  );
  // Five epochs of five blocks kept and more: nothing is collected.
  await waitForHeight(node, 40);
  const status = await node.rpc<{ sync_info: { earliest_block_height: number } }>('status', []);
  t.equal(status.body.result?.sync_info.earliest_block_height, 0, 'nothing collected');
  t.equal(await node.stop(), 0);
  node = await startNode(home, ['--block-time', '50']);
  t.ok(node.url, 'and it runs as a GC node again');
  t.equal(await node.stop(), 0);
});

/** A home whose node has made a couple of blocks and stopped. */
async function producedHome(t: Tap.Test): Promise<string> {
  const home = tempDir(t);
  initHome(home);
  const node = await startNode(home, ['--block-time', '100']);
  t.teardown(() => node.stop());
  await waitForHeight(node, 2);
  await node.stop();
  return home;
}

/** A follower's home that has started on `lake` (an empty stream) and stopped. */
async function followedHome(t: Tap.Test, lake: string, init: readonly string[] = []): Promise<string> {
  const home = tempDir(t);
  initHome(home, init);
  const f = await startNode(home, ['--follow', `file:${lake}`]);
  t.teardown(() => f.stop());
  await f.stop();
  return home;
}

t.test("a producer's home is refused to a follower, and a follower's to a producer", async (t) => {
  const home = await producedHome(t);
  const lake = tempDir(t);
  const follower = cli(['run', '--home', home, '--follow', `file:${lake}`, '--rpc-addr', '127.0.0.1:0']);
  t.equal(follower.status, 1);
  t.match(follower.stderr, /holds the chain a node produced there; a follower needs a home of its own/);
  t.notMatch(follower.stderr, /\n\s+at /, 'no stack trace');

  const followed = await followedHome(t, lake);
  const producer = cli(['run', '--home', followed, '--rpc-addr', '127.0.0.1:0']);
  t.equal(producer.status, 1);
  t.match(producer.stderr, /holds a followed chain's history/);
  const again = await startNode(home, ['--block-time', '100']);
  t.teardown(() => again.stop());
  await waitForHeight(again, 4);
  t.pass('the producer goes on on its own home');
});

t.test('a genesis.json edited after the first start is refused; one only reformatted is not', async (t) => {
  const home = await producedHome(t);
  const path = join(home, 'genesis.json');
  const original = readFileSync(path, 'utf8');
  const genesis = JSON.parse(original) as Record<string, unknown>;
  // Keys in another order, no indentation: the same genesis.
  const reordered = Object.fromEntries(Object.entries(genesis).reverse());
  writeFileSync(path, JSON.stringify(reordered));
  const same = await startNode(home, ['--block-time', '100']);
  t.teardown(() => same.stop());
  await same.stop();
  for (const [field, value] of [
    ['chain_id', 'another'],
    ['epoch_length', 7],
  ] as const) {
    writeFileSync(path, JSON.stringify({ ...genesis, [field]: value }, null, 2));
    const edited = cli(['run', '--home', home, '--rpc-addr', '127.0.0.1:0']);
    t.equal(edited.status, 1, field);
    t.match(edited.stderr, /is not the genesis this store was made from/, field);
    t.notMatch(edited.stderr, /\n\s+at /, 'no stack trace');
  }
  writeFileSync(path, original);
  const back = await startNode(home, ['--block-time', '100']);
  t.teardown(() => back.stop());
  await waitForHeight(back, 4);
  t.pass('the original genesis runs the chain on');
  await back.stop();

  // A follower's history is refused the same way.
  const lake = tempDir(t);
  const followed = await followedHome(t, lake, ['--genesis', path]);
  writeFileSync(join(followed, 'genesis.json'), JSON.stringify({ ...genesis, chain_id: 'another' }));
  const edited = cli(['run', '--home', followed, '--follow', `file:${lake}`, '--rpc-addr', '127.0.0.1:0']);
  t.equal(edited.status, 1);
  t.match(edited.stderr, /is not the genesis this store was made from/);
});

t.test('a genesis nearcore would refuse is refused at init and at start, every failure named', async (t) => {
  const home = tempDir(t);
  initHome(home);
  const path = join(home, 'genesis.json');
  const genesis = JSON.parse(readFileSync(path, 'utf8')) as { total_supply: string; records: unknown[] };
  // A supply that is not the records' sum, and a key of an account no record makes.
  const bad = {
    ...genesis,
    total_supply: (BigInt(genesis.total_supply) + 1n).toString(),
    records: [
      ...genesis.records,
      {
        AccessKey: {
          account_id: 'nobody.near',
          public_key: 'ed25519:KuTCtARNzxZQ3YvXDeLjx83FDqxv2SdQTSbiq876zR7',
          access_key: { nonce: 0, permission: 'FullAccess' },
        },
      },
    ],
  };
  writeFileSync(path, JSON.stringify(bad));
  const run = cli(['run', '--home', home, '--rpc-addr', '127.0.0.1:0']);
  t.equal(run.status, 1);
  t.match(run.stderr, "fails nearcore's genesis validation");
  t.match(run.stderr, `is not equal to the total supply = ${bad.total_supply} specified in genesis config.`);
  t.match(run.stderr, 'access key account nobody.near does not exist');
  t.notMatch(run.stderr, /\n\s+at /, 'no stack trace');
  t.notOk(existsSync(join(home, 'data', 'CURRENT')), 'nothing was written');
  const other = tempDir(t);
  const init = cli(['init', '--home', other, '--genesis', path]);
  t.equal(init.status, 1);
  t.match(init.stderr, 'access key account nobody.near does not exist');
});

t.test('a transaction acknowledged at INCLUDED survives SIGKILL', async (t) => {
  const { actions, KeyPair } = await import('near-api-js');
  const home = tempDir(t);
  initHome(home);
  const key = JSON.parse((await import('node:fs')).readFileSync(join(home, 'validator_key.json'), 'utf8'));
  // Blocks far apart: the answer comes when the chunks of the next block take the transaction, and
  // the kill comes before that block is made.
  let node = await startNode(home, ['--block-time', '3000']);
  t.teardown(() => node.stop());
  await waitForHeight(node, 1);
  const { hash, base64 } = await signFromValidator(node, key, 'kept.test.near', [
    actions.createAccount(),
    actions.transfer(10n ** 24n),
    actions.addFullAccessKey(KeyPair.fromRandom('ed25519').getPublicKey()),
  ]);
  const r = await node.rpc('send_tx', { signed_tx_base64: base64, wait_until: 'INCLUDED' });
  t.same(r.body.result, { final_execution_status: 'INCLUDED' }, 'in a chunk, not yet run: no outcome');
  await node.kill();
  node = await startNode(home, ['--block-time', '50']);
  t.teardown(() => node.stop());
  const status = await node.rpc<{ final_execution_status: string; status: unknown }>('tx', {
    tx_hash: hash,
    sender_account_id: 'test.near',
    wait_until: 'FINAL',
  });
  t.equal(status.body.result?.final_execution_status, 'FINAL');
  t.same(status.body.result?.status, { SuccessValue: '' });
  const account = await node.rpc<{ amount: string }>('query', {
    request_type: 'view_account',
    account_id: 'kept.test.near',
    finality: 'final',
  });
  t.equal(account.body.result?.amount, (10n ** 24n).toString());
});
