// A follower of a real producer's exported Lake directory, SIGKILLed again and again while it catches up, ends
// with the producer's answers for every height: blocks, chunks, a sample of queries and tx statuses.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { localChain } from './helpers/chain.js';
import { comparer } from './helpers/follow_compare.js';
import { cli, initHome, type RunningNode, startNode, waitForHeight } from './helpers/node.js';
import { streamActivity } from './helpers/stream_activity.js';

async function followedHeight(node: RunningNode): Promise<number> {
  const { body } = await node.rpc<{ sync_info: { latest_block_height: number } }>('status', []);
  return body.result?.sync_info.latest_block_height ?? 0;
}

t.test('a follower killed again and again mid-catch-up answers as the producer', async (t) => {
  const chain = await localChain(t, { shards: 2, blockTimeMs: 20, archive: true });
  const txs = await streamActivity(chain);
  await waitForHeight(chain.node, 700, 120_000);
  t.equal(await chain.node.stop(), 0);

  const lake = join(chain.home, 'lake');
  const exported = cli(['lake-export', '--home', chain.home, '--out', lake]);
  t.equal(exported.status, 0, exported.stderr);
  // The export holds the final blocks, one folder per height.
  const heights = readdirSync(lake)
    .filter((d) => /^\d+$/.test(d))
    .map(Number);
  const last = Math.max(...heights);
  t.ok(last > 600, `exported up to #${last}`);

  const home = join(chain.home, 'follower');
  initHome(home, ['--genesis', join(chain.home, 'genesis.json')]);
  const follow = ['--follow', `file:${lake}`, '--archive'];
  // Catch-up writes 32 blocks at a time, and a round's start-up already ingests a few batches: kill
  // once the cursor has moved, within the next batches, for as long as blocks are left.
  const seen: number[] = [];
  for (let round = 0; round < 10 && (seen.at(-1) ?? -1) < last; round++) {
    const node = await startNode(home, follow);
    const before = seen.at(-1) ?? -1;
    while ((await followedHeight(node)) <= before) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 20)));
    const h = await followedHeight(node);
    await node.kill();
    if (seen.length > 0) t.ok(h > seen.at(-1)!, `the cursor moved: #${seen.at(-1)} → #${h}`);
    seen.push(h);
  }
  const early = seen.filter((h) => h < last);
  t.ok(early.length >= 5, `killed ${early.length} times before the head #${last}: at ${early.join(', ')}`);

  const follower = await startNode(home, follow);
  t.teardown(() => follower.stop());
  await waitForHeight(follower, last, 120_000);
  // The producer again, on its own home, to answer the same questions (its new blocks lie above `last`).
  const producer = await startNode(chain.home, ['--block-time', '1000', '--archive']);
  t.teardown(() => producer.stop());
  const { same } = comparer(t, producer, [['follower', follower]]);
  let blocks = 0;
  for (let h = 0; h <= last; h++) {
    const block = await same('block', { block_id: h }, `#${h}`);
    if (block.result) blocks++;
    for (const shard of [0, 1]) await same('chunk', { block_id: h, shard_id: shard }, `#${h}/${shard}`);
    if (h % 7 === 0 || h === last) {
      for (const account_id of ['test.near', 'hello.test.near']) {
        await same('query', { request_type: 'view_account', account_id, block_id: h }, `${account_id} #${h}`);
      }
      await same(
        'query',
        { request_type: 'view_state', account_id: 'hello.test.near', prefix_base64: '', block_id: h },
        `state #${h}`,
      );
    }
  }
  t.ok(blocks > 600, `${blocks} blocks compared`);
  for (const [i, hash] of txs.entries()) {
    // The deploy is the one transaction hello.test.near signs.
    const sender = i === 1 ? 'hello.test.near' : 'test.near';
    const st = await same(
      'EXPERIMENTAL_tx_status',
      { tx_hash: hash, sender_account_id: sender, wait_until: 'NONE' },
      hash,
    );
    t.ok(st.result?.receipts_outcome, `tx ${hash} is known`);
  }
  t.equal(await followedHeight(follower), last, 'the follower ends at the exported head');
});
