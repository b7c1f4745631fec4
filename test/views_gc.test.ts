// View calls read the trie on worker threads while GC collects old blocks under them: an answer at
// a kept block is that block's value, or the call fails (GARBAGE_COLLECTED_BLOCK below the tail, an
// internal error at worst), never a key read as absent.
import { createHash } from 'node:crypto';
import t from 'tap';
import { compileContract } from './helpers/asc.js';
import { localChain } from './helpers/chain.js';
import { waitForHeight } from './helpers/node.js';

const i32 = (n: number) => {
  const v = Buffer.alloc(4);
  v.writeInt32LE(n);
  return v.toString('base64');
};

t.test('call_function near the GC tail while blocks and GC go on', async (t) => {
  const { node } = await localChain(t, { epochLength: 4, blockTimeMs: 20, sandbox: true });
  const code = await compileContract('counter');
  const base58 = (await import('near-api-js')).baseEncode;
  const data = (n: number) => ({
    Data: { account_id: 'c.test.near', data_key: Buffer.from('n').toString('base64'), value: i32(n) },
  });
  const patched = await node.rpc('sandbox_patch_state', {
    records: [
      {
        Account: {
          account_id: 'c.test.near',
          account: {
            amount: (10n ** 25n).toString(),
            locked: '0',
            code_hash: base58(createHash('sha256').update(code).digest()),
            storage_usage: 100 + code.length,
          },
        },
      },
      { Contract: { account_id: 'c.test.near', code: Buffer.from(code).toString('base64') } },
      data(1),
    ],
  });
  t.same(patched.body.result, {});
  const head = async () =>
    ((await node.rpc('block', { finality: 'optimistic' })).body.result as { header: { height: number } })
      .header.height;
  const start = await head();
  const until = start + 80;
  let done = false;
  // Every block changes n, so GC releases the node holding the previous value each time it collects.
  const writer = (async () => {
    for (let i = 2; !done; i++) await node.rpc('sandbox_patch_state', { records: [data(i)] });
  })();
  const seen = { agreed: 0, collected: 0, internal: 0 };
  const wrong: string[] = [];
  const reader = async () => {
    while (!done) {
      // GC keeps five epochs of four blocks: ask around the tail, never before the contract was there
      // and never above the head (right after the start, start + 1 may not be made yet).
      const now = await head();
      if (now <= start) {
        await new Promise((r) => setTimeout(r, 10));
        continue;
      }
      const h = Math.max(start + 1, now - 17 - Math.floor(Math.random() * 12));
      const call = await node.rpc('query', {
        request_type: 'call_function',
        block_id: h,
        account_id: 'c.test.near',
        method_name: 'get',
        args_base64: '',
      });
      const state = await node.rpc('query', {
        request_type: 'view_state',
        block_id: h,
        account_id: 'c.test.near',
        prefix_base64: Buffer.from('n').toString('base64'),
      });
      const callResult = call.body.result as { result?: number[] } | undefined;
      const error = call.body.error as { cause?: { name?: string }; name?: string } | undefined;
      if (callResult?.result) {
        const got = Buffer.from(callResult.result).toString();
        const values = (state.body.result as { values?: { value: string }[] } | undefined)?.values;
        if (values) {
          const want = String(Buffer.from(values[0]!.value, 'base64').readInt32LE());
          if (got === want) seen.agreed++;
          else wrong.push(`#${h}: call_function read ${got}, the block's state holds ${want}`);
        } else if (got === '0') wrong.push(`#${h}: call_function read n as absent`);
      } else if (error?.cause?.name === 'GARBAGE_COLLECTED_BLOCK') seen.collected++;
      else if (error?.name === 'INTERNAL_ERROR') seen.internal++;
      else {
        // What the node says right after, to tell a block that was there from one that was not.
        const status = await node.rpc('status', []);
        const after = await node.rpc('block', { block_id: h });
        const tail = (status.body.result as { sync_info?: { earliest_block_height?: number } } | undefined)
          ?.sync_info?.earliest_block_height;
        const found = after.body.result !== undefined ? 'found' : JSON.stringify(after.body.error);
        wrong.push(
          `#${h}: unexpected answer ${JSON.stringify(call.body)}; then tail #${tail}, block #${h} ${found}`,
        );
      }
    }
  };
  const readers = [reader(), reader(), reader(), reader()];
  // On a loaded machine a view's round trips can outlast the blocks between its height and the tail,
  // so the race runs on (up to 400 blocks) until some views have landed above the tail.
  const cap = start + 400;
  for (let h = await head(); h < until || (seen.agreed < 5 && h < cap); h = await head())
    await new Promise((r) => setTimeout(r, 50));
  done = true;
  await Promise.all([writer, ...readers]);
  t.same(wrong, [], 'no view read a wrong or absent value');
  t.ok(seen.agreed >= 5, `views near the tail answered with their block's value (${JSON.stringify(seen)})`);
  // Whether a racing call landed below the moving tail depends on timing; one asked below the tail
  // once GC has moved it always must be told so.
  const status = await node.rpc('status', []);
  const tail = (status.body.result as { sync_info: { earliest_block_height: number } }).sync_info
    .earliest_block_height;
  t.ok(tail > start, `GC moved the tail to #${tail} (${seen.collected} racing calls were below it)`);
  const below = await node.rpc('query', {
    request_type: 'call_function',
    block_id: tail - 1,
    account_id: 'c.test.near',
    method_name: 'get',
    args_base64: '',
  });
  const cause = (below.body.error as { cause?: { name?: string } } | undefined)?.cause?.name;
  t.equal(cause, 'GARBAGE_COLLECTED_BLOCK', 'a call below the tail is told its block was collected');
  // The method of its own makes that an INTERNAL_ERROR of RpcCallFunctionError, whose Display is `data`.
  const own = await node.rpc('EXPERIMENTAL_call_function', {
    block_id: tail - 1,
    account_id: 'c.test.near',
    method_name: 'get',
    args_base64: '',
  });
  const collected = `The data for block #${tail - 1} is garbage collected on this node, use an archival node to fetch historical data`;
  t.equal(own.status, 500);
  t.same(own.body.error, {
    name: 'INTERNAL_ERROR',
    cause: { name: 'INTERNAL_ERROR', info: { error_message: collected } },
    code: -32000,
    message: 'Server error',
    data: `The node reached its limits. Try again later. More details: ${collected}`,
  });
});

