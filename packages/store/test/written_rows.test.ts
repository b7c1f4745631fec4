// The rows a batch wrote, as a writer on one thread hands them to a reader on another: every put,
// delete and refcount change listed once per operation, skipped columns left out, keys of any length,
// the puts of carried columns with their value; and the reader's cache taking them in.
import { join } from 'node:path';
import { DBCol, forEachWrittenRow, ROW_ABSENT, Store, StoreUpdate, WrittenRows } from '@nearlite/store';
import t from 'tap';
import { tempDir } from '../../../test/helpers/tmp.js';

const b = (...xs: number[]) => Uint8Array.from(xs);

function unpack(packed: Uint8Array): [number, number[]][] {
  const out: [number, number[]][] = [];
  forEachWrittenRow(packed, (id, key) => out.push([id, [...key]]));
  return out;
}

t.test('puts, deletes and refcounts are listed with their column; skipped columns are not', async (t) => {
  const rows = new WrittenRows(new Set([DBCol.State.id]));
  t.ok(rows.empty);
  const u = new StoreUpdate()
    .put(DBCol.FlatState, b(1, 2), b(9))
    .delete(DBCol.BlockMisc, b(3))
    .incRef(DBCol.State, b(4), b(5))
    .put(DBCol.Transactions, new Uint8Array(0), b(1));
  rows.add(u);
  t.notOk(rows.empty);
  t.same(unpack(rows.take()), [
    [DBCol.FlatState.id, [1, 2]],
    [DBCol.BlockMisc.id, [3]],
    [DBCol.Transactions.id, []],
  ]);
  t.ok(rows.empty, 'take starts over');
  t.same(unpack(rows.take()), []);
});

t.test('keys longer than 64 KiB and many rows grow the buffer and come back whole', async (t) => {
  const rows = new WrittenRows();
  const long = new Uint8Array(70_000).map((_, i) => i % 251);
  const u = new StoreUpdate().put(DBCol.FlatState, long, b(1));
  for (let i = 0; i < 1000; i++) u.put(DBCol.BlockHeight, b(i >> 8, i & 0xff), b(0));
  rows.add(u);
  const back = unpack(rows.take());
  t.equal(back.length, 1001);
  t.same(back[0]![1], [...long]);
  t.same(back[1000], [DBCol.BlockHeight.id, [999 >> 8, 999 & 0xff]]);
});

t.test('puts of carried columns come with their value; deletes and refcounts never do', async (t) => {
  const rows = new WrittenRows(new Set(), new Set([DBCol.FlatState.id, DBCol.State.id]));
  const big = new Uint8Array(100_000).map((_, i) => i % 253);
  rows.add(
    new StoreUpdate()
      .put(DBCol.FlatState, b(1), b(7, 8))
      .put(DBCol.FlatState, b(2), new Uint8Array(0))
      .put(DBCol.FlatState, b(3), big)
      .delete(DBCol.FlatState, b(4))
      .put(DBCol.BlockMisc, b(5), b(6))
      .incRef(DBCol.State, b(6), b(9)),
  );
  const out: [number, number[], number[] | undefined][] = [];
  forEachWrittenRow(rows.take(), (id, key, value) => out.push([id, [...key], value && [...value]]));
  t.same(out, [
    [DBCol.FlatState.id, [1], [7, 8]],
    [DBCol.FlatState.id, [2], []],
    [DBCol.FlatState.id, [3], [...big]],
    [DBCol.FlatState.id, [4], undefined],
    [DBCol.BlockMisc.id, [5], undefined],
    [DBCol.State.id, [6], undefined],
  ]);
});

t.test('a reader caches the carried rows and forgets the others', async (t) => {
  const store = await Store.open(join(tempDir(t), 'data'));
  t.teardown(() => store.close());
  await store.commit(new StoreUpdate().put(DBCol.FlatState, b(1), b(1)).put(DBCol.BlockMisc, b(2), b(1)));
  t.equal(store.get(DBCol.FlatState, b(3)), undefined, 'cached as absent');
  // What another writer of the database announces (here never written to LevelDB, so that where each
  // answer comes from shows).
  const rows = new WrittenRows(new Set(), new Set([DBCol.FlatState.id]));
  rows.add(
    new StoreUpdate()
      .put(DBCol.FlatState, b(1), b(2))
      .put(DBCol.FlatState, b(3), b(3))
      .put(DBCol.BlockMisc, b(2), b(2)),
  );
  const packed = rows.take();
  store.takeWrittenRows(packed);
  const hits = store.stats.cacheHits;
  t.same(store.get(DBCol.FlatState, b(1)), b(2), 'a carried row replaces the cached one');
  t.same(store.get(DBCol.FlatState, b(3)), b(3), 'and a cached absence');
  t.equal(store.stats.cacheHits, hits + 2, 'both from the cache');
  t.not(store.get(DBCol.FlatState, b(3))?.buffer, packed.buffer, 'held as a copy');
  t.same(store.get(DBCol.BlockMisc, b(2)), b(1), 'an uncarried row is forgotten and read again');
  t.equal(store.stats.cacheHits, hits + 3, 'from LevelDB');
});

t.test('rows named absent reach the reader as absences, which its cache then answers', async (t) => {
  const rows = new WrittenRows(new Set(), new Set([DBCol.ReceiptBlock.id]));
  rows.add(new StoreUpdate().put(DBCol.ReceiptBlock, b(1), b(7)));
  rows.absent(DBCol.ReceiptBlock, [b(2), b(3, 4)]);
  t.throws(() => rows.absent(DBCol.State, [b(5)]), /refcounted/, "a refcounted row's count is the writer's");
  const packed = rows.take();
  const out: [number, number[], unknown][] = [];
  forEachWrittenRow(packed, (id, key, value) =>
    out.push([id, [...key], value === ROW_ABSENT ? 'absent' : value && [...value]]),
  );
  t.same(out, [
    [DBCol.ReceiptBlock.id, [1], [7]],
    [DBCol.ReceiptBlock.id, [2], 'absent'],
    [DBCol.ReceiptBlock.id, [3, 4], 'absent'],
  ]);

  const store = await Store.open(join(tempDir(t), 'data'));
  t.teardown(() => store.close());
  store.takeWrittenRows(packed);
  const hits = store.stats.cacheHits;
  t.same(store.get(DBCol.ReceiptBlock, b(1)), b(7));
  t.equal(store.get(DBCol.ReceiptBlock, b(2)), undefined);
  t.equal(store.get(DBCol.ReceiptBlock, b(3, 4)), undefined);
  t.equal(store.stats.cacheHits, hits + 3, 'all three from the cache');
  // A later batch that writes a row named absent before: the reader takes the row.
  const later = new WrittenRows(new Set(), new Set([DBCol.ReceiptBlock.id]));
  later.add(new StoreUpdate().put(DBCol.ReceiptBlock, b(2), b(9)));
  store.takeWrittenRows(later.take());
  t.same(store.get(DBCol.ReceiptBlock, b(2)), b(9));
});
