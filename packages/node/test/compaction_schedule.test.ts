// GC's compaction runs in the background: considered once an epoch's worth of blocks is collected,
// started only once the database's files have grown by half since the last one (and by at least a
// few MiB), never waited for by the block that started it, one at a time, and waited for by a stop.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { DBCol, Store, StoreUpdate, u64be } from '@nearlite/store';
import t from 'tap';
import { tempDir } from '../../../test/helpers/tmp.js';
import { CompactionSchedule, GROWTH_FLOOR } from '../src/compaction_schedule.js';
import { dataBytes } from '../src/data_size.js';

function pending() {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const MIB = 1024 * 1024;

function schedule(sizes: { now: number }) {
  const runs: ReturnType<typeof pending>[] = [];
  const errors: unknown[] = [];
  const s = new CompactionSchedule(
    10,
    () => {
      const p = pending();
      runs.push(p);
      return p.promise;
    },
    (e) => errors.push(e),
    () => sizes.now,
  );
  return { s, runs, errors };
}

t.test(
  'an epoch of collected blocks on a grown store starts one compaction, which nobody waits for',
  async (t) => {
    const sizes = { now: 100 * MIB };
    const { s, runs, errors } = schedule(sizes);
    s.collected(10);
    t.equal(runs.length, 0, 'the first measure is the base');
    sizes.now = 149 * MIB;
    s.collected(4);
    s.collected(6);
    t.equal(runs.length, 0, 'grown by less than half: none');
    sizes.now = 150 * MIB;
    s.collected(4);
    s.collected(4);
    t.equal(runs.length, 0, 'fewer than an epoch: not measured');
    s.collected(2);
    t.equal(
      runs.length,
      1,
      'half again, at an epoch: one starts, and `collected` has returned while it runs',
    );
    s.collected(20);
    t.equal(runs.length, 1, 'never two at once');
    let settled = false;
    const stop = s.settled().then(() => {
      settled = true;
    });
    await new Promise((r) => setTimeout(r, 10));
    t.equal(settled, false, 'a stop waits for the one running');
    sizes.now = 60 * MIB;
    runs[0]!.resolve();
    await stop;
    t.equal(settled, true);
    sizes.now = 89 * MIB;
    s.collected(10);
    t.equal(runs.length, 1, 'the base is the size the compaction left: 60 MiB, not yet grown by half');
    sizes.now = 90 * MIB;
    s.collected(10);
    t.equal(runs.length, 2, 'grown by half of it: the next starts');
    runs[1]!.reject(new Error('IO error'));
    await s.settled();
    t.match(errors, [{ message: 'IO error' }], 'a failure is reported, not thrown at the block');
    sizes.now = 200 * MIB;
    s.collected(10);
    t.equal(runs.length, 3, 'and the one after still runs');
    runs[2]!.resolve();
    await s.settled();
  },
);

t.test('a small store is compacted once it has grown by the floor, not by half of itself', async (t) => {
  const sizes = { now: MIB };
  const { s, runs } = schedule(sizes);
  s.collected(10);
  sizes.now = MIB + GROWTH_FLOOR - 1;
  s.collected(10);
  t.equal(runs.length, 0, 'grown four times over, but by less than the floor');
  sizes.now = MIB + GROWTH_FLOOR;
  s.collected(10);
  t.equal(runs.length, 1, 'grown by the floor');
  runs[0]!.resolve();
  await s.settled();
});

t.test('a store whose files cannot be measured is reported and not compacted', async (t) => {
  const errors: unknown[] = [];
  let compactions = 0;
  const s = new CompactionSchedule(
    10,
    async () => {
      compactions++;
    },
    (e) => errors.push(e),
    () => {
      throw new Error('EACCES');
    },
  );
  t.doesNotThrow(() => s.collected(10));
  t.doesNotThrow(() => s.collected(10));
  t.equal(compactions, 0);
  t.match(errors, [{ message: 'EACCES' }, { message: 'EACCES' }], 'each failed measure is reported');
});

t.test("dataBytes measures what a store's compaction gives back", async (t) => {
  const dir = join(tempDir(t), 'data');
  const store = await Store.open(dir);
  const u = new StoreUpdate();
  for (let i = 0; i < 512; i++) u.put(DBCol.Chunks, u64be(i), randomBytes(16 * 1024));
  await store.commit(u);
  const written = dataBytes(dir);
  t.ok(written >= 8 * MIB, `8 MiB written are counted, in the log: ${written}`);
  await store.compact();
  t.ok(dataBytes(dir) >= 8 * MIB, 'and in the tables once compacted');
  const d = new StoreUpdate();
  for (let i = 0; i < 512; i++) d.delete(DBCol.Chunks, u64be(i));
  await store.commit(d);
  t.ok(dataBytes(dir) >= 8 * MIB, 'deleted rows stay on disk until a compaction');
  await store.compact();
  const after = dataBytes(dir);
  t.ok(after < MIB, `a whole-range compaction gives the space back: ${after}`);
  await store.close();
});
