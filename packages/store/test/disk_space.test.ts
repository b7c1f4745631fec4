// nearcore's pre-write check on a real LevelDB: the free space of the database's disk is read every
// so many commits; below 256 MB a warning (at most once a minute), below 16 MB the write is refused
// and the store takes no more, with what was written before intact.
import {
  CHECK_EVERY_BYTES,
  CHECK_EVERY_COMMITS,
  DBCol,
  DiskSpaceCheck,
  FREE_SPACE_THRESHOLD,
  LOW_SPACE_WARNING,
  Store,
  StoreUpdate,
  StoreWriteFailure,
} from '@nearlite/store';
import t from 'tap';
import { tempDir } from '../../../test/helpers/tmp.js';

const MB = 1024 * 1024;
const row = (i: number) => new StoreUpdate().put(DBCol.BlockMisc, Uint8Array.of(i), Uint8Array.of(i));

t.test("nearcore's marks: a warning below 256 MB, a refusal below 16 MB", async (t) => {
  t.equal(FREE_SPACE_THRESHOLD, 16 * MB);
  t.equal(LOW_SPACE_WARNING, 256 * MB);
});

t.test('a store whose disk runs low warns, then refuses before it is full', async (t) => {
  let left = 1024 * MB;
  let reads = 0;
  const warnings: string[] = [];
  const path = tempDir(t);
  const store = await Store.open(path, {
    diskSpace: {
      warn: (m) => warnings.push(m),
      available: () => {
        reads++;
        return left;
      },
    },
  });
  t.teardown(() => store.close());
  await store.commit(row(1));
  t.equal(reads, 1, 'read at the first commit');
  for (let i = 1; i < CHECK_EVERY_COMMITS; i++) await store.commit(row(2));
  t.equal(reads, 1, `and again only after ${CHECK_EVERY_COMMITS} commits`);
  left = 200 * MB;
  await store.commit(row(3));
  t.equal(reads, 2);
  t.match(warnings, [/^remaining disk space is running low: 200\.0 MB left on the disk holding /]);
  for (let i = 0; i < CHECK_EVERY_COMMITS; i++) await store.commit(row(4));
  t.equal(warnings.length, 1, 'said at most once a minute');

  left = 15 * MB;
  for (let i = 1; i < CHECK_EVERY_COMMITS; i++) await store.commit(row(5));
  await t.rejects(store.commit(row(6)), { fatal: true, code: 'IO' }, 'refused below 16 MB');
  t.ok(store.writeFailure instanceof StoreWriteFailure);
  t.match(
    store.writeFailure?.message,
    /low disk space: 15\.0 MB left on the disk holding .*, below 16\.0 MB/,
  );
  left = 1024 * MB;
  await t.rejects(
    store.commit(row(7)),
    { fatal: true, message: /low disk space/ },
    'and nothing more is written, as after a failed write',
  );
  t.same(store.get(DBCol.BlockMisc, Uint8Array.of(5)), Uint8Array.of(5), 'what was written before is kept');
  t.equal(store.get(DBCol.BlockMisc, Uint8Array.of(6)), undefined);
});

t.test('large commits are checked sooner: every 4 MiB written at the most', async (t) => {
  let reads = 0;
  const store = await Store.open(tempDir(t), {
    diskSpace: {
      warn: () => {},
      available: () => {
        reads++;
        return 1024 * MB;
      },
    },
  });
  t.teardown(() => store.close());
  await store.commit(row(1));
  t.equal(reads, 1);
  const big = (i: number) =>
    new StoreUpdate().put(DBCol.BlockMisc, Uint8Array.of(100 + i), new Uint8Array(MB));
  for (let i = 0; i < 3; i++) await store.commit(big(i));
  t.equal(reads, 1, '3 MiB since the last read: not yet');
  await store.commit(big(3));
  t.equal(reads, 2, `4 MiB since: read again, well before ${CHECK_EVERY_COMMITS} commits`);
  t.equal(CHECK_EVERY_BYTES, 4 * MB);
});

t.test('free space that cannot be read: the writes go on, said once', async (t) => {
  const warnings: string[] = [];
  const check = new DiskSpaceCheck('/nowhere', {
    warn: (m) => warnings.push(m),
    available: () => {
      throw new Error('ENOSYS');
    },
  });
  for (let i = 0; i < 3 * CHECK_EVERY_COMMITS; i++) check.check(new StoreUpdate());
  t.same(warnings, ['unable to verify remaining disk space (ENOSYS); writing on without it']);
});

t.test("statfs of this machine's disk", async (t) => {
  const warnings: string[] = [];
  new DiskSpaceCheck(tempDir(t), { warn: (m) => warnings.push(m) }).check(new StoreUpdate());
  t.same(warnings, [], 'this disk has room');
});
