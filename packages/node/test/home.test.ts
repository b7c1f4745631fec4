// `nearlite init`: the home laid out like nearcore's; an initialised home refused, keys kept.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { parseGenesis, shardLayoutFromView } from '@nearlite/chain';
import { FileWriteError, homePaths, initHome, loadConfig, main, writeFileWhole } from '@nearlite/node';
import t from 'tap';
import { tempDir } from '../../../test/helpers/tmp.js';

t.test('init writes genesis, config and both keys; the validator is the genesis validator', async (t) => {
  const home = tempDir(t);
  const { created } = initHome({ home, chainId: 'unit-home', shards: 3, epochLength: 7 });
  const p = homePaths(home);
  t.same(created.sort(), [p.config, p.genesis, p.nodeKey, p.validatorKey].sort());
  const genesis = parseGenesis(JSON.parse(readFileSync(p.genesis, 'utf8')));
  const key = JSON.parse(readFileSync(p.validatorKey, 'utf8')) as { account_id: string; public_key: string };
  t.equal(genesis.config.chainId, 'unit-home');
  t.equal(genesis.config.epochLength, 7);
  t.equal(genesis.config.validators[0]?.accountId, key.account_id);
});

t.test('init refuses a home that has a config.json, as neard init does, and keeps its keys', async (t) => {
  const home = tempDir(t);
  initHome({ home, chainId: 'first' });
  const p = homePaths(home);
  const genesisBefore = readFileSync(p.genesis, 'utf8');
  writeFileSync(p.config, '{"archive":true}');
  t.throws(
    () => initHome({ home, chainId: 'second' }),
    { name: 'HomeError', message: `Config is already downloaded to ‘${p.genesis}’ with chain-id ‘first’.` },
    "nearcore's refusal, naming the chain the home holds",
  );
  t.equal(readFileSync(p.genesis, 'utf8'), genesisBefore, 'the genesis untouched');
  t.equal(readFileSync(p.config, 'utf8'), '{"archive":true}', 'the config untouched');

  // A home with keys and nothing else (a key placed there first): init loads the validator key.
  const keyed = tempDir(t);
  initHome({ home: keyed, chainId: 'keyed' });
  const k = homePaths(keyed);
  const key = readFileSync(k.validatorKey, 'utf8');
  const nodeKey = readFileSync(k.nodeKey, 'utf8');
  for (const f of [k.config, k.genesis]) rmSync(f);
  const { created } = initHome({ home: keyed, chainId: 'keyed-again' });
  t.same(created.sort(), [k.config, k.genesis].sort(), 'only what was missing is written');
  t.equal(readFileSync(k.validatorKey, 'utf8'), key, 'the validator key kept');
  t.equal(readFileSync(k.nodeKey, 'utf8'), nodeKey, 'the node key kept');
  const genesis = parseGenesis(JSON.parse(readFileSync(k.genesis, 'utf8')));
  t.equal(
    genesis.config.validators[0]?.publicKeyText,
    (JSON.parse(key) as { public_key: string }).public_key,
  );
});

t.test(
  "init refuses a kept key of another account, and NEAR's networks' ids for a local chain",
  async (t) => {
    const home = tempDir(t);
    initHome({ home, chainId: 'keyed', accountId: 'alice.near' });
    const p = homePaths(home);
    for (const f of [p.config, p.genesis]) rmSync(f);
    t.throws(
      () => initHome({ home, chainId: 'keyed', accountId: 'bob.near' }),
      {
        name: 'HomeError',
        message: `‘${p.validatorKey}’ contains key for alice.near but expecting key for bob.near`,
      },
      "nearcore's generate_or_load_key refusal",
    );
    t.notOk(existsSync(p.genesis), 'nothing written');
    t.same(
      initHome({ home, chainId: 'keyed', accountId: 'alice.near' }).created.sort(),
      [p.config, p.genesis].sort(),
    );

    for (const chainId of ['mainnet', 'testnet']) {
      const named = tempDir(t);
      t.throws(
        () => initHome({ home: named, chainId }),
        {
          name: 'HomeError',
          message: new RegExp(`--chain-id ${chainId} names NEAR's network.*--genesis FILE`),
        },
        chainId,
      );
      t.notOk(existsSync(homePaths(named).config), `${chainId}: nothing written`);
    }
  },
);

