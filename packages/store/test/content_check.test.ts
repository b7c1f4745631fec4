// Trie nodes and values are keyed by the sha256 of their bytes, and LevelDB verifies no checksum when
// it reads: a row whose bytes no longer hash to its key is refused as damaged, by the store and by a
// worker's reader, and the same content written again replaces it.
import { join } from 'node:path';
import { sha256 } from '@nearlite/primitives';
import { DamagedRowError, DBCol, SharedStoreReader, Store, StoreUpdate } from '@nearlite/store';
import t from 'tap';
import { tempDir } from '../../../test/helpers/tmp.js';

const rc = (n: number) => {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigInt64(0, BigInt(n), true);
  return out;
};

t.test('a State row whose bytes do not hash to its key is damaged until written again', async (t) => {
  const path = join(tempDir(t), 'data');
  const node = Uint8Array.from({ length: 120 }, (_, i) => i);
  const key = sha256(node);
  let store = await Store.open(path);
  await store.commit(new StoreUpdate().incRef(DBCol.State, key, node, 2));
  t.same(store.get(DBCol.State, key), node, 'a whole row reads');
  // A direct put on a refcounted column is stored as given: the bytes a damaged table would return.
  const altered = node.slice();
  altered[7] ^= 0x10;
  await store.commit(new StoreUpdate().put(DBCol.State, key, Uint8Array.of(...altered, ...rc(2))));
  await store.close();

  store = await Store.open(path);
  const damaged = /the State row \w+ is damaged: its bytes hash to \w+/;
  try {
    store.get(DBCol.State, key);
    t.fail('a damaged row is refused');
  } catch (err) {
    t.ok(err instanceof DamagedRowError, 'a damaged row is refused');
  }
  t.throws(() => store.has(DBCol.State, key), { code: 'DAMAGED', message: damaged });
  const reader = await SharedStoreReader.open(store.sharedPath()!);
  t.throws(() => reader.get(DBCol.State, key), { code: 'DAMAGED', message: damaged }, 'and so does a reader');
  t.equal(store.get(DBCol.FlatState, key), undefined, 'other columns are read as they are');

  // The same node written again: its bytes replace the damaged ones and the count goes on.
  await store.commit(new StoreUpdate().incRef(DBCol.State, key, node, 1));
  t.same(store.get(DBCol.State, key), node, 'written again, the row is whole');
  t.same(Uint8Array.from(reader.get(DBCol.State, key)!), node, "and so does a reader's");
  t.equal(store.refcount(DBCol.State, key), 3, 'its count kept and added to');
  await reader.close();
  await store.close();
});
