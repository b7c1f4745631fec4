// What LevelDB's tables take on disk for 1 MiB of zeros written with some store options: zeros
// shrink to a few percent under snappy, so the size tells whether the tables were compressed.
import { join } from 'node:path';
import { DBCol, Store, type StoreOptions, StoreUpdate, u64be } from '@nearlite/store';
import { tempDir } from './tmp.js';

export const MIB = 1024 * 1024;

export async function tableBytesOfZeros(
  t: { teardown(fn: () => unknown): void },
  opts: StoreOptions,
): Promise<number> {
  const store = await Store.open(join(tempDir(t), 'data'), opts);
  const u = new StoreUpdate();
  for (let j = 0; j < 64; j++) u.put(DBCol.Chunks, u64be(j), new Uint8Array(16 * 1024));
  await store.commit(u);
  // A full compaction writes the memtable out as tables.
  await store.compact();
  const size = await store.approximateSize(DBCol.Chunks);
  await store.close();
  return size;
}
