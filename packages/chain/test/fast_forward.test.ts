// Chain.fastForward as nearcore's sandbox_process_fast_forward: from a head `inEpoch` heights into
// its epoch of length L, the next block skips to three heights before the epoch's end unless the head
// is within three of it or at it, and the target caps the jump (the block then lands one above it).
// With L = 10 from genesis to a target of 30 that gives the blocks 1, 8, 9, 10, 11, 18, 19, 20, 21,
// 28, 29, 30. GC, the integrity check and the repair then work on a chain with skipped heights.
import { checkChain, gcStep, generateKeyFile, openLocalnetChain, repairChain } from '@nearlite/chain';
import { DBCol, Store, StoreUpdate, u64be } from '@nearlite/store';
import t from 'tap';

const L = 10;

async function setup() {
  const store = await Store.memory();
  const chain = await openLocalnetChain(store, {
    numShards: 2,
    epochLength: L,
    key: generateKeyFile('test.near'),
  });
  const heights = () => {
    const out: number[] = [];
    for (let h = 1; h <= chain.head().height; h++) if (chain.chainStore.blockHashByHeight(h)) out.push(h);
    return out;
  };
  return { store, chain, heights };
}

t.test('the heights a fast-forward leaves blocks at', async (t) => {
  const { chain, heights } = await setup();
  await chain.fastForward(3 * L, 1_000_000_000n);
  t.same(heights(), [1, 8, 9, 10, 11, 18, 19, 20, 21, 28, 29, 30]);
  // From #30 (an epoch's end) to a target of 35: #31 one by one, then one jump past the target.
  await chain.fastForward(5, 1_000_000_000n);
  t.same(heights().slice(-3), [30, 31, 36], 'the last jump lands one above the target');
  const h36 = chain.chainStore.blockHeader(chain.chainStore.blockHashByHeight(36)!)!;
  t.equal(h36.rest.prevHeight, 31);
  t.equal(h36.rest.blockOrdinal, 15, 'ordinals count blocks: genesis is 1');
  // Block time: a second for each height passed.
  const h31 = chain.chainStore.blockHeader(chain.chainStore.blockHashByHeight(31)!)!;
  t.ok(h36.lite.timestamp - h31.lite.timestamp >= 5_000_000_000n, 'five heights, five seconds');
  await chain.produceBlocks(3);
  t.same(heights().slice(-4), [36, 37, 38, 39], 'produceBlocks makes a block at every height');
});

t.test('GC passes the skipped heights and leaves its tail on a block', async (t) => {
  const { chain } = await setup();
  await chain.fastForward(8 * L + 3, 1_000_000_000n);
  while ((await gcStep(chain, { numEpochsToKeep: 3, blocksPerStep: 2 })) > 0) {}
  const tail = chain.chainStore.tail()!;
  t.ok(tail > L, `tail moved to ${tail}`);
  t.ok(chain.chainStore.blockHashByHeight(tail), 'the tail names a block');
  // The height index outlives GC: below the tail it still names a block where there was one and
  // nothing where the fast-forward skipped, and no block below the tail is kept whole.
  for (let h = 1; h < tail; h++) {
    const hash = chain.chainStore.blockHashByHeight(h);
    const skipped = h > 1 && h % L !== 8 && h % L !== 9 && h % L !== 0 && h % L !== 1;
    t.equal(hash === undefined, skipped, `#${h}: ${skipped ? 'skipped' : 'named'}`);
    if (hash) t.notOk(chain.store.get(DBCol.Block, hash), `#${h}: its block is collected`);
  }
});

t.test('the integrity check tells a skipped height from a hole', async (t) => {
  const { store, chain } = await setup();
  await chain.fastForward(3 * L, 1_000_000_000n);
  const shards = chain.layout.shardIds;
  t.same(checkChain(store, shards, { window: Number.POSITIVE_INFINITY }).problems, [], 'a whole chain');

  // A height index row where the chain skipped.
  const stray = new StoreUpdate();
  stray.put(DBCol.BlockHeight, u64be(14), chain.chainStore.blockHashByHeight(18)!);
  await store.commit(stray);
  t.same(checkChain(store, shards, { window: Number.POSITIVE_INFINITY }).problems, [
    { height: 14, what: 'a block is stored at a height the chain skips' },
  ]);
  const undo = new StoreUpdate();
  undo.delete(DBCol.BlockHeight, u64be(14));
  await store.commit(undo);

  // The block the jump made is gone from the height index: a hole, and its child's parent missing.
  const hole = new StoreUpdate();
  hole.delete(DBCol.BlockHeight, u64be(18));
  await store.commit(hole);
  t.same(checkChain(store, shards, { window: Number.POSITIVE_INFINITY }).problems, [
    { height: 18, what: 'no block at this height' },
  ]);
  const repaired = await repairChain(store, shards, 0);
  t.equal(repaired.head?.height, 11, 'rolled back to the last block below the hole');
  t.same(checkChain(store, shards, { window: Number.POSITIVE_INFINITY }).problems, []);
});
