// `view-state dump-state`, nearcore's state dump, which near-sandbox's library runs for its dump():
// taken from a running sandbox node, it holds every account, key, contract and contract value as
// genesis records, and a node started from it answers as the one it was taken from.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Account, KeyPair, KeyPairSigner } from 'near-api-js';
import t from 'tap';
import { compileContract } from './helpers/asc.js';
import { deployedAccount, localChain } from './helpers/chain.js';
import { contract } from './helpers/contracts.js';
import { cli, initHome, type RunningNode, startNode, waitForHeight } from './helpers/node.js';
import { tempDir } from './helpers/tmp.js';

const NEAR = 10n ** 24n;

type Rec = Record<string, Record<string, unknown>>;

/** What the Account records hold, amount and locked, as a decimal string. */
function accountsSupply(records: readonly Rec[]): string {
  let supply = 0n;
  for (const x of records) {
    const a = x.Account?.account as { amount: string; locked: string } | undefined;
    if (a) supply += BigInt(a.amount) + BigInt(a.locked);
  }
  return supply.toString();
}

/** An account's view at the final block of `node`. */
async function finalAccount(node: RunningNode, accountId: string): Promise<Record<string, string>> {
  const r = await node.rpc<Record<string, string>>('query', {
    request_type: 'view_account',
    account_id: accountId,
    finality: 'final',
  });
  return r.body.result!;
}

t.test('a running sandbox dumped, and a node started from the dump', async (t) => {
  const c = await localChain(t, { sandbox: true, shards: 2 });
  const hello = await deployedAccount(c, 'hello.test.near', contract('main.wasm'), 20n * NEAR);
  await hello.callFunction({
    contractId: 'hello.test.near',
    methodName: 'setValue',
    args: { value: 'kept' },
  });
  const fcKey = KeyPair.fromRandom('ed25519');
  await hello.addFunctionCallAccessKey({
    publicKey: fcKey.getPublicKey(),
    contractId: 'hello.test.near',
    methodNames: ['setValue'],
    allowance: NEAR / 4n,
  });
  await c.root.createAccount({
    newAccountId: 'zed.test.near',
    publicKey: KeyPair.fromRandom('ed25519').getPublicKey(),
    nearToTransfer: 3n * NEAR,
  });
  const final = async () =>
    (await c.node.rpc<{ header: { height: number } }>('block', { finality: 'final' })).body.result!.header
      .height;
  const settled = await final();
  await waitForHeight(c.node, settled + 3);

  const r = cli(['--home', c.home, 'view-state', 'dump-state', '--stream']);
  t.equal(r.status, 0, r.stderr);
  const out = join(c.home, 'output');
  for (const f of ['genesis.json', 'records.json', 'config.json', 'node_key.json', 'validator_key.json'])
    t.match(r.stdout, f, `wrote ${f}`);
  const genesis = JSON.parse(readFileSync(join(out, 'genesis.json'), 'utf8')) as Record<string, unknown>;
  const records = JSON.parse(readFileSync(join(out, 'records.json'), 'utf8')) as Rec[];
  const config = JSON.parse(readFileSync(join(out, 'config.json'), 'utf8')) as Record<string, unknown>;
  t.equal(config.genesis_records_file, 'records.json');
  t.equal(genesis.records_file, join(out, 'records.json'));
  t.ok(
    (genesis.genesis_height as number) > settled,
    `genesis height ${genesis.genesis_height} above #${settled}`,
  );
  const original = JSON.parse(readFileSync(join(c.home, 'genesis.json'), 'utf8')) as Record<string, unknown>;
  t.equal(genesis.chain_id, original.chain_id);
  t.same(genesis.shard_layout, original.shard_layout);
  t.match(
    genesis.genesis_time,
    /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/,
    'the dump time, as nearcore writes times',
  );

  const of = (kind: string, id: string) =>
    records.filter((x) => x[kind]?.account_id === id).map((x) => x[kind]!);
  const view = async (request_type: string, account_id: string, extra: object = {}) =>
    (
      await c.node.rpc<Record<string, unknown>>('query', {
        request_type,
        account_id,
        finality: 'final',
        ...extra,
      })
    ).body.result!;
  for (const id of ['test.near', 'hello.test.near', 'zed.test.near', 'near']) {
    const [a] = of('Account', id) as { account: Record<string, unknown> }[];
    const v = await view('view_account', id);
    t.same(
      a?.account,
      {
        amount: v.amount,
        locked: v.locked,
        code_hash: v.code_hash,
        storage_usage: v.storage_usage,
        version: 'V1',
      },
      `${id}'s account`,
    );
    const keys = (await view('view_access_key_list', id)).keys as {
      public_key: string;
      access_key: object;
    }[];
    t.same(
      of('AccessKey', id)
        .map((k) => [k.public_key, k.access_key])
        .sort(),
      keys.map((k) => [k.public_key, k.access_key]).sort(),
      `${id}'s keys`,
    );
  }
  t.equal(genesis.total_supply, accountsSupply(records), 'the total supply is what the accounts hold');
  const [code] = of('Contract', 'hello.test.near') as { code: string }[];
  t.equal(code?.code, Buffer.from(contract('main.wasm')).toString('base64'), 'the contract code');
  const state = (await view('view_state', 'hello.test.near', { prefix_base64: '' })).values as {
    key: string;
    value: string;
  }[];
  t.same(
    of('Data', 'hello.test.near').map((d) => ({ key: d.data_key, value: d.value })),
    state.map((s) => ({ key: s.key, value: s.value })),
    "the contract's state",
  );

  // A new home with the dump as its genesis (records merged in, as near-sandbox's library does).
  const home = tempDir(t);
  initHome(home);
  writeFileSync(join(home, 'genesis.json'), JSON.stringify({ ...genesis, records_file: undefined, records }));
  writeFileSync(join(home, 'validator_key.json'), readFileSync(join(out, 'validator_key.json')));
  const next = await startNode(home, ['--block-time', '50', '--sandbox']);
  t.teardown(() => next.stop());
  await waitForHeight(next, (genesis.genesis_height as number) + 2);
  for (const id of ['test.near', 'hello.test.near', 'zed.test.near']) {
    const before = await view('view_account', id);
    const after = await finalAccount(next, id);
    t.same(
      [after.amount, after.locked, after.code_hash, after.storage_usage],
      [before.amount, before.locked, before.code_hash, before.storage_usage],
      `${id} on the new chain`,
    );
  }
  const value = await next.rpc<{ result: number[] }>('query', {
    request_type: 'call_function',
    account_id: 'hello.test.near',
    method_name: 'getValue',
    args_base64: Buffer.from('{}').toString('base64'),
    finality: 'final',
  });
  t.equal(
    Buffer.from(value.body.result!.result).toString(),
    '"kept"',
    'the contract runs on its dumped state',
  );

  // nearcore's own way back: the dump's directory is a home of its own, whose config.json names the
  // records' file (genesis_records_file) and whose genesis.json holds none.
  const direct = await startNode(out, ['--block-time', '50', '--sandbox']);
  t.teardown(() => direct.stop());
  await waitForHeight(direct, (genesis.genesis_height as number) + 2);
  const there = await finalAccount(direct, 'hello.test.near');
  const here = await view('view_account', 'hello.test.near');
  t.same([there.amount, there.code_hash], [here.amount, here.code_hash], 'a node run in the dump directory');
});

