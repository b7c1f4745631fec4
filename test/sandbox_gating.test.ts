// State can be rewritten over RPC only on a node run as a sandbox, as nearcore offers the sandbox
// methods only in its sandbox build.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { initHome, readKeyFile, startNode, waitForHeight } from './helpers/node.js';
import { signFromValidator } from './helpers/signed_tx.js';
import { tempDir } from './helpers/tmp.js';

const rich = {
  Account: {
    account_id: 'rich.test.near',
    account: {
      amount: '1000000000000000000000000000000',
      locked: '0',
      code_hash: '11111111111111111111111111111111',
      storage_usage: 182,
    },
  },
};

t.test('a regular node answers METHOD_NOT_FOUND to both sandbox methods and changes nothing', async (t) => {
  const home = tempDir(t);
  initHome(home);
  const node = await startNode(home, ['--block-time', '50']);
  t.teardown(() => node.stop());
  await waitForHeight(node, 2);
  for (const [method, params] of [
    ['sandbox_patch_state', { records: [rich] }],
    ['sandbox_fast_forward', { delta_height: 1_000_000_000 }],
  ] as const) {
    const r = await node.rpc(method, params);
    t.equal(r.status, 400, `${method}: HTTP 400`);
    t.same(r.body.error?.cause, { name: 'METHOD_NOT_FOUND', info: { method_name: method } });
    t.equal(r.body.error?.code, -32601);
  }
  const viewed = await node.rpc('query', {
    request_type: 'view_account',
    account_id: 'rich.test.near',
    finality: 'optimistic',
  });
  t.equal(viewed.body.error?.cause.name, 'UNKNOWN_ACCOUNT', 'no account was created');
});

t.test('run --sandbox serves them; fast-forward is bounded', async (t) => {
  const home = tempDir(t);
  initHome(home);
  const node = await startNode(home, ['--block-time', '50', '--sandbox']);
  t.teardown(() => node.stop());
  await waitForHeight(node, 2);
  t.same((await node.rpc('sandbox_patch_state', { records: [rich] })).body.result, {});
  const viewed = await node.rpc<{ amount: string }>('query', {
    request_type: 'view_account',
    account_id: 'rich.test.near',
    finality: 'optimistic',
  });
  t.equal(viewed.body.result?.amount, '1000000000000000000000000000000');
  const huge = await node.rpc('sandbox_fast_forward', { delta_height: 1_000_000_000 });
  t.equal(huge.body.error?.cause.name, 'PARSE_ERROR', 'a delta over the maximum is a params error');
  t.match(huge.body.error?.data, /above the maximum/);
  const before = (await node.rpc<{ header: { height: number } }>('block', { finality: 'optimistic' })).body
    .result!.header.height;
  t.same((await node.rpc('sandbox_fast_forward', { delta_height: 20 })).body.result, {});
  const after = (await node.rpc<{ header: { height: number } }>('block', { finality: 'optimistic' })).body
    .result!.header.height;
  t.ok(after >= before + 20, `the head moved by at least 20 (${before} → ${after})`);
});

t.test('a hostile patch is a params error, writes nothing, and the chain goes on', async (t) => {
  const home = tempDir(t);
  initHome(home);
  const node = await startNode(home, ['--block-time', '50', '--sandbox']);
  t.teardown(() => node.stop());
  await waitForHeight(node, 2);
  const bad = structuredClone(rich);
  bad.Account.account.code_hash = '1'.repeat(46);
  // An unversioned account at u128::MAX would be a row nobody can read: the next block stopped the
  // node when it was written.
  const max = structuredClone(rich);
  max.Account.account.amount = ((1n << 128n) - 1n).toString();
  for (const records of [
    [bad],
    [rich, bad],
    [{ Account: { account_id: 'x.test.near', account: {} } }],
    [max],
  ]) {
    const r = await node.rpc('sandbox_patch_state', { records });
    t.equal(r.body.error?.cause.name, 'PARSE_ERROR', 'refused as params');
    t.match(r.body.error?.data, /^Failed parsing args: records\[\d\]\.Account/);
  }
  const viewed = await node.rpc('query', {
    request_type: 'view_account',
    account_id: 'rich.test.near',
    finality: 'optimistic',
  });
  t.equal(viewed.body.error?.cause.name, 'UNKNOWN_ACCOUNT', 'not even the good record of a refused patch');
  const head = (await node.rpc<{ header: { height: number } }>('block', { finality: 'optimistic' })).body
    .result!.header.height;
  await waitForHeight(node, head + 3);
  t.pass('blocks keep coming');
});

