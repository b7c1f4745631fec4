// A repair goes in bounded batches and can stop at any of them: the store is then refused by every
// check, and a repair run again finishes the job with the same result as one that never stopped.
import {
  assertNoStoppedRepair,
  type Chain,
  ChainIntegrityError,
  ChainStore,
  checkChain,
  openLocalnetChain,
  REPAIR_KEY,
  repairChain,
  stateRecordToWrite,
} from '@nearlite/chain';
import { toBase64, toHex, utf8 } from '@nearlite/primitives';
import { blockShardKey, DBCol, Store, StoreUpdate, u64be } from '@nearlite/store';
import t from 'tap';
import { flatRows } from './flat_rows.js';

const HEAD = 40;
const HOLE = 25;
const SHARDS = [0, 1];
const OPTS = { blocksPerBatch: 4, rowsPerBatch: 5 };

/** Produces one block that writes a few contract-data rows, so the flat state differs by height. */
async function produceWithWrites(chain: Chain, h: number): Promise<void> {
  const writes = [0, 1, 2].map((i) => ({
    Data: {
      account_id: 'test.near',
      data_key: toBase64(utf8(`k${(h * 3 + i) % 11}`)),
      value: toBase64(utf8(`v${h}.${i}`)),
    },
  }));
  const p = chain.patchState(writes.map(stateRecordToWrite));
  await chain.produceBlock();
  await p;
}

/** A chain of HEAD blocks whose height index lost HOLE; the flat state as it was at HOLE - 1. */
async function damagedChain() {
  const store = await Store.memory();
  const chain = await openLocalnetChain(store, { numShards: SHARDS.length, epochLength: 10 });
  let flatBelowHole = new Map<string, string>();
  for (let h = 1; h <= HEAD; h++) {
    await produceWithWrites(chain, h);
    if (h === HOLE - 1) flatBelowHole = await flatRows(store);
  }
  const hashBelowHole = chain.chainStore.blockHashByHeight(HOLE - 1)!;
  await store.commit(new StoreUpdate().delete(DBCol.BlockHeight, u64be(HOLE)));
  return { store, flatBelowHole, hashBelowHole };
}

/** Makes the store's `n`th commit from now fail, as a crash there would leave it; returns the count so far. */
function failAt(store: Store, n: number | null): { commits: number[] } {
  const commit = store.commit.bind(store);
  const seen = { commits: [] as number[] };
  store.commit = async (...args: Parameters<typeof store.commit>) => {
    if (seen.commits.length + 1 === n) {
      store.commit = commit;
      throw new Error('stopped');
    }
    seen.commits.push(args[0].ops.length + args[0].refcounts.size);
    return commit(...args);
  };
  return seen;
}

async function assertRolledBack(
  t: Pick<typeof t, 'same' | 'equal' | 'notOk' | 'fail'>,
  store: Store,
  expected: { flatBelowHole: Map<string, string>; hashBelowHole: Uint8Array },
) {
  t.same(checkChain(store, SHARDS, { window: Number.POSITIVE_INFINITY }).problems, [], 'whole after it');
  const head = new ChainStore(store).head()!;
  t.equal(head.height, HOLE - 1);
  t.same(toHex(head.hash), toHex(expected.hashBelowHole));
  t.same(await flatRows(store), expected.flatBelowHole, "the flat state is the last whole block's");
  t.notOk(store.get(DBCol.BlockMisc, REPAIR_KEY), 'no repair record is left');
  for await (const [key] of store.iter(DBCol.BlockHeight, undefined, { gte: u64be(HOLE) }))
    t.fail(`a height index row above the last whole block: ${toHex(key)}`);
}

