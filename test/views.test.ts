// View calls run off the RPC loop: a runaway view ends at the view gas limit with nearcore's legacy
// error, and other requests are answered while it runs.
import { createHash } from 'node:crypto';
import { baseDecode } from 'near-api-js';
import t from 'tap';
import wabt from 'wabt';
import { deployedAccount, localChain } from './helpers/chain.js';
import { startFollower, waitForHeight } from './helpers/node.js';
import { tempDir } from './helpers/tmp.js';

t.test('a runaway view does not hold up other requests', async (t) => {
  const w = await wabt();
  const code = w
    .parseWat(
      'spin.wat',
      '(module (import "env" "storage_write" (func (param i64 i64 i64 i64 i64) (result i64))) (func (export "spin") (loop $l (br $l))) (func (export "write") (drop (call 0 (i64.const 0) (i64.const 0) (i64.const 0) (i64.const 0) (i64.const 0)))))',
    )
    .toBinary({}).buffer;
  const { node, provider, root } = await localChain(t);
  await deployedAccount({ provider, root }, 'spin.test.near', code, 10n ** 25n);

  const order: string[] = [];
  const view = node
    .rpc<{ error: string }>('query', {
      request_type: 'call_function',
      account_id: 'spin.test.near',
      method_name: 'spin',
      args_base64: '',
      finality: 'optimistic',
    })
    .then((r) => {
      order.push('view');
      return r;
    });
  const others = Promise.all([node.rpc('status', []), node.rpc('block', { finality: 'optimistic' })]).then(
    () => order.push('others'),
  );
  const [spun] = await Promise.all([view, others]);
  t.same(order, ['others', 'view'], 'status and block were answered while the contract was spinning');
  t.equal(spun.body.result?.error, 'wasm execution failed with error: HostError(GasLimitExceeded)');
  const write = await node.rpc<{ error: string }>('query', {
    request_type: 'call_function',
    account_id: 'spin.test.near',
    method_name: 'write',
    args_base64: '',
    finality: 'optimistic',
  });
  t.equal(
    write.body.result?.error,
    'wasm execution failed with error: HostError(ProhibitedInView { method_name: "storage_write" })',
  );
  const missing = await node.rpc<{ error: string }>('query', {
    request_type: 'call_function',
    account_id: 'spin.test.near',
    method_name: 'nope',
    args_base64: '',
    finality: 'optimistic',
  });
  t.equal(missing.body.result?.error, 'wasm execution failed with error: MethodResolveError(MethodNotFound)');
  const noCode = await node.rpc<{ error: string }>('query', {
    request_type: 'call_function',
    account_id: 'test.near',
    method_name: 'x',
    args_base64: '',
    finality: 'optimistic',
  });
  t.equal(
    noCode.body.result?.error,
    'wasm execution failed with error: CompilationError(CodeDoesNotExist { account_id: "test.near" })',
  );
});