t.test(
  'fast-forward reaches head + delta, counting the timer’s blocks, and moves block time on',
  async (t) => {
    const home = tempDir(t);
    initHome(home, ['--epoch-length', '50']);
    const configPath = join(home, 'config.json');
    const config = JSON.parse(readFileSync(configPath, 'utf8'));
    t.same(
      config.consensus.min_block_production_delay,
      { secs: 0, nanos: 600_000_000 },
      'init writes nearcore’s min_block_production_delay (MIN_BLOCK_PRODUCTION_DELAY)',
    );
    t.same(
      config.consensus.max_block_production_delay,
      { secs: 2, nanos: 0 },
      'init writes nearcore’s max_block_production_delay',
    );
    config.consensus.max_block_production_delay = { secs: 0, nanos: 700_000_000 };
    writeFileSync(configPath, JSON.stringify(config));
    const blockMs = 300;
    // nearcore's sandbox_delta_time: each skipped height adds the mean of the minimum and maximum
    // production delays, here (300 + 700) / 2 ms.
    const stepMs = 500;
    const node = await startNode(home, ['--block-time', String(blockMs), '--sandbox']);
    t.teardown(() => node.stop());
    await waitForHeight(node, 2);
    const clientConfig = (await node.rpc<Record<string, unknown>>('client_config', [])).body.result!;
    t.same(
      clientConfig.max_block_production_delay,
      [0, 700_000_000],
      'client_config shows the configured maximum',
    );
    type Head = { header: { height: number; timestamp_nanosec: string; epoch_id: string } };
    const before = (await node.rpc<Head>('block', { finality: 'optimistic' })).body.result!.header;
    const delta = 400;
    const started = Date.now();
    t.same((await node.rpc('sandbox_fast_forward', { delta_height: delta })).body.result, {});
    const elapsedMs = Date.now() - started;
    const after = (await node.rpc<Head>('block', { finality: 'optimistic' })).body.result!.header;
    const target = before.height + delta;
    // nearcore's last jump lands one above the target; the timer may add one more block before the read.
    t.ok(after.height >= target && after.height <= target + 2, `head ${after.height}, target ${target}`);
    const movedMs = Number((BigInt(after.timestamp_nanosec) - BigInt(before.timestamp_nanosec)) / 1_000_000n);
    const heights = after.height - before.height;
    t.ok(movedMs >= (heights - 2) * stepMs * 0.95, `block time moved ${movedMs} ms for ${heights} heights`);
    t.ok(
      movedMs <= heights * stepMs + elapsedMs + 1000,
      'and not more than the heights passed and real time',
    );
    t.not(after.epoch_id, before.epoch_id, 'epochs were stepped through');
    await waitForHeight(node, after.height + 1);
    const next = (await node.rpc<Head>('block', { finality: 'optimistic' })).body.result!.header;
    t.ok(
      BigInt(next.timestamp_nanosec) > BigInt(after.timestamp_nanosec),
      'later blocks keep the moved clock',
    );
  },
);

