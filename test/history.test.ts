// History: state changes per block, time travel, GC boundaries and reading a stopped node's store.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import * as T from '@near-js/jsonrpc-types';
import t from 'tap';
import { camel, cli, initHome, startNode, waitForHeight } from './helpers/node.js';
import { tempDir } from './helpers/tmp.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

t.test('changes, block_effects and queries at old blocks on an archival node', async (t) => {
  const home = tempDir(t);
  initHome(home);
  const node = await startNode(home, ['--block-time', '50', '--archive', '--sandbox']);
  t.teardown(() => node.stop());
  await waitForHeight(node, 2);
  const patch = (value: string) =>
    node.rpc('sandbox_patch_state', {
      records: [{ Data: { account_id: 'test.near', data_key: b64('greeting'), value: b64(value) } }],
    });
  t.same((await patch('hello')).body.result, {});
  const h1 = (
    await node.rpc<{ header: { height: number; hash: string } }>('block', { finality: 'optimistic' })
  ).body.result!.header;
  await patch('world');
  const h2 = (await node.rpc<{ header: { height: number } }>('block', { finality: 'optimistic' })).body
    .result!.header;
  t.ok(h2.height > h1.height);

  const state = async (blockId: number) =>
    (
      await node.rpc<{ values: { key: string; value: string }[] }>('query', {
        request_type: 'view_state',
        account_id: 'test.near',
        prefix_base64: b64('greet'),
        block_id: blockId,
      })
    ).body.result?.values;
  t.same(
    await state(h1.height),
    [{ key: b64('greeting'), value: b64('hello') }],
    'the state as of the first patch',
  );
  t.same(await state(h2.height), [{ key: b64('greeting'), value: b64('world') }]);
  t.same(await state(1), [], 'before any patch');

  // Find the block that carried the first patch: its changes show the data update.
  let found:
    | { block_hash: string; changes: { type: string; change: { value_base64: string } }[] }
    | undefined;
  for (let h = 1; h <= h2.height && !found; h++) {
    const r = await node.rpc<typeof found>('EXPERIMENTAL_changes', {
      changes_type: 'data_changes',
      account_ids: ['test.near'],
      key_prefix_base64: b64('greet'),
      block_id: h,
    });
    if (r.body.result && r.body.result.changes.length > 0) found = r.body.result;
  }
  t.ok(found, 'a block records the data change');
  t.equal(found!.changes[0]!.type, 'data_update');
  t.equal(found!.changes[0]!.change.value_base64, b64('hello'));
  const effects = await node.rpc<{ changes: { type: string; account_id: string }[] }>('block_effects', {
    block_id: found!.block_hash,
  });
  t.same(effects.body.result?.changes, [{ type: 'data_touched', account_id: 'test.near' }]);
  // The first block of an epoch (block 1 too) writes the validator's account back with its reward,
  // none at block 1 (nearcore's update_validator_accounts); other accounts are untouched.
  const atStart = await node.rpc<{ changes: { cause: { type: string }; type: string }[] }>('changes', {
    changes_type: 'account_changes',
    account_ids: ['test.near'],
    block_id: 1,
  });
  t.same(
    atStart.body.result?.changes.map((c) => [c.type, c.cause.type]),
    [['account_update', 'validator_accounts_update']],
  );
  const none = await node.rpc<{ changes: unknown[] }>('changes', {
    changes_type: 'account_changes',
    account_ids: ['near'],
    block_id: 1,
  });
  t.same(none.body.result?.changes, []);

  // What nearlite itself answers, against the client library's schemas.
  const real: [string, unknown, { safeParse(v: unknown): { success: boolean } }][] = [
    ['block_effects', { block_id: found!.block_hash }, T.RpcStateChangesInBlockByTypeResponseSchema()],
    [
      'EXPERIMENTAL_changes_in_block',
      { block_id: found!.block_hash },
      T.RpcStateChangesInBlockByTypeResponseSchema(),
    ],
    [
      'changes',
      { changes_type: 'account_changes', account_ids: ['test.near'], block_id: 1 },
      T.RpcStateChangesInBlockResponseSchema(),
    ],
    [
      'EXPERIMENTAL_changes',
      {
        changes_type: 'data_changes',
        account_ids: ['test.near'],
        key_prefix_base64: b64('greet'),
        block_id: found!.block_hash,
      },
      T.RpcStateChangesInBlockResponseSchema(),
    ],
  ];
  for (const [method, params, schema] of real) {
    const r = await node.rpc(method, params);
    const parsed = schema.safeParse(camel(r.body.result));
    t.ok(parsed.success, `${method} matches the client schema`, { result: r.body.result, parsed });
  }
});

