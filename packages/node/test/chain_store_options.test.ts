import { join } from 'node:path';
import { DBCol, Store, type StoreOptions, StoreUpdate, u64be } from '@nearlite/store';
import t from 'tap';
import { tempDir } from '../../../test/helpers/tmp.js';
import { CHAIN_DB_OPTIONS, CHAIN_STORE_OPTIONS } from '../dist/chain_store_options.js';

/** Bytes LevelDB's tables take for 1 MiB of zeros, written with `opts`. */
async function tableBytes(t: Tap.Test, opts: StoreOptions): Promise<number> {
  const store = await Store.open(join(tempDir(t), 'data'), opts);
  const u = new StoreUpdate();
  for (let j = 0; j < 64; j++) u.put(DBCol.Chunks, u64be(j), new Uint8Array(16 * 1024));
  await store.commit(u);
  await store.compact();
  const size = await store.approximateSize(DBCol.Chunks);
  await store.close();
  return size;
}

t.test("a chain's database is written without snappy, by the node and by its chain thread", async (t) => {
  const mib = 1024 * 1024;
  t.ok((await tableBytes(t, CHAIN_DB_OPTIONS)) >= mib, 'the node');
  t.ok((await tableBytes(t, CHAIN_STORE_OPTIONS)) >= mib, 'the chain thread');
  // What a follower's `store.compression` asks for: the same rows take a fraction of the space.
  t.ok((await tableBytes(t, { compression: true })) < mib / 4, 'compression: true');
});