t.test('impossible shard counts and epoch lengths are refused before anything is written', async (t) => {
  const home = tempDir(t);
  t.throws(() => initHome({ home, shards: 0 }), { name: 'HomeError' });
  t.throws(() => initHome({ home: tempDir(t), epochLength: 0 }), { name: 'HomeError' });
});

t.test("init --fast: nearcore's fast localnet, blocks every 120–500 ms and epochs of 60", async (t) => {
  const home = tempDir(t);
  initHome({ home, fast: true });
  const p = homePaths(home);
  const config = JSON.parse(readFileSync(p.config, 'utf8')) as {
    consensus: Record<string, { secs: number; nanos: number }>;
  };
  t.same(config.consensus.min_block_production_delay, { secs: 0, nanos: 120_000_000 });
  t.same(config.consensus.max_block_production_delay, { secs: 0, nanos: 500_000_000 });
  t.equal(loadConfig(p.config).blockTimeMs, 120);
  t.equal(parseGenesis(JSON.parse(readFileSync(p.genesis, 'utf8'))).config.epochLength, 60);
  const other = tempDir(t);
  initHome({ home: other, fast: true, epochLength: 10 });
  t.equal(
    parseGenesis(JSON.parse(readFileSync(homePaths(other).genesis, 'utf8'))).config.epochLength,
    10,
    'an epoch length given wins',
  );
});

t.test("init's nearcore flags: --num-shards, --test-seed", async (t) => {
  const home = tempDir(t);
  t.equal(await main(['init', '--home', home, '--num-shards', '3', '--test-seed', 'test', '--quiet']), 0);
  const p = homePaths(home);
  const genesis = parseGenesis(JSON.parse(readFileSync(p.genesis, 'utf8')));
  const key = JSON.parse(readFileSync(p.validatorKey, 'utf8')) as { public_key: string };
  t.equal(
    key.public_key,
    'ed25519:DcA2MzgpJbrUATQLLceocVckhhAqrkingax4oJ9kZ847',
    'nearcore\'s key for seed "test"',
  );
  t.equal(genesis.config.validators[0]?.publicKeyText, key.public_key);
  t.equal(shardLayoutFromView(genesis.config.shardLayout).shardIds.length, 3);
});

t.test('init refuses what run would refuse, before it writes anything', async (t) => {
  const dir = tempDir(t);
  const home = join(dir, 'home');
  t.throws(
    () => initHome({ home, accountId: 'BAD ID' }),
    { name: 'HomeError', message: /--account-id "BAD ID" is invalid: .*invalid character/ },
    'an account id nearcore cannot parse',
  );
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, '{');
  t.throws(() => initHome({ home, genesisFile: bad }), { name: 'GenesisError', message: /bad\.json/ });
  writeFileSync(bad, '[]');
  t.throws(() => initHome({ home, genesisFile: bad }), { message: /is not a JSON object/ });
  t.throws(() => initHome({ home, genesisFile: join(dir, 'none.json') }), {
    name: 'HomeError',
    message: /--genesis .*none\.json: no such file/,
  });
  t.throws(() => initHome({ home, shards: 0 }), { message: '--shards must be 1 to 64' });
  t.notOk(existsSync(home), 'no home was started');

  const genesis = join(dir, 'genesis.json');
  initHome({ home: join(dir, 'first'), chainId: 'given' });
  writeFileSync(genesis, readFileSync(homePaths(join(dir, 'first')).genesis));
  initHome({ home, genesisFile: genesis });
  t.equal(parseGenesis(JSON.parse(readFileSync(homePaths(home).genesis, 'utf8'))).config.chainId, 'given');
});