t.test('a repair goes in bounded batches', async (t) => {
  const damaged = await damagedChain();
  const { store } = damaged;
  const seen = failAt(store, null);
  const r = await repairChain(store, SHARDS, 0, OPTS);
  t.equal(r.head?.height, HOLE - 1);
  t.same(
    r.droppedHeights,
    Array.from({ length: HEAD - HOLE + 1 }, (_, i) => HOLE + i),
  );
  t.notOk(r.resumed);
  await assertRolledBack(t, store, damaged);
  const total = seen.commits.reduce((a, b) => a + b, 0);
  t.ok(seen.commits.length >= 10, `${seen.commits.length} batches`);
  t.ok(Math.max(...seen.commits) < total / 4, `no batch holds much of the work: ${seen.commits.join(', ')}`);
});

t.test('a repair stopped at any batch is refused, then finished by the next', async (t) => {
  const probe = await damagedChain();
  const seen = failAt(probe.store, null);
  await repairChain(probe.store, SHARDS, 0, OPTS);
  const batches = seen.commits.length;
  for (let k = 1; k <= batches; k++) {
    const damaged = await damagedChain();
    const { store } = damaged;
    failAt(store, k);
    await t.rejects(repairChain(store, SHARDS, 0, OPTS), /stopped/, `stopped at batch ${k}`);
    const report = checkChain(store, SHARDS, { window: Number.POSITIVE_INFINITY });
    if (k === 1) {
      // Nothing was written: the store is as damaged as before, and a repair starts afresh.
      t.same(report.problems, [{ height: HOLE, what: 'no block at this height' }]);
    } else {
      t.same(report.problems, [
        { height: HOLE, what: `a repair stopped part way through rolling the store back to #${HOLE - 1}` },
      ]);
      t.throws(
        () => assertNoStoppedRepair(store, '/home'),
        new ChainIntegrityError(
          `a repair of the store stopped part way through rolling the store back to #${HOLE - 1}. ` +
            'Refusing to run on it; `nearlite repair --home /home` finishes it.',
          report,
        ),
      );
    }
    const r = await repairChain(store, SHARDS, 0, OPTS);
    t.equal(r.resumed, k > 1, `batch ${k}: resumed`);
    t.equal(r.head?.height, HOLE - 1);
    await assertRolledBack(t, store, damaged);
  }
});

t.test('a repair that deletes every block goes in batches and can stop part way', async (t) => {
  for (const k of [2, 5, 9, null]) {
    const { store } = await damagedChain();
    // Genesis' post-state is gone: nothing above it can stand.
    const genesis = new ChainStore(store).genesisHash()!;
    await store.commit(new StoreUpdate().delete(DBCol.ChunkExtra, blockShardKey(genesis, 0)));
    const seen = failAt(store, k);
    if (k !== null) {
      await t.rejects(repairChain(store, SHARDS, 0, OPTS), /stopped/);
      t.throws(() => assertNoStoppedRepair(store, '/h'), /stopped part way through deleting every block/);
      t.match(checkChain(store, SHARDS, { window: Number.POSITIVE_INFINITY }).stoppedRepair, {
        kind: 'wipe',
        headHeight: HEAD,
      });
    }
    const r = await repairChain(store, SHARDS, 0, OPTS);
    t.ok(r.wiped);
    t.equal(r.resumed, k !== null);
    t.same(r.droppedHeights.at(-1), HEAD);
    for (const col of Object.values(DBCol)) {
      if (col === DBCol.DbVersion) continue;
      for await (const [key] of store.iter(col)) t.fail(`column ${col.id} keeps ${toHex(key)}`);
    }
    if (k === null) t.ok(Math.max(...seen.commits) <= OPTS.rowsPerBatch, 'batches of rows');
  }
});

t.test('a repair record this version does not write is never guessed at', async (t) => {
  const { store } = await damagedChain();
  await store.commit(new StoreUpdate().put(DBCol.BlockMisc, REPAIR_KEY, Uint8Array.of(7, 7, 7)));
  await t.rejects(repairChain(store, SHARDS, 0, OPTS), /not one this version writes/);
  t.ok(new ChainStore(store).head(), 'nothing was deleted');
});
