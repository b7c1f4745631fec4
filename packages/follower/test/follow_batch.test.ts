// Catch-up writes several blocks per LevelDB batch. These tests hold the loop to what a batch of one
// promised: a failed write leaves the cursor on a whole block and a restart resumes there with
// nothing missing or doubled; a block refused inside a batch keeps the blocks before it and stores
// nothing of itself.

import { FollowLoop, HistoryStore } from '@nearlite/follower';
import { base58Decode } from '@nearlite/primitives';
import { DBCol, Store, StoreError, StoreErrorCode, type StoreUpdate } from '@nearlite/store';
import t from 'tap';
import { MemorySource } from '../../../test/helpers/stream_fixtures.js';
import { syntheticChain } from '../../../test/helpers/synthetic_chain.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { logs, until } from './helpers.js';

/** Heights with a block in the store, from the height index. */
async function storedHeights(history: HistoryStore, chainHeights: readonly number[]): Promise<number[]> {
  const out: number[] = [];
  for (const h of chainHeights) if (await history.blockAt(h)) out.push(h);
  return out;
}

t.test('a write failing mid-catch-up leaves whole blocks, and a restart resumes after them', async (t) => {
  const chain = syntheticChain(50);
  const heights = chain.map((m) => m.block.header.height);
  const dir = tempDir(t);
  const order: number[] = [];

  // First run: from the third batch on every write fails, as a full disk would make them. The loop
  // writes the batch again after a pause, for as long as it runs.
  let store = await Store.open(dir);
  let history = new HistoryStore(store);
  const commit = store.commit.bind(store);
  let commits = 0;
  const sizes: number[] = [];
  store.commit = async (update: StoreUpdate) => {
    if (++commits >= 3) throw new StoreError(StoreErrorCode.Io, 'injected write failure');
    sizes.push(update.ops.filter((op) => op.col === DBCol.StreamBlockHeight).length);
    return commit(update);
  };
  const log = logs();
  let loop = new FollowLoop({
    history,
    source: new MemorySource(chain),
    startHeight: heights[0]!,
    log,
    batchSize: 8,
    retryMaxMs: 10,
    onBlock: (h) => order.push(h),
  });
  loop.start();
  const failed = () =>
    log.lines.filter((l) => l.includes('failed, retrying') && l.includes('injected write failure'));
  await until(() => failed().length >= 2, 'the failed write, written again');
  await loop.stop();
  t.match(failed()[0], `writing blocks ${heights[16]}..${heights[23]} failed`, 'the failed batch is named');
  t.notOk(
    log.lines.some((l) => l.includes('follow loop stopped')),
    'the loop ran on until stopped',
  );
  t.same(sizes, [8, 8], 'two batches of eight blocks each were written');
  const cursor = history.cursor();
  t.equal(cursor?.height, heights[15], 'the cursor is on the last block of the last whole batch');
  t.same(cursor?.hash, base58Decode(chain[15]!.block.header.hash));
  t.same(await storedHeights(history, heights), heights.slice(0, 16), 'nothing of the failed batch stored');
  t.notOk(
    await history.stateChanges(base58Decode(chain[16]!.block.header.hash)),
    'not even the failed batch’s state changes',
  );
  await store.close();

  // Second run over the same database: everything after the cursor, once.
  store = await Store.open(dir);
  history = new HistoryStore(store);
  loop = new FollowLoop({
    history,
    source: new MemorySource(chain),
    startHeight: heights[0]!,
    log: logs(),
    batchSize: 8,
    onBlock: (h) => order.push(h),
  });
  loop.start();
  await until(() => history.cursor()?.height === heights.at(-1), 'the rest of the chain');
  await loop.stop();
  t.same(order, heights, 'every block reported committed once, in order, over both runs');
  t.same(await storedHeights(history, heights), heights, 'every block stored');
  t.ok(store.stats.batches < 34 / 2, 'the second run also wrote several blocks per batch');
  await store.close();
});

t.test('a block refused inside a batch: the blocks before it are committed, nothing of it', async (t) => {
  const chain = syntheticChain(12);
  const heights = chain.map((m) => m.block.header.height);
  const bad = structuredClone(chain[5]!);
  bad.block.header.gas_price = '1';
  const source = new MemorySource([...chain.slice(0, 5), bad, ...chain.slice(6)]);
  const store = await Store.open(tempDir(t));
  const history = new HistoryStore(store);
  const log = logs();
  const order: number[] = [];
  const loop = new FollowLoop({
    history,
    source,
    startHeight: heights[0]!,
    log,
    batchSize: 10,
    pollMs: 10,
    retryMaxMs: 10,
    onBlock: (h) => order.push(h),
  });
  loop.start();
  await until(() => log.lines.some((l) => l.includes('refused (block_hash)')), 'the refusal');
  t.equal(history.cursor()?.height, heights[4], 'the cursor is on the block before the refused one');
  t.same(await storedHeights(history, heights), heights.slice(0, 5), 'the five blocks before it stored');
  t.equal(store.stats.batches, 1, 'in one batch');
  t.notOk(await history.block(base58Decode(bad.block.header.hash)), 'the refused block is not stored');
  t.notOk(await history.block(base58Decode(chain[5]!.block.header.hash)), 'nor the good block at its height');
  t.notOk(await history.stateChanges(base58Decode(chain[6]!.block.header.hash)), 'nor anything after it');
  source.add(chain[5]!);
  await until(() => history.cursor()?.height === heights.at(-1), 'the rest once the source is fixed');
  await loop.stop();
  t.same(order, heights, 'every block committed once, in order');
  t.same(await storedHeights(history, heights), heights);
  await store.close();
});

t.test('a non-archival follower catching up in batches collects as fast as it writes', async (t) => {
  const chain = syntheticChain(60);
  const store = await Store.open(tempDir(t));
  const history = new HistoryStore(store, { gcGraceMs: 0 });
  const loop = new FollowLoop({
    history,
    source: new MemorySource(chain),
    startHeight: chain[0]!.block.header.height,
    log: logs(),
    pollMs: 10,
    batchSize: 16,
    gc: { keepBlocks: 10 },
  });
  loop.start();
  const last = chain.at(-1)!.block.header.height;
  // No block comes after the last batch, so no later step could make up for a slow one.
  await until(() => history.cursor()?.height === last && history.firstHeight() === last - 10, 'GC to settle');
  await loop.stop();
  for (const m of chain) {
    const h = m.block.header.height;
    const view = JSON.parse((await history.blockAt(h))!.json) as { chunks?: unknown };
    t.equal(view.chunks !== undefined, h >= last - 10, `block ${h}: whole, or its header alone`);
  }
  await store.close();
});