t.test("a home's key file that cannot be read stops the start naming the file", async (t) => {
  const home = tempDir(t);
  initHome({ home });
  const p = homePaths(home);
  const run = () => main(['run', '--home', home, '--rpc-addr', '127.0.0.1:0', '--quiet']);
  const validatorKey = readFileSync(p.validatorKey, 'utf8');
  writeFileSync(p.validatorKey, '{');
  await t.rejects(run(), { name: 'KeyFileError', message: /cannot read .*validator_key\.json: / });
  writeFileSync(p.validatorKey, '{"account_id":"test.near"}');
  await t.rejects(run(), {
    name: 'KeyFileError',
    message: /validator_key\.json: key file has no ed25519 secret_key/,
  });
  writeFileSync(p.validatorKey, validatorKey);
  writeFileSync(p.nodeKey, '{}');
  await t.rejects(run(), { name: 'KeyFileError', message: /node_key\.json has no ed25519 public_key/ });
  writeFileSync(p.nodeKey, '[1]');
  await t.rejects(run(), { name: 'KeyFileError', message: /node_key\.json is not a key file/ });
});

t.test('an init cut short by a failed write leaves no half-written file and can be run again', async (t) => {
  const home = tempDir(t);
  const p = homePaths(home);
  // Where the genesis is written first stands something that cannot be written, as a full disk refuses.
  mkdirSync(`${p.genesis}.tmp`, { recursive: true });
  t.throws(() => initHome({ home, chainId: 'cut-short' }), {
    name: 'FileWriteError',
    message: new RegExp(`^cannot write ${p.genesis.replace(/[.]/g, '\\.')}: EISDIR`),
  });
  t.notOk(existsSync(p.genesis), 'no genesis, not a truncated one');
  t.notOk(existsSync(p.config), 'no config: the home is not initialised');
  const key = readFileSync(p.validatorKey, 'utf8');

  rmSync(`${p.genesis}.tmp`, { recursive: true });
  const { created } = initHome({ home, chainId: 'cut-short' });
  t.same(created.sort(), [p.config, p.genesis].sort(), 'the second init writes what the first did not');
  t.equal(readFileSync(p.validatorKey, 'utf8'), key, 'the key written first is kept');
  const genesis = JSON.parse(readFileSync(p.genesis, 'utf8'));
  t.equal(genesis.validators[0].public_key, JSON.parse(key).public_key, 'the genesis names that key');
  t.same(readdirSync(home).sort(), ['config.json', 'genesis.json', 'node_key.json', 'validator_key.json']);
});

t.test('a failed write names the file and says why in words', async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'kept.json');
  writeFileWhole(path, '{"a":1}');
  mkdirSync(`${path}.tmp`);
  t.throws(() => writeFileWhole(path, '{"a":2}'), { name: 'FileWriteError', path });
  t.equal(readFileSync(path, 'utf8'), '{"a":1}', 'the file as it was');
  const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  t.equal(new FileWriteError(path, full).message, `cannot write ${path}: no space left on the disk`);
});

t.test('a whole write goes through a symlink to its file, and in place to what is not a file', async (t) => {
  const dir = tempDir(t);
  const target = join(dir, 'target.json');
  const link = join(dir, 'link.json');
  writeFileSync(target, 'old');
  symlinkSync(target, link);
  writeFileWhole(link, 'new');
  t.ok(lstatSync(link).isSymbolicLink(), 'the link is still a link');
  t.equal(readFileSync(target, 'utf8'), 'new', 'its file has the new bytes');
  t.same(readdirSync(dir).sort(), ['link.json', 'target.json'], 'nothing left beside them');
  // A device (through a link of the test's own, so that a failure could only replace the link): written
  // as asked, with nothing renamed over it.
  const device = join(dir, 'device');
  symlinkSync('/dev/null', device);
  writeFileWhole(device, 'discarded');
  t.ok(
    lstatSync(device).isSymbolicLink() && statSync(device).isCharacterDevice(),
    'still a link to the device',
  );
  t.notOk(existsSync(`${device}.tmp`), 'nothing left beside it');
});