t.test('a view sees its block’s epoch, as a receipt in that block does', async (t) => {
  const w = await wabt();
  const code = w
    .parseWat(
      'epoch.wat',
      `(module
        (import "env" "epoch_height" (func $epoch_height (result i64)))
        (import "env" "value_return" (func $ret (param i64 i64)))
        (import "env" "storage_write" (func $write (param i64 i64 i64 i64 i64) (result i64)))
        (import "env" "storage_read" (func $read (param i64 i64 i64) (result i64)))
        (import "env" "read_register" (func $read_register (param i64 i64)))
        (memory 1)
        (data (i32.const 0) "e")
        (func (export "epoch") (i64.store (i32.const 8) (call $epoch_height)) (call $ret (i64.const 8) (i64.const 8)))
        (func (export "record") (i64.store (i32.const 8) (call $epoch_height))
          (drop (call $write (i64.const 1) (i64.const 0) (i64.const 8) (i64.const 8) (i64.const 0))))
        (func (export "recorded") (drop (call $read (i64.const 1) (i64.const 0) (i64.const 0)))
          (call $read_register (i64.const 0) (i64.const 8)) (call $ret (i64.const 8) (i64.const 8))))`,
    )
    .toBinary({}).buffer;
  // Archival: with 4-block epochs a GC node would collect the early heights while a loaded machine
  // works through the queries.
  const { node, provider, root } = await localChain(t, { epochLength: 4, archive: true });
  const owner = await deployedAccount({ provider, root }, 'epoch.test.near', code, 10n ** 25n);
  const u64 = (b: { result: number[] }) => Buffer.from(b.result).readBigUInt64LE(0);
  const view = async (method: string, blockId: number | string) => {
    const r = await node.rpc<{ result: number[] }>('query', {
      request_type: 'call_function',
      account_id: 'epoch.test.near',
      method_name: method,
      args_base64: '',
      block_id: blockId,
    });
    return u64(r.body.result!);
  };
  const status = await node.rpc<{ sync_info: { latest_block_height: number } }>('status', []);
  const base = status.body.result!.sync_info.latest_block_height;
  await waitForHeight(node, base + 13);
  // Several epochs in: at each height the view's epoch height is the one the validators method gives.
  const seen = new Set<bigint>();
  for (const height of [base, base + 4, base + 8, base + 12]) {
    // By epoch id: nearcore answers `validators` by block only for an epoch's last block.
    const block = await node.rpc<{ header: { epoch_id: string } }>('block', { block_id: height });
    const v = await node.rpc<{ epoch_height: number }>('validators', {
      epoch_id: block.body.result!.header.epoch_id,
    });
    const e = await view('epoch', height);
    t.equal(e, BigInt(v.body.result!.epoch_height), `epoch height at block ${height}`);
    seen.add(e);
  }
  t.equal(seen.size, 4, 'four epochs, four epoch heights');
  // A receipt records the epoch height it ran in; a view at that receipt's block sees the same.
  const sent = await owner.callFunctionRaw({ contractId: 'epoch.test.near', methodName: 'record', args: {} });
  const receiptBlock = sent.receipts_outcome[0]!.block_hash;
  t.equal(await view('recorded', receiptBlock), await view('epoch', receiptBlock));
  t.ok((await view('recorded', receiptBlock)) >= 4n, 'recorded after several epochs');
});

t.test(
  'a view’s random seed is made from the state root it reads, as nearcore and read-rpc make it',
  async (t) => {
    const code = (await wabt())
      .parseWat(
        'seed.wat',
        `(module
        (import "env" "random_seed" (func $seed (param i64)))
        (import "env" "read_register" (func $read_register (param i64 i64)))
        (import "env" "value_return" (func $ret (param i64 i64)))
        (memory 1)
        (func (export "seed") (call $seed (i64.const 0)) (call $read_register (i64.const 0) (i64.const 0))
          (call $ret (i64.const 32) (i64.const 0))))`,
      )
      .toBinary({}).buffer;
    // Archival, so that the follower reads every block the producer made.
    const { home, node, provider, root } = await localChain(t, { archive: true });
    await deployedAccount({ provider, root }, 'seed.test.near', code, 10n ** 25n);
    const seedAt = async (n: { rpc: typeof node.rpc }, height: number) =>
      Buffer.from(
        (
          await n.rpc<{ result: number[] }>('query', {
            request_type: 'call_function',
            account_id: 'seed.test.near',
            method_name: 'seed',
            args_base64: '',
            block_id: height,
          })
        ).body.result!.result,
      ).toString('hex');
    const block = async (height: number) =>
      (
        await node.rpc<{ header: { prev_state_root: string }; chunks: { prev_state_root: string }[] }>(
          'block',
          {
            block_id: height,
          },
        )
      ).body.result!;
    const zero = Buffer.alloc(32);
    const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
    const head = (await node.rpc<{ header: { height: number } }>('block', { finality: 'optimistic' })).body
      .result!.header.height;
    await waitForHeight(node, head + 3);
    // nearcore (runtime/src/state_viewer): ApplyState.random_seed is the shard's state root at the
    // block read, the post-state the next chunk names as its prev_state_root; the action hash is
    // zero: sha256(0^32 ‖ root).
    const seeds = new Set<string>();
    for (const height of [head, head + 1, head + 2]) {
      const after = (await block(height + 1)).chunks[0]!.prev_state_root;
      const want = sha(Buffer.concat([zero, baseDecode(after)]));
      t.equal(await seedAt(node, height), want, `the producer's seed at ${height}`);
      seeds.add(want);
    }
    t.ok(seeds.size > 1, 'the seed moves with the state');
    // read-rpc (rpc-server/src/modules/queries/contract_runner) has no chunk's post-state root and
    // takes the header's prev_state_root: a follower answers as it does.
    const follower = await startFollower(home, node.url, ['--archive']);
    t.teardown(() => follower.stop());
    await waitForHeight(follower, head + 3);
    for (const height of [head, head + 2]) {
      const want = sha(Buffer.concat([zero, baseDecode((await block(height)).header.prev_state_root)]));
      t.equal(await seedAt(follower, height), want, `the follower's seed at ${height}`);
    }
  },
);

