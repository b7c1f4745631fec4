// The rows a batch wrote, as a writer on one thread hands them to a reader on another: every put,
// delete and refcount change listed once per operation, skipped columns left out, keys of any length.
import { DBCol, forEachWrittenRow, StoreUpdate, WrittenRows } from '@nearlite/store';
import t from 'tap';

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
