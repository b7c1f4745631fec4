// What a node that keeps its own chain takes of config.json's `store`: snappy on its LevelDB when
// `compression` asks for it, and a refusal for a PostgreSQL store, which only a follower writes.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import t from 'tap';
import { cli, editConfig, initHome, refused, startNode, waitForHeight } from './helpers/node.js';
import { tempDir } from './helpers/tmp.js';

const MIB = 1024 * 1024;
const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64');

const setStore = (home: string, store: unknown) => editConfig(home, (c) => ({ ...c, store }));

/** Bytes of the home's LevelDB tables. */
function tableBytes(home: string): number {
  const dir = join(home, 'data');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ldb'))
    .reduce((n, f) => n + statSync(join(dir, f)).size, 0);
}

/**
 * Runs a sandbox node on the home, writes 2 MiB of zeros into the state (the trie's value, the flat
 * row and the block's state change each hold them), and stops it: a clean stop writes the memtable
 * out as tables, with the options the node opened its database with.
 */
async function zerosWritten(t: Tap.Test, store: unknown): Promise<number> {
  const home = tempDir(t);
  initHome(home);
  if (store !== undefined) setStore(home, store);
  const node = await startNode(home, ['--block-time', '50', '--sandbox']);
  t.teardown(() => node.stop());
  await waitForHeight(node, 2);
  const patch = await node.rpc('sandbox_patch_state', {
    records: [
      { Data: { account_id: 'test.near', data_key: b64('zeros'), value: b64(new Uint8Array(2 * MIB)) } },
    ],
  });
  t.same(patch.body.result, {}, 'patched');
  const view = await node.rpc<{ values: { key: string; value: string }[] }>('query', {
    request_type: 'view_state',
    account_id: 'test.near',
    prefix_base64: b64('zeros'),
    finality: 'optimistic',
  });
  t.equal(Buffer.from(view.body.result!.values[0]!.value, 'base64').length, 2 * MIB, 'the value reads back');
  t.equal(await node.stop(), 0, 'a clean stop');
  return tableBytes(home);
}

t.test(
  "store.compression: true gives a chain's database snappy tables; absent or false, plain ones",
  async (t) => {
    const plain = await zerosWritten(t, undefined);
    t.ok(
      plain >= 4 * MIB,
      `without store in config.json the zeros take their size, twice over (${plain} bytes)`,
    );
    const off = await zerosWritten(t, { kind: 'leveldb', compression: false });
    t.ok(off >= 4 * MIB, `compression: false, the same (${off} bytes)`);
    // Zeros shrink to a few percent under snappy: the whole database, genesis and blocks included,
    // stays under a megabyte.
    const snappy = await zerosWritten(t, { compression: true });
    t.ok(snappy < MIB, `compression: true (${snappy} bytes)`);
  },
);

t.test('the snappy tables are read back after a restart, and the chain goes on', async (t) => {
  const home = tempDir(t);
  initHome(home);
  setStore(home, { compression: true });
  let node = await startNode(home, ['--block-time', '50', '--sandbox']);
  t.teardown(() => node.stop());
  await waitForHeight(node, 2);
  await node.rpc('sandbox_patch_state', {
    records: [{ Data: { account_id: 'test.near', data_key: b64('k'), value: b64('kept') } }],
  });
  const at = (
    await node.rpc<{ header: { height: number; hash: string } }>('block', { finality: 'optimistic' })
  ).body.result!.header;
  await node.stop();
  node = await startNode(home, ['--block-time', '50', '--sandbox']);
  const again = await node.rpc<{ header: { hash: string } }>('block', { block_id: at.height });
  t.equal(again.body.result?.header.hash, at.hash, 'the block from before the stop');
  const view = await node.rpc<{ values: { value: string }[] }>('query', {
    request_type: 'view_state',
    account_id: 'test.near',
    prefix_base64: b64('k'),
    finality: 'optimistic',
  });
  t.equal(Buffer.from(view.body.result!.values[0]!.value, 'base64').toString(), 'kept');
  await waitForHeight(node, at.height + 3);
});

t.test('a PostgreSQL store in config.json is refused by a node that keeps its own chain', async (t) => {
  const home = tempDir(t);
  initHome(home);
  setStore(home, {
    kind: 'postgres',
    meta_url: 'postgres://127.0.0.1:1/meta',
    shard_urls: { '0': 'postgres://127.0.0.1:1/shard0' },
  });
  for (const args of [
    ['run', '--home', home, '--rpc-addr', '127.0.0.1:0'],
    ['start', '--home', home, '--rpc-addr', '127.0.0.1:0'],
  ]) {
    const stderr = refused(t, args, /store\.kind 'postgres' holds a followed history/, args[0]!);
    t.match(stderr, /run --follow SOURCE/);
  }
  t.notOk(existsSync(join(home, 'data')), 'no database was made');
});