t.test('protocol 85’s host functions: chain_id and p256_verify, in views and receipts', async (t) => {
  // value_return of chain_id; and p256_verify of input = sig(64) ‖ pk(33) ‖ digest(32).
  const code = (await wabt())
    .parseWat(
      'p256.wat',
      `(module
        (import "env" "chain_id" (func $chain_id (param i64)))
        (import "env" "input" (func $input (param i64)))
        (import "env" "read_register" (func $read_register (param i64 i64)))
        (import "env" "p256_verify" (func $p256 (param i64 i64 i64 i64 i64 i64) (result i64)))
        (import "env" "value_return" (func $ret (param i64 i64)))
        (memory 1)
        (func (export "chain") (call $chain_id (i64.const 0)) (call $ret (i64.const -1) (i64.const 0)))
        (func (export "verify")
          (call $input (i64.const 1))
          (call $read_register (i64.const 1) (i64.const 100))
          (i64.store (i32.const 0)
            (call $p256 (i64.const 64) (i64.const 100) (i64.const 32) (i64.const 197) (i64.const 33) (i64.const 164)))
          (call $ret (i64.const 8) (i64.const 0))))`,
    )
    .toBinary({}).buffer;
  const { node, provider, root } = await localChain(t);
  const owner = await deployedAccount({ provider, root }, 'p256.test.near', code, 10n ** 25n);
  const status = await node.rpc<{ chain_id: string }>('status', []);
  const chainId = status.body.result!.chain_id;
  const view = async (method: string, args: Uint8Array) =>
    Buffer.from(
      (
        await node.rpc<{ result: number[] }>('query', {
          request_type: 'call_function',
          account_id: 'p256.test.near',
          method_name: method,
          args_base64: Buffer.from(args).toString('base64'),
          finality: 'optimistic',
        })
      ).body.result!.result,
    );
  t.equal((await view('chain', new Uint8Array(0))).toString(), chainId, "a view reads the genesis' chain id");
  const sent = await owner.callFunctionRaw({ contractId: 'p256.test.near', methodName: 'chain', args: {} });
  const value = (sent.status as { SuccessValue: string }).SuccessValue;
  t.equal(Buffer.from(value, 'base64').toString(), chainId, 'so does a receipt');
  // RFC 6979 A.2.5's key and nearcore's signature of the digest 32 × 0x07.
  const input = Buffer.from(
    '11371917ab11ccca08ec7444d8a05dac6c253b19cf163cfb75b408cdd2134ffb502537c7cad66661d4105005fe17a29b5e27ff23a81f9236a548b2eda6861d64' +
      '0360fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6' +
      '07'.repeat(32),
    'hex',
  );
  t.equal((await view('verify', input)).readBigUInt64LE(0), 1n, 'a valid P-256 signature');
  input[100] ^= 1;
  t.equal((await view('verify', input)).readBigUInt64LE(0), 0n, 'a tampered digest');
});