t.test('block_effects names each changed trie key once, in key order, as nearcore does', async (t) => {
  // nearcore's StateChangesKinds::from_changes maps every StateChanges row of the block (one per
  // changed trie key, iterated in key order) to a kind; it merges nothing, so an account with two
  // changed access keys and two changed data keys is named four times.
  const home = tempDir(t);
  initHome(home);
  const node = await startNode(home, ['--block-time', '50', '--archive', '--sandbox']);
  t.teardown(() => node.stop());
  await waitForHeight(node, 2);
  const key = (publicKey: string) => ({
    AccessKey: {
      account_id: 'test.near',
      public_key: publicKey,
      access_key: { nonce: 0, permission: 'FullAccess' },
    },
  });
  const data = (k: string) => ({ Data: { account_id: 'test.near', data_key: b64(k), value: b64('v') } });
  const patched = await node.rpc('sandbox_patch_state', {
    records: [
      data('b'),
      key('ed25519:8qbHbw2BbbTHBW1sbeqakYXVKRQM8Ne7pLK7m6CVfeR'),
      data('a'),
      key('ed25519:4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi'),
    ],
  });
  t.same(patched.body.result, {});
  const head = (await node.rpc<{ header: { height: number } }>('block', { finality: 'optimistic' })).body
    .result!.header.height;
  let block: string | undefined;
  for (let h = 1; h <= head && !block; h++) {
    const r = await node.rpc<{ block_hash: string; changes: unknown[] }>('EXPERIMENTAL_changes', {
      changes_type: 'data_changes',
      account_ids: ['test.near'],
      key_prefix_base64: '',
      block_id: h,
    });
    if (r.body.result && r.body.result.changes.length > 0) block = r.body.result.block_hash;
  }
  t.ok(block, 'a block carries the patch');
  const expected = [
    { type: 'access_key_touched', account_id: 'test.near' },
    { type: 'access_key_touched', account_id: 'test.near' },
    { type: 'data_touched', account_id: 'test.near' },
    { type: 'data_touched', account_id: 'test.near' },
  ];
  for (const method of ['block_effects', 'EXPERIMENTAL_changes_in_block']) {
    const r = await node.rpc<{ changes: unknown[] }>(method, { block_id: block });
    t.same(r.body.result?.changes, expected, method);
  }
});

t.test('GC keeps recent epochs: the tail answers, the block below it is gone', async (t) => {
  const home = tempDir(t);
  initHome(home, ['--epoch-length', '4']);
  const producing = await startNode(home, ['--block-time', '20']);
  t.teardown(() => producing.stop());
  await waitForHeight(producing, 40);
  await producing.stop();
  // Restarted with no block in sight, so GC stands still while the boundary is probed.
  const node = await startNode(home, ['--block-time', '600000']);
  t.teardown(() => node.stop());
  const status = await node.rpc<{ sync_info: { earliest_block_height: number } }>('status', []);
  const tail = status.body.result!.sync_info.earliest_block_height;
  t.ok(tail > 1, `the tail moved to ${tail}`);
  // By hash: by height, a block GC is about to reach (below its stop height) is refused already, as
  // nearcore refuses it (views_gc.test.ts).
  const tailBlock = await node.rpc<{ header: { hash: string } }>('block', { block_id: tail });
  const kept = await node.rpc('query', {
    request_type: 'view_account',
    account_id: 'test.near',
    block_id: tailBlock.body.result!.header.hash,
  });
  t.notOk(kept.body.error, 'the last kept block answers queries');
  const gone = await node.rpc('query', {
    request_type: 'view_account',
    account_id: 'test.near',
    block_id: tail - 1,
  });
  t.equal(gone.body.error?.cause.name, 'GARBAGE_COLLECTED_BLOCK');
  const block = await node.rpc('block', { block_id: tail - 1 });
  t.equal(block.body.error?.cause.name, 'UNKNOWN_BLOCK');
  t.equal(block.status, 422, 'UNKNOWN_BLOCK below the head is HTTP 422, as nearcore');
});