t.test(
  'store.path puts the database where config.json names it, for the node and every command on the home',
  async (t) => {
    const home = tempDir(t);
    const db = join(tempDir(t), 'chain-db');
    initHome(home);
    setStore(home, { path: db });
    let node = await startNode(home, ['--block-time', '50', '--archive']);
    t.teardown(() => node.stop());
    await waitForHeight(node, 6);
    const at = (await node.rpc<{ header: { height: number; hash: string } }>('block', { finality: 'final' }))
      .body.result!.header;
    t.equal(await node.stop(), 0);
    t.ok(existsSync(join(db, 'CURRENT')), 'the LevelDB is at store.path');
    t.notOk(existsSync(join(home, 'data')), 'nothing under <home>/data');

    node = await startNode(home, ['--block-time', '50', '--archive']);
    const again = await node.rpc<{ header: { hash: string } }>('block', { block_id: at.height });
    t.equal(again.body.result?.header.hash, at.hash, 'a restart reads the same chain');
    t.match(node.logs(), /the store is as its clean stop/, 'and trusts the clean stop it recorded there');
    t.equal(await node.stop(), 0);

    const inspected = cli(['inspect', '--home', home, 'block', String(at.height)]);
    t.equal(inspected.status, 0, inspected.stderr);
    t.equal((JSON.parse(inspected.stdout) as { hash: string }).hash, at.hash, 'inspect');
    // A home given relative to the working directory, as an operator types it.
    const relative = cli(
      ['inspect', '--home', basename(home), 'block', String(at.height)],
      undefined,
      dirname(home),
    );
    t.equal(relative.status, 0, relative.stderr);
    t.equal(
      (JSON.parse(relative.stdout) as { hash: string }).hash,
      at.hash,
      'inspect with a relative --home',
    );
    const repaired = cli(['repair', '--home', home]);
    t.equal(repaired.status, 0, repaired.stderr);
    t.match(repaired.stdout, /every kept height is whole/, 'repair');
    const dumped = cli(['--home', home, 'view-state', 'dump-state']);
    t.equal(dumped.status, 0, dumped.stderr);
    t.ok(existsSync(join(home, 'output.json')), 'dump-state');
    const lake = join(tempDir(t), 'lake');
    const exported = cli(['lake-export', '--home', home, '--out', lake]);
    t.equal(exported.status, 0, exported.stderr);
    t.ok(existsSync(join(lake, String(at.height).padStart(12, '0'), 'block.json')), 'lake-export');
    t.notOk(existsSync(join(home, 'data')), 'still nothing under <home>/data');

    // A follower of that export with a relative store.path: its history goes under the home.
    const follower = join(tempDir(t), 'follower');
    initHome(follower, ['--genesis', join(home, 'genesis.json')]);
    setStore(follower, { path: 'history' });
    const f = await startNode(follower, ['--follow', `file:${lake}`, '--archive']);
    t.teardown(() => f.stop());
    await waitForHeight(f, at.height);
    const followed = await f.rpc<{ header: { hash: string } }>('block', { block_id: at.height });
    t.equal(followed.body.result?.header.hash, at.hash, 'the follower serves the block');
    t.equal(await f.stop(), 0);
    t.ok(existsSync(join(follower, 'history', 'CURRENT')), "the follower's LevelDB is at <home>/history");
    t.notOk(existsSync(join(follower, 'data')));
  },
);

t.test('a store.path that is not a directory name is refused before anything is opened', async (t) => {
  const home = tempDir(t);
  initHome(home);
  for (const path of [5, '', ['data']]) {
    setStore(home, { path });
    refused(
      t,
      ['run', '--home', home, '--rpc-addr', '127.0.0.1:0'],
      /store\.path must be a directory, relative to the home or absolute/,
      `store.path ${JSON.stringify(path)}`,
    );
  }
  t.notOk(existsSync(join(home, 'data')), 'no database was made');
});