t.test('a yield waiting for its resume has no genesis record: the dump says it left it out', async (t) => {
  const c = await localChain(t, { sandbox: true });
  const kp = KeyPair.fromRandom('ed25519');
  await c.root.createAccount({
    newAccountId: 'oracle.test.near',
    publicKey: kp.getPublicKey(),
    nearToTransfer: 20n * NEAR,
  });
  await new Account('oracle.test.near', c.provider, new KeyPairSigner(kp)).deployContract(
    await compileContract('oracle'),
  );
  await c.root.callFunctionRaw({
    contractId: 'oracle.test.near',
    methodName: 'request',
    args: {},
    gas: 100n * 10n ** 12n,
    waitUntil: 'INCLUDED_FINAL',
  });
  const quiet = cli(['--home', c.home, 'view-state', 'dump-state']);
  t.equal(quiet.status, 0, quiet.stderr);
  t.match(quiet.stdout, /wrote .*output\.json/, 'without --stream: output.json');
  t.match(
    quiet.stderr,
    /^[1-9]\d* pending yields \(PromiseYield receipts\) have no genesis record and were left out$/m,
  );
  const dumped = JSON.parse(readFileSync(join(c.home, 'output.json'), 'utf8')) as { records: Rec[] };
  t.ok(
    dumped.records.some((r) => r.Contract?.account_id === 'oracle.test.near'),
    'the rest of the state is there',
  );
});

t.test("nearcore's dump-state flags: --file, --account-ids, --include-validators", async (t) => {
  const c = await localChain(t, { sandbox: true });
  await c.root.createAccount({
    newAccountId: 'zed.test.near',
    publicKey: KeyPair.fromRandom('ed25519').getPublicKey(),
    nearToTransfer: 3n * NEAR,
  });
  const out = join(tempDir(t), 'some.json');
  // Only zed's records, with the validator's and the protocol treasury's (test.near for both here).
  const r = cli([
    '--home',
    c.home,
    'view-state',
    'dump-state',
    '--file',
    out,
    '--account-ids',
    'zed.test.near',
  ]);
  t.equal(r.status, 0, r.stderr);
  t.match(r.stdout, `wrote ${out}`);
  const only = JSON.parse(readFileSync(out, 'utf8')) as { records: Rec[]; total_supply: string };
  const owners = new Set(only.records.map((x) => String(Object.values(x)[0]!.account_id)));
  t.same([...owners].sort(), ['test.near', 'zed.test.near']);
  t.equal(only.total_supply, accountsSupply(only.records), 'the supply of the accounts kept');

  // A validator left out of --include-validators is dumped with its stake back in its balance.
  const dir = join(tempDir(t), 'out');
  const r2 = cli([
    '--home',
    c.home,
    'view-state',
    'dump-state',
    '--stream',
    '--file',
    dir,
    '--include-validators',
    'zed.test.near',
  ]);
  t.equal(r2.status, 0, r2.stderr);
  const genesis = JSON.parse(readFileSync(join(dir, 'genesis.json'), 'utf8')) as Record<string, unknown>;
  t.same(genesis.validators, [], 'test.near is no validator of the dumped chain');
  const records = JSON.parse(readFileSync(join(dir, 'records.json'), 'utf8')) as Rec[];
  const test = records.find((x) => x.Account?.account_id === 'test.near')!.Account!.account as {
    amount: string;
    locked: string;
  };
  const now = await finalAccount(c.node, 'test.near');
  t.equal(test.locked, '0');
  t.ok(BigInt(test.amount) >= BigInt(now.amount) + BigInt(now.locked) - NEAR, 'its stake is in its balance');
  t.ok(BigInt(now.locked) > 0n, 'which it had locked');

  const bad = cli(['--home', c.home, 'view-state', 'dump-state', '--account-ids', 'Not Valid']);
  t.not(bad.status, 0);
  t.match(bad.stderr, /--account-ids Not Valid: /);
});