t.test(
  'a patch lands after its block’s transactions; a Contract record needs its account’s code hash',
  async (t) => {
    const { actions, baseEncode } = await import('near-api-js');
    const { createHash } = await import('node:crypto');
    const home = tempDir(t);
    initHome(home);
    // Blocks only on demand (fast-forward, patches): which block takes what is then exact.
    const node = await startNode(home, ['--block-time', '3600000', '--sandbox']);
    t.teardown(() => node.stop());
    type Head = { header: { height: number; hash: string } };
    const head = async () => (await node.rpc<Head>('block', { finality: 'optimistic' })).body.result!.header;
    const account = async (id: string) =>
      node.rpc<Record<string, unknown>>('query', {
        request_type: 'view_account',
        account_id: id,
        finality: 'optimistic',
      });
    t.same((await node.rpc('sandbox_fast_forward', { delta_height: 2 })).body.result, {});
    const tx = await signFromValidator(node, readKeyFile(home), 'test.near', [actions.transfer(1n)]);
    await node.rpc('broadcast_tx_async', [tx.base64]);
    const before = (await account('test.near')).body.result!;
    const patched = '7'.repeat(30);
    const records = [
      {
        Account: {
          account_id: 'test.near',
          account: {
            amount: patched,
            locked: before.locked,
            code_hash: before.code_hash,
            storage_usage: before.storage_usage,
          },
        },
      },
    ];
    // Only patches make blocks here, each carrying the patch: the block that takes the transfer
    // carries the patch too.
    const ran = async () =>
      (
        await node.rpc<{ final_execution_status: string }>('tx', {
          tx_hash: tx.hash,
          sender_account_id: 'test.near',
          wait_until: 'NONE',
        })
      ).body.result?.final_execution_status === 'EXECUTED_OPTIMISTIC';
    for (let i = 0; i < 20 && !(await ran()); i++)
      t.same((await node.rpc('sandbox_patch_state', { records })).body.result, {});
    const block = await head();
    const status = await node.rpc<{ transaction_outcome: { block_hash: string } }>('EXPERIMENTAL_tx_status', {
      tx_hash: tx.hash,
      sender_account_id: 'test.near',
      wait_until: 'EXECUTED_OPTIMISTIC',
    });
    t.equal(
      status.body.result?.transaction_outcome.block_hash,
      block.hash,
      'the patch’s block took the transfer',
    );
    // nearcore's apply_state_patch runs after the chunk's transactions and receipts: the patched
    // amount stands, with no cost of the transfer taken from it.
    t.equal((await account('test.near')).body.result!.amount, patched);
    const changes = await node.rpc<{ changes: { cause: { type: string }; change: { amount: string } }[] }>(
      'EXPERIMENTAL_changes',
      { changes_type: 'account_changes', account_ids: ['test.near'], block_id: block.hash },
    );
    const causes = changes.body.result!.changes.map((c) => c.cause.type);
    t.same(causes.at(-1), 'migration', `the patch is the block’s last change (${causes.join(', ')})`);
    t.ok(causes.includes('transaction_processing'), 'after the transfer’s');

    // A Contract record needs its account, holding that code's hash: nearcore asserts both and
    // panics, which stops its sandbox; here the patch is refused whole and nothing is written.
    const code = Buffer.from('AGFzbQEAAAA=', 'base64');
    const hash = baseEncode(createHash('sha256').update(code).digest());
    const contract = (id: string) => ({ Contract: { account_id: id, code: code.toString('base64') } });
    const refused = [
      [
        [contract('test.near')],
        `Contract record of test.near: its code hashes to ${hash}, the account's code_hash is ${before.code_hash}`,
      ],
      [
        [contract('ghost.test.near')],
        'Contract record of ghost.test.near should be preceded by the corresponding account record',
      ],
      [
        [rich, contract('rich.test.near')],
        `Contract record of rich.test.near: its code hashes to ${hash}, the account's code_hash is 11111111111111111111111111111111`,
      ],
    ] as const;
    for (const [records, message] of refused) {
      const r = await node.rpc('sandbox_patch_state', { records });
      t.equal(r.status, 500);
      t.equal(r.body.error?.cause.name, 'INTERNAL_ERROR');
      t.equal(r.body.error?.cause.info?.error_message, message);
    }
    t.equal((await head()).height, block.height, 'no block was made for them');
    t.equal((await account('rich.test.near')).body.error?.cause.name, 'UNKNOWN_ACCOUNT');
    const noCode = await node.rpc('query', {
      request_type: 'view_code',
      account_id: 'test.near',
      finality: 'optimistic',
    });
    t.equal(noCode.body.error?.cause.name, 'NO_CONTRACT_CODE');
    const withCode = structuredClone(rich);
    withCode.Account.account.code_hash = hash;
    const ok = await node.rpc('sandbox_patch_state', { records: [withCode, contract('rich.test.near')] });
    t.same(ok.body.result, {}, 'the account first, with the code’s hash: written');
    const view = await node.rpc<{ hash: string }>('query', {
      request_type: 'view_code',
      account_id: 'rich.test.near',
      finality: 'optimistic',
    });
    t.equal(view.body.result?.hash, hash);
  },
);