t.test('a stopped node home is readable with nearlite inspect and the embedding example', async (t) => {
  const home = tempDir(t);
  initHome(home);
  const node = await startNode(home, ['--block-time', '30', '--archive', '--sandbox']);
  t.teardown(() => node.stop());
  await waitForHeight(node, 3);
  await node.rpc('sandbox_patch_state', {
    records: [{ Data: { account_id: 'test.near', data_key: b64('k'), value: b64('v') } }],
  });
  await node.stop();

  const block = cli(['inspect', '--home', home, 'block', '2']);
  t.equal(block.status, 0, block.stderr);
  t.equal(JSON.parse(block.stdout).height, 2);
  const account = cli(['inspect', '--home', home, 'account', 'test.near']);
  t.equal(JSON.parse(account.stdout).amount, (10n ** 33n).toString());
  const state = cli(['inspect', '--home', home, 'state', 'test.near', '--prefix', 'k']);
  t.same(JSON.parse(state.stdout), { key: b64('k'), value: b64('v') });
  const stats = cli(['inspect', '--home', home, 'stats']);
  const s = JSON.parse(stats.stdout);
  t.equal(s.kind, 'archival');
  t.ok('State' in s.column_bytes);
  const chunk = cli(['inspect', '--home', home, 'chunk', '2', '0']);
  t.equal(JSON.parse(chunk.stdout).header.height_included, 2);
  const badShard = cli(['inspect', '--home', home, 'chunk', '2', 'abc']);
  t.equal(badShard.status, 1);
  t.match(badShard.stderr, /'abc' is not a shard id/);

  const out = execFileSync(
    process.execPath,
    [join(import.meta.dirname, '..', 'examples', 'read-home.mjs'), home],
    { encoding: 'utf8' },
  );
  t.match(out, /^head #\d+ /);
  t.match(out, /k = v/);
});

t.test(
  'GC under a transaction load survives SIGKILL: every block from the tail to the head stays whole',
  async (t) => {
    const { Account, JsonRpcProvider } = await import('near-api-js');
    const home = tempDir(t);
    initHome(home, ['--epoch-length', '3']);
    const key = JSON.parse((await import('node:fs')).readFileSync(join(home, 'validator_key.json'), 'utf8'));
    let node = await startNode(home, ['--block-time', '15']);
    t.teardown(() => node.stop());
    // Each run is killed while it produces blocks under the load: its chain thread is up first.
    const producing = async () => {
      const at = (await node.rpc<{ header: { height: number } }>('block', { finality: 'optimistic' })).body
        .result!.header.height;
      await waitForHeight(node, at + 1);
    };
    for (let round = 0; round < 3; round++) {
      await producing();
      const provider = new JsonRpcProvider({ url: node.url });
      const root = new Account('test.near', provider, key.secret_key);
      const load = (async () => {
        for (let i = 0; i < 15; i++)
          await root.transfer({ receiverId: 'near', amount: 1n }).catch(() => undefined);
      })();
      await new Promise((r) => setTimeout(r, 300 + round * 150));
      await node.kill();
      await load;
      node = await startNode(home, ['--block-time', '15']);
    }
    const head = (await node.rpc<{ header: { height: number } }>('block', { finality: 'optimistic' })).body
      .result!.header.height;
    await node.stop();
    node = await startNode(home, ['--block-time', '600000']);
    t.teardown(() => node.stop());
    const status = await node.rpc<{
      sync_info: { earliest_block_height: number; latest_block_height: number };
    }>('status', []);
    const tail = status.body.result!.sync_info.earliest_block_height;
    t.ok(tail > 1, `GC ran (tail ${tail}, head ${head})`);
    for (let h = tail; h <= status.body.result!.sync_info.latest_block_height; h++) {
      const b = await node.rpc<{ header: { hash: string } }>('block', { block_id: h });
      // By hash: by height, a block below GC's stop height is refused before it is looked at.
      const a = await node.rpc('query', {
        request_type: 'view_account',
        account_id: 'test.near',
        block_id: b.body.result?.header.hash ?? h,
      });
      if (b.body.error || a.body.error) {
        t.fail(`block ${h} is not whole: ${JSON.stringify(b.body.error ?? a.body.error)}`);
        return;
      }
    }
    t.pass('every kept block answers block and state queries');
  },
);
