// NeardataService over a real chain on LevelDB: final versus optimistic heights, waiting for a height
// about to be produced, `null` for a height without block, the first kept block after GC, and a block
// held from GC while it is built.
import { gcStep } from '@nearlite/chain';
import { DBCol, StoreUpdate, u64be } from '@nearlite/store';
import t, { type Test } from 'tap';
import { buildHeld, COLLECTED } from '../src/publish/held_build.js';
import { type NeardataAnswer, NeardataService } from '../src/publish/neardata.js';
import {
  type BuiltStreamerMessage,
  StreamerMessageBuilder,
  streamerMessageJson,
} from '../src/publish/streamer_message.js';
import { openLocalChain } from './helpers.js';

const setup = (t: Test, epochLength = 100) => openLocalChain(t, { epochLength });

const never = new AbortController().signal;
const message = (a: NeardataAnswer) => {
  if (!a.ok) throw new Error(`refused: ${a.type}`);
  return JSON.parse(a.json) as {
    block: { header: { height: number } };
    shards: { shard_id: number }[];
  } | null;
};

t.test('final and optimistic heights, and waiting for the next block', async (t) => {
  const { chain } = await setup(t);
  for (let i = 0; i < 5; i++) await chain.produceBlock();
  const svc = new NeardataService(chain, { maxWaitMs: 2_000 });
  t.equal(svc.optimisticHeight(), 5);
  t.equal(svc.finalHeight(), 3, 'one validator: final is head − 2');
  t.equal(svc.firstHeight(), 0);

  const opt = await svc.block(5, true, never);
  t.equal(message(opt)?.block.header.height, 5, 'block_opt serves the head');
  t.equal(opt.ok && opt.final, false, 'and says it is not final');
  const fin = await svc.block(3, false, never);
  t.ok(fin.ok && fin.final);
  t.same(
    message(fin)?.shards.map((s) => s.shard_id),
    [0, 1],
  );

  // A final request for the head waits until the head is final.
  const waiting = svc.block(5, false, never);
  await chain.produceBlock();
  await chain.produceBlock();
  const got = await waiting;
  t.equal(message(got)?.block.header.height, 5);
  t.ok(got.ok && got.final, 'answered once final');
  t.equal(svc.finalHeight(), 5);

  const aborted = new AbortController();
  const pending = svc.block(8, false, aborted.signal);
  aborted.abort();
  t.match(await pending, { ok: false, status: 404, type: 'BLOCK_DOES_NOT_EXIST' }, 'the client went away');
  t.match(
    await svc.block(8, true, never),
    { ok: false, status: 404, error: 'The block is not produced yet' },
    'no block within maxWaitMs',
  );
  t.match(await svc.block(30, true, never), {
    ok: false,
    status: 404,
    error: 'The block is too far in the future',
    type: 'BLOCK_DOES_NOT_EXIST',
  });
  t.match(await svc.block(10 ** 15 + 1, false, never), { ok: false, type: 'BLOCK_HEIGHT_TOO_HIGH' });
});

t.test('a height without block is null', async (t) => {
  const { chain, store } = await setup(t);
  for (let i = 0; i < 6; i++) await chain.produceBlock();
  // nearcore chains skip heights whose producer missed its slot; this chain never does, so the
  // height's row is removed to make one.
  await store.commit(new StoreUpdate().delete(DBCol.BlockHeight, u64be(2)));
  const svc = new NeardataService(chain);
  const a = await svc.block(2, false, never);
  t.same(a, { ok: true, json: 'null', final: true });
  t.equal(message(await svc.block(3, false, never))?.block.header.height, 3, 'its neighbours are served');
});

t.test('below the first kept block after GC', async (t) => {
  const { chain } = await setup(t, 5);
  for (let i = 0; i < 30; i++) {
    await chain.produceBlock();
    while ((await gcStep(chain, { numEpochsToKeep: 3, blocksPerStep: 2 })) > 0) {}
  }
  const svc = new NeardataService(chain);
  const first = svc.firstHeight();
  t.ok(first > 1, `the tail moved to ${first}`);
  t.match(await svc.block(first - 1, false, never), {
    ok: false,
    status: 404,
    error: 'Block height is before the genesis',
    type: 'BLOCK_HEIGHT_TOO_LOW',
  });
  t.equal(message(await svc.block(first, false, never))?.block.header.height, first);
});

t.test('a block is held from GC while its message is built', async (t) => {
  const { chain } = await setup(t, 5);
  for (let i = 0; i < 30; i++) await chain.produceBlock();
  const real = new StreamerMessageBuilder(chain);
  const before = await real.build(2);
  let finish!: () => void;
  const gate = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const slow = {
    build: async (height: number) => {
      await gate;
      return real.build(height);
    },
  };
  const building = buildHeld(chain, slow, 2);
  while ((await gcStep(chain, { numEpochsToKeep: 3, blocksPerStep: 2 })) > 0) {}
  t.equal(chain.chainStore.tail(), 2, 'GC stops at the block being built');
  finish();
  const built = await building;
  t.ok(built && built !== COLLECTED, 'built');
  t.equal(
    streamerMessageJson(built as BuiltStreamerMessage),
    streamerMessageJson(before!),
    'whole, as before GC ran',
  );

  while ((await gcStep(chain, { numEpochsToKeep: 3, blocksPerStep: 2 })) > 0) {}
  t.ok(chain.chainStore.tail()! > 2, 'once built, GC goes on');
  t.equal(await buildHeld(chain, real, 2), COLLECTED, 'a collected height is not built');
  const svc = new NeardataService(chain);
  t.match(await svc.block(2, false, never), { ok: false, status: 404, type: 'BLOCK_HEIGHT_TOO_LOW' });
});
