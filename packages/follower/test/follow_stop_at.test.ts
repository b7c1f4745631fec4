// config.json's `expected_shutdown` on a follower: nothing above the height is fetched or written,
// batches included, and the node is told once every height up to it is done, a skipped one too.
import { FollowLoop, HistoryStore } from '@nearlite/follower';
import { Store } from '@nearlite/store';
import t from 'tap';
import { MemorySource } from '../../../test/helpers/stream_fixtures.js';
import { syntheticChain } from '../../../test/helpers/synthetic_chain.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { logs, until } from './helpers.js';

async function follow(t: Tap.Test, skip: number[], stopAt: () => number | null) {
  const chain = syntheticChain(40, { skip });
  const source = new MemorySource(chain);
  const store = await Store.open(tempDir(t));
  const history = new HistoryStore(store);
  const written: number[] = [];
  const reached: number[] = [];
  const loop = new FollowLoop({
    history,
    source,
    startHeight: 1_000_000,
    log: logs(),
    pollMs: 10,
    retryMaxMs: 10,
    batchSize: 8,
    concurrency: 32,
    stopAt,
    onBlock: (h) => written.push(h),
    onStopReached: (h) => reached.push(h),
  });
  t.teardown(async () => {
    await loop.stop();
    await store.close();
  });
  loop.start();
  return { chain, source, history, written, reached };
}

t.test('a follower writes nothing above its stop height, however far the source is', async (t) => {
  const { history, written, reached, source } = await follow(t, [], () => 1_000_012);
  await until(() => reached.length > 0, 'the stop height reached');
  t.equal(history.cursor()?.height, 1_000_012, 'the cursor is at the stop height');
  t.equal(reached[0], 1_000_012, 'told of it');
  t.equal(Math.max(...written), 1_000_012, 'no block above it written');
  t.notOk(
    source.fetched.some((h) => h > 1_000_012),
    'none above it fetched, though the window and the batch reach further',
  );
  await new Promise((r) => setTimeout(r, 100));
  t.equal(history.cursor()?.height, 1_000_012, 'and it stays there');
});

t.test('a stop height with no block is reached from the block below it', async (t) => {
  const { history, reached } = await follow(t, [1_000_012, 1_000_013], () => 1_000_013);
  await until(() => reached.length > 0, 'the stop height reached');
  t.equal(history.cursor()?.height, 1_000_011, 'the last block at or below it');
  t.equal(reached[0], 1_000_013, 'every height up to it is done');
});

t.test('a stop height raised while the loop waits lets it go on; none lets it reach the head', async (t) => {
  let stopAt: number | null = 1_000_005;
  const { chain, history, reached } = await follow(t, [], () => stopAt);
  await until(() => reached.length > 0, 'the first stop height');
  t.equal(history.cursor()?.height, 1_000_005);
  stopAt = 1_000_020;
  await until(() => history.cursor()?.height === 1_000_020, 'the raised stop height');
  stopAt = null;
  const last = chain.at(-1)!.block.header.height;
  await until(() => history.cursor()?.height === last, 'the head');
  t.pass('followed to the head once no stop height is set');
});