t.test(
  "genesis_file, validator_key_file and node_key_file name the home's files, as nearcore reads them",
  async (t) => {
    const home = tempDir(t);
    const keys = tempDir(t);
    initHome(home);
    mkdirSync(join(home, 'files'));
    renameSync(join(home, 'genesis.json'), join(home, 'files', 'chain-genesis.json'));
    renameSync(join(home, 'validator_key.json'), join(keys, 'validator.json'));
    renameSync(join(home, 'node_key.json'), join(home, 'nk.json'));
    editConfig(home, (c) => ({
      ...c,
      genesis_file: 'files/chain-genesis.json',
      validator_key_file: join(keys, 'validator.json'),
      node_key_file: 'nk.json',
    }));
    const nodeKey = (JSON.parse(readFileSync(join(home, 'nk.json'), 'utf8')) as { public_key: string })
      .public_key;
    const validatorKey = (
      JSON.parse(readFileSync(join(keys, 'validator.json'), 'utf8')) as { public_key: string }
    ).public_key;

    let node = await startNode(home, ['--block-time', '50', '--sandbox']);
    t.teardown(() => node.stop());
    await waitForHeight(node, 3);
    const status = (await node.rpc<{ node_public_key: string; validator_public_key: string }>('status', []))
      .body.result!;
    t.equal(status.node_public_key, nodeKey, 'the node key from node_key_file');
    t.equal(
      status.validator_public_key,
      validatorKey,
      'the validator key from validator_key_file: it produces',
    );
    t.equal(await node.stop(), 0);
    t.notOk(existsSync(join(home, 'genesis.json')), 'no genesis.json was written');

    const inspected = cli(['inspect', '--home', home, 'block']);
    t.equal(inspected.status, 0, `inspect reads the chain with the named genesis: ${inspected.stderr}`);
    const started = await startNode(home, ['--block-time', '50', '--sandbox']);
    await started.stop();
    t.notOk(existsSync(join(home, 'genesis.json')), '`run` again: still the named files');

    // The dump's directory is a home of its own, its config naming the files it wrote there.
    const dumped = cli(['--home', home, 'view-state', 'dump-state', '--stream']);
    t.equal(dumped.status, 0, dumped.stderr);
    const out = join(home, 'output');
    const outConfig = JSON.parse(readFileSync(join(out, 'config.json'), 'utf8')) as Record<string, unknown>;
    t.same(
      [outConfig.genesis_file, outConfig.validator_key_file, outConfig.node_key_file],
      ['genesis.json', 'validator.json', 'nk.json'],
    );
    node = await startNode(out, ['--block-time', '50', '--sandbox']);
    const dumpedStatus = (await node.rpc<{ validator_public_key: string }>('status', [])).body.result!;
    t.equal(dumpedStatus.validator_public_key, validatorKey, 'a node runs in the dump directory');
    t.equal(await node.stop(), 0);

    // nearcore's load_config fails without the node key ("Failed reading node key file from …").
    renameSync(join(home, 'nk.json'), join(home, 'nk.json.gone'));
    refused(
      t,
      ['run', '--home', home, '--rpc-addr', '127.0.0.1:0'],
      /Failed reading node key file from .*nk\.json: it does not exist/,
      'no node key file',
    );
    renameSync(join(home, 'nk.json.gone'), join(home, 'nk.json'));

    editConfig(home, (c) => ({ ...c, genesis_file: 5 }));
    refused(
      t,
      ['run', '--home', home, '--rpc-addr', '127.0.0.1:0'],
      /genesis_file must be a file name, relative to the home or absolute/,
      'genesis_file 5',
    );
  },
);

t.test('a store.path tried and left: each store keeps its own announced final head', async (t) => {
  const home = tempDir(t);
  initHome(home);
  const finalAt = async (node: Awaited<ReturnType<typeof startNode>>) =>
    (await node.rpc<{ header: { height: number; hash: string } }>('block', { finality: 'final' })).body
      .result!.header;
  let node = await startNode(home, ['--block-time', '50']);
  await waitForHeight(node, 6);
  const first = await finalAt(node);
  t.equal(await node.stop(), 0);

  // A second disk tried: a new chain there, nothing said of the store left in <home>/data.
  const disk2 = join(tempDir(t), 'disk2');
  setStore(home, { path: disk2 });
  node = await startNode(home, ['--block-time', '50']);
  t.teardown(() => node.stop());
  await waitForHeight(node, 3);
  t.notMatch(node.logs(), /is forgotten/, 'the store left behind is not called forgotten');
  t.equal(await node.stop(), 0);

  // And left: the first store is as it was, and is not refused.
  setStore(home, {});
  node = await startNode(home, ['--block-time', '50']);
  const back = await node.rpc<{ header: { hash: string } }>('block', { block_id: first.height });
  t.equal(back.body.result?.header.hash, first.hash, 'the first chain goes on');
  t.equal(await node.stop(), 0);
  const verified = cli(['inspect', '--home', home, 'verify']);
  t.equal(verified.status, 0, verified.stderr);

  // A home's database moved to another disk keeps the record it had (homes kept one for any store).
  const moved = join(tempDir(t), 'moved');
  renameSync(join(home, 'data'), moved);
  setStore(home, { path: moved });
  node = await startNode(home, ['--block-time', '50']);
  t.equal(await node.stop(), 0);
  t.notOk(existsSync(join(home, 'final_head.json')), "the home's record went with its store");
  const records = readdirSync(home).filter((f) => /^final_head\.[0-9a-f]{16}\.json$/.test(f));
  t.equal(records.length, 2, 'one record for each store elsewhere');
});
