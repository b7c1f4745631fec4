// GC and views on other threads, or reading across awaits: a pinned height keeps its state whole
// however far GC could go.
import {
  blockEffectsView,
  type Chain,
  changesView,
  gcStep,
  openLocalnetChain,
  StatePins,
  stateRecordToWrite,
} from '@nearlite/chain';
import { HandlerError, toBase64, utf8 } from '@nearlite/primitives';
import { Store } from '@nearlite/store';
import { trieKeyContractData } from '@nearlite/trie';
import t from 'tap';

async function chainWithGc() {
  const store = await Store.memory();
  const chain = await openLocalnetChain(store, { numShards: 1, epochLength: 3 });
  return { chain, store };
}

const KEY = trieKeyContractData('test.near', utf8('k'));

/** Produces a block that sets `k` to `value`; returns the block's height. */
async function setK(chain: Chain, value: string): Promise<number> {
  const write = [
    { Data: { account_id: 'test.near', data_key: toBase64(utf8('k')), value: toBase64(utf8(value)) } },
  ].map(stateRecordToWrite);
  const p = chain.patchState(write);
  const header = await chain.produceBlock();
  await p;
  return header.lite.height;
}

const gcAll = async (chain: Chain) => {
  while ((await gcStep(chain, { numEpochsToKeep: 3, blocksPerStep: 2 })) > 0) {}
};

t.test('GC stops below the lowest pinned height; the pinned state stays readable', async (t) => {
  const { chain, store } = await chainWithGc();
  t.teardown(() => store.close());
  const heights: number[] = [];
  for (let i = 0; i < 6; i++) heights.push(await setK(chain, `v${i}`));
  const pinnedHeight = heights[2]!;
  const pinnedHash = chain.chainStore.blockHashByHeight(pinnedHeight)!;
  const release = chain.statePins.pin(pinnedHeight, 'h');
  // Every block rewrites k, so every collected block releases its parent's node for k.
  for (let i = 6; i < 30; i++) {
    await setK(chain, `v${i}`);
    await gcAll(chain);
  }
  const tail = chain.chainStore.tail()!;
  t.ok(tail <= pinnedHeight, `tail ${tail} stays at or below the pinned height ${pinnedHeight}`);
  t.ok(tail > 1, 'GC did collect below the pin');
  const trie = chain.stateTrie(pinnedHash, 0)!;
  t.same(trie.get(KEY), utf8('v2'), 'the pinned state reads its own value');
  release();
  await setK(chain, 'last');
  await gcAll(chain);
  t.ok(chain.chainStore.tail()! > pinnedHeight, 'released: GC moves past it');
  t.throws(
    () => trie.get(KEY),
    { name: 'MissingTrieNodeError' },
    'and its state is gone: a read fails, never reads absent',
  );
});

t.test('a pin that arrives while GC reads the rows to delete makes that step write nothing', async (t) => {
  const { chain, store } = await chainWithGc();
  t.teardown(() => store.close());
  for (let i = 0; i < 20; i++) await setK(chain, `v${i}`);
  const before = chain.chainStore.tail();
  const low = before ?? chain.genesis.config.genesisHeight;
  // gcStep reads a block's rows before it commits; pin the lowest kept height in between.
  let release = () => {};
  const step = gcStep(chain, { numEpochsToKeep: 3, blocksPerStep: 2 });
  release = chain.statePins.pin(low, 'h');
  t.equal(await step, 0, 'nothing collected');
  t.equal(chain.chainStore.tail(), before, 'the tail did not move');
  release();
  t.ok((await gcStep(chain, { numEpochsToKeep: 3, blocksPerStep: 2 })) > 0, 'the next step collects');
});

t.test('while a GC batch is being written, heights below its new tail cannot be pinned', (t) => {
  const pins = new StatePins();
  const release = pins.pin(10, 'h');
  t.equal(pins.lowest(), 10);
  t.equal(pins.gcStop(50), 10);
  t.notOk(pins.beginCollect(11), 'a batch past a pin is refused');
  t.ok(pins.beginCollect(10));
  const refused = (() => {
    try {
      pins.pin(9, 'x');
    } catch (e) {
      return e;
    }
  })();
  t.ok(refused instanceof HandlerError && refused.cause === 'GARBAGE_COLLECTED_BLOCK', 'refused');
  const again = pins.pin(10, 'h');
  pins.endCollect();
  t.doesNotThrow(() => pins.pin(3, 'h')(), 'after the write, the tail check is the caller’s');
  release();
  release();
  t.equal(pins.lowest(), 10, 'a release counts once; the second pin at 10 holds');
  again();
  t.equal(pins.lowest(), null);
  t.equal(pins.gcStop(50), 50);
  t.end();
});

t.test('a changes view holds its block from GC while it reads the rows', async (t) => {
  const { chain, store } = await chainWithGc();
  t.teardown(() => store.close());
  const heights: number[] = [];
  for (let i = 0; i < 12; i++) heights.push(await setK(chain, `v${i}`));
  const h = heights[1]!;
  const ref = { blockId: h };
  const req = {
    changesType: 'data_changes',
    accountIds: ['test.near'],
    keyPrefix: new Uint8Array(0),
  } as const;
  // Both are pinned in the step that resolves the block, before their first read.
  const changes = changesView(chain, ref, req);
  const effects = blockEffectsView(chain, ref);
  t.equal(chain.statePins.lowest(), h, 'pinned while reading');
  const answer = (await changes) as { changes: { change: { value_base64: string } }[] };
  t.same(
    answer.changes.map((c) => c.change.value_base64),
    [toBase64(utf8('v1'))],
  );
  t.same(((await effects) as { changes: object[] }).changes, [
    { type: 'data_touched', account_id: 'test.near' },
  ]);
  t.equal(chain.statePins.lowest(), null, 'released once read');

  // While GC writes a batch that takes the block, the block is unknown, as once it is gone.
  t.ok(chain.statePins.beginCollect(h + 1));
  for (const view of [() => changesView(chain, ref, req), () => blockEffectsView(chain, ref)])
    await t.rejects(view(), { cause: 'UNKNOWN_BLOCK' });
  chain.statePins.endCollect();
});