// nearcore's GC never collects a block's header nor the height index (chain/chain/src/
// garbage_collection.rs): below the tail a height still names its block, and what reads a header
// alone answers there as before.
t.test('a collected block keeps its header: what nearcore answers below the tail', async (t) => {
  // Blocks slow enough that block 2 is read before GC reaches it (three epochs of four blocks on).
  const { node } = await localChain(t, { epochLength: 4, blockTimeMs: 100 });
  const result = async (method: string, params: unknown) => {
    const r = await node.rpc<Record<string, unknown>>(method, params);
    t.notOk(r.body.error, `${method} ${JSON.stringify(params)} answers`);
    return r.body.result!;
  };
  const h2 = ((await result('block', { block_id: 2 })) as { header: { hash: string } }).header.hash;
  // A light client's head must be final and above the block it proves.
  await waitForHeight(node, 6);
  const finalHead = ((await result('block', { finality: 'final' })) as { header: { hash: string } }).header
    .hash;
  const before = {
    gasPrice: await result('gas_price', [2]),
    config: await result('EXPERIMENTAL_protocol_config', { block_id: 2 }),
    proof: await result('EXPERIMENTAL_light_client_block_proof', {
      block_hash: h2,
      light_client_head: finalHead,
    }),
  };
  const tail = async () =>
    ((await result('status', [])) as { sync_info: { earliest_block_height: number } }).sync_info
      .earliest_block_height;
  while ((await tail()) <= 3) await new Promise((r) => setTimeout(r, 50));

  const collected = {
    name: 'HANDLER_ERROR',
    cause: { name: 'GARBAGE_COLLECTED_BLOCK', info: { block_height: 2, block_hash: h2 } },
    code: -32000,
    message: 'Server error',
    data: 'The data for block #2 is garbage collected on this node, use an archival node to fetch historical data',
  };
  // nearcore's handle_query: by height, GARBAGE_COLLECTED_BLOCK naming the block; by hash the
  // header is found and the chunk extra is not, which (with ContinuousEpochSync) is UNAVAILABLE_SHARD.
  const query = (blockId: number | string) =>
    node.rpc('query', { request_type: 'view_account', account_id: 'test.near', block_id: blockId });
  t.same((await query(2)).body.error, collected, 'query at #2: GARBAGE_COLLECTED_BLOCK naming the block');
  t.same((await query(h2)).body.error, {
    name: 'HANDLER_ERROR',
    cause: { name: 'UNAVAILABLE_SHARD', info: { requested_shard_id: 0 } },
    code: -32000,
    message: 'Server error',
    data: 'The node does not track the shard ID 0',
  });
  for (const blockId of [2, h2]) {
    const b = await node.rpc('block', { block_id: blockId });
    t.equal(
      (b.body.error as { data?: unknown } | undefined)?.data,
      `DB Not Found Error: BLOCK: ${h2} \n Cause: Unknown`,
      `block ${blockId}: the block itself is gone`,
    );
    t.same(await result('gas_price', [blockId]), before.gasPrice, `gas_price at ${blockId}, from the header`);
    t.same(await result('EXPERIMENTAL_protocol_config', { block_id: blockId }), before.config);
  }
  t.same(
    await result('EXPERIMENTAL_light_client_block_proof', { block_hash: h2, light_client_head: finalHead }),
    before.proof,
    "a light client's proof of the collected block, as before",
  );
  const next = (await result('next_light_client_block', [h2])) as { inner_lite?: { height: number } };
  t.ok((next.inner_lite?.height ?? 0) > 2, 'next_light_client_block from the collected block');
});