t.test('config.json trie_viewer_state_size_limit is obeyed, null lifts it', async (t) => {
  const { readFileSync, writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { initHome, startNode } = await import('./helpers/node.js');
  for (const [limit, expectError] of [
    [10, true],
    [null, false],
    [50_000, false],
  ] as const) {
    const home = tempDir(t);
    initHome(home);
    const path = join(home, 'config.json');
    writeFileSync(
      path,
      JSON.stringify({ ...JSON.parse(readFileSync(path, 'utf8')), trie_viewer_state_size_limit: limit }),
    );
    const node = await startNode(home, ['--block-time', '50']);
    await waitForHeight(node, 2);
    const r = await node.rpc<{ values: unknown[] }>('query', {
      request_type: 'view_state',
      account_id: 'test.near',
      prefix_base64: '',
      finality: 'optimistic',
    });
    if (expectError) t.equal(r.body.error?.cause.name, 'TOO_LARGE_CONTRACT_STATE', `limit ${limit}`);
    else t.ok(Array.isArray(r.body.result?.values), `limit ${limit}: answered`);
    await node.stop();
  }
});

t.test('view-call gas per second is limited per client', async (t) => {
  const w = await wabt();
  const code = w
    .parseWat('spin.wat', '(module (func (export "spin") (loop $l (br $l))))')
    .toBinary({}).buffer;
  // One spinning view burns the whole view gas limit, far above a second's allowance.
  const { node, provider, root } = await localChain(t, {
    rpc: { rate_limit: { view_gas_per_second: 10 ** 12 } },
  });
  await deployedAccount({ provider, root }, 'spin.test.near', code, 10n ** 25n);
  const spin = () =>
    node.rpc<{ error?: string }>('query', {
      request_type: 'call_function',
      account_id: 'spin.test.near',
      method_name: 'spin',
      args_base64: '',
      finality: 'optimistic',
    });
  const first = await spin();
  t.match(first.body.result?.error, /GasLimitExceeded/, 'the first view runs, burning the view gas limit');
  const second = await spin();
  t.equal(second.status, 429, 'the next is refused');
  t.equal(second.body.error?.cause.name, 'TOO_MANY_REQUESTS');
  const spinParams = {
    account_id: 'spin.test.near',
    method_name: 'spin',
    args_base64: '',
    finality: 'optimistic',
  };
  for (const [method, params] of [
    ['EXPERIMENTAL_call_function', spinParams],
    ['query', ['call/spin.test.near/spin', '']],
  ] as const) {
    const r = await node.rpc(method, params);
    t.equal(r.status, 429, `${method} ${JSON.stringify(params)} is a view call too`);
  }
  const odd = await node.rpc('query', [{ toString: 1 }, 'x']);
  t.equal(odd.status, 400, 'a path that is not a string is a parse error of the request, not a crash');
  t.not(odd.body.id, null, 'answered to its id');
  t.match(odd.body.error, { name: 'REQUEST_VALIDATION_ERROR', cause: { name: 'PARSE_ERROR' } });
  t.equal((await node.rpc('status', [])).status, 200, 'other methods are not limited by view gas');
});

t.test("config.json's max_gas_burnt_view bounds what a view call may burn", async (t) => {
  // nearcore's ClientConfig::max_gas_burnt_view overrides the protocol's max_gas_burnt for view
  // calls (TrieViewer::call_function); client_config reports it.
  const limit = 10_000_000_000_000;
  const w = await wabt();
  const code = w
    .parseWat('spin.wat', '(module (func (export "spin") (loop $l (br $l))))')
    .toBinary({}).buffer;
  const { node, provider, root } = await localChain(t, { config: { max_gas_burnt_view: limit } });
  await deployedAccount({ provider, root }, 'spin.test.near', code, 10n ** 25n);
  const burnt = async () => {
    const text = await (await fetch(`${node.url}/metrics`)).text();
    return Number(/^nearlite_view_call_gas_total (\d+)$/m.exec(text)?.[1]);
  };
  const before = await burnt();
  const spun = await node.rpc<{ error: string }>('query', {
    request_type: 'call_function',
    account_id: 'spin.test.near',
    method_name: 'spin',
    args_base64: '',
    finality: 'optimistic',
  });
  t.equal(spun.body.result?.error, 'wasm execution failed with error: HostError(GasLimitExceeded)');
  t.equal((await burnt()) - before, limit, 'the view burnt the configured limit, not the protocol’s 1 Pgas');
  const config = await node.rpc<{ max_gas_burnt_view: number | null }>('client_config', []);
  t.equal(config.body.result?.max_gas_burnt_view, limit);
});
