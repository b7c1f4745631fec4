// A value decoded from a stored row is decoded once while the row's bytes stay cached, and anew once
// the row is written or deleted.
import { fromUtf8, utf8 } from '@nearlite/primitives';
import t from 'tap';
import { tempDir } from '../../../test/helpers/tmp.js';
import { DBCol, DecodedRows, Store, StoreUpdate } from '../dist/index.js';

const put = async (store: Store, key: Uint8Array, value: string | null) => {
  const u = new StoreUpdate();
  if (value === null) u.delete(DBCol.BlockView, key);
  else u.put(DBCol.BlockView, key, utf8(value));
  await store.commit(u);
};

t.test('decoded once per stored row, anew after a write', async (t) => {
  const store = await Store.open(tempDir(t));
  t.teardown(() => store.close());
  const key = new Uint8Array(32).fill(7);
  await put(store, key, 'first');
  let decodes = 0;
  const rows = new DecodedRows<{ text: string }>();
  const read = () => {
    const bytes = store.get(DBCol.BlockView, key);
    return bytes && rows.of(bytes, (b) => ({ text: `${fromUtf8(b)}#${++decodes}` }));
  };
  t.equal(
    store.get(DBCol.BlockView, key),
    store.get(DBCol.BlockView, key),
    'the store hands back the same bytes',
  );
  const first = read()!;
  t.equal(first.text, 'first#1');
  t.equal(read(), first, 'read again: not decoded again');
  await put(store, key, 'second');
  t.equal(read()!.text, 'second#2', 'a write is seen at once');
  await put(store, key, null);
  t.equal(read(), undefined, 'a deletion too');
  await put(store, key, 'third');
  t.equal(read()!.text, 'third#3');
  t.equal(decodes, 3);
});

t.test('rows beyond the size limit are decoded on each read', async (t) => {
  const store = await Store.open(tempDir(t));
  t.teardown(() => store.close());
  const key = new Uint8Array(32).fill(9);
  await put(store, key, 'x'.repeat(100));
  let decodes = 0;
  const rows = new DecodedRows<number>(64);
  for (let i = 0; i < 3; i++) rows.of(store.get(DBCol.BlockView, key)!, () => ++decodes);
  t.equal(decodes, 3);
});
