// A sandbox chain fast-forwarded over three epochs publishes NEAR Lake to S3: its blocks skip most of
// each epoch's heights, as nearcore's sandbox does. A follower of the bucket steps over each run of
// skipped heights from the bucket's listing and answers as the producer does on both sides of them.
import { join } from 'node:path';
import t from 'tap';
import { localChain } from './helpers/chain.js';
import { settledTop } from './helpers/follow_compare.js';
import { initHome, rawRpc, startNode, waitForHeight } from './helpers/node.js';
import { startS3 } from './helpers/s3.js';

const EPOCH = 400;

t.test('a follower of a fast-forwarded chain on S3 steps over its skipped heights', async (t) => {
  const endpoint = await startS3(t, ['ff-lake']);
  const chain = await localChain(t, {
    sandbox: true,
    epochLength: EPOCH,
    archive: true,
    args: ['--lake-out', 's3://ff-lake', '--s3-endpoint', endpoint],
  });
  const producer = chain.node;
  await waitForHeight(producer, 3);
  const ff = await producer.rpc('sandbox_fast_forward', { delta_height: 3 * EPOCH });
  t.same(ff.body.result, {}, 'the fast-forward is done');
  const top = await settledTop(producer);
  t.ok(top > 3 * EPOCH, `the final head, #${top}, is past the fast-forward`);

  // The producer's blocks from the top down: far fewer than its heights.
  const heights: number[] = [];
  for (let h: number | null = top; h !== null && h > 0; ) {
    const { body } = await producer.rpc<{ header: { height: number; prev_height: number | null } }>('block', {
      block_id: h,
    });
    heights.push(h);
    h = body.result!.header.prev_height;
  }
  const skipped = top - heights.length;
  t.ok(skipped > 2 * EPOCH, `${heights.length} blocks for ${top} heights`);

  const home = join(chain.home, 'follower');
  initHome(home, ['--genesis', join(chain.home, 'genesis.json')]);
  const follower = await startNode(home, [
    '--follow',
    's3://ff-lake',
    '--s3-endpoint',
    endpoint,
    '--archive',
  ]);
  t.teardown(() => follower.stop());
  await waitForHeight(follower, top, 60_000);

  for (const h of heights) {
    const [a, b] = await Promise.all([
      rawRpc(producer.url, 'block', { block_id: h }),
      rawRpc(follower.url, 'block', { block_id: h }),
    ]);
    if (!t.equal(b.body, a.body, `block ${h}`)) break;
  }
  // A height inside a skipped run is no block on either.
  const gap = heights.find((h, i) => i + 1 < heights.length && h - heights[i + 1]! > 100)! - 1;
  const [a, b] = await Promise.all([
    producer.rpc('block', { block_id: gap }),
    follower.rpc('block', { block_id: gap }),
  ]);
  t.match(a.body.error, { cause: { name: 'UNKNOWN_BLOCK' } }, `height ${gap}: skipped on the producer`);
  t.same(b.body.error, a.body.error, 'and on the follower');
});
