// The read cache's byte budget is what its rows really cost: V8's heap for the key, the typed array
// and the LRU's slots, and the values' own bytes, measured after full collections.
import { randomBytes } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { DBCol, ROW_OVERHEAD, Store, StoreUpdate } from '@nearlite/store';
import t from 'tap';
import { tempDir } from '../../../test/helpers/tmp.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function retained(): number {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

t.test('a full read cache holds no more memory than its budget', async (t) => {
  const budget = 4 * 1024 * 1024;
  const valueBytes = 100;
  const rows = 20_000;
  const dir = tempDir(t);
  const keys = Array.from({ length: rows }, () => new Uint8Array(randomBytes(32)));
  const writer = await Store.open(dir);
  const u = new StoreUpdate();
  for (const k of keys) u.put(DBCol.Receipts, k, new Uint8Array(randomBytes(valueBytes)));
  await writer.commit(u, { cacheRows: false });
  await writer.close();
  // Opened anew, so what the writes left behind is gone before the count starts.
  const store = await Store.open(dir, { cacheBytes: budget });
  t.teardown(() => store.close());

  const before = retained();
  let read = 0;
  for (const k of keys) read += store.get(DBCol.Receipts, k)?.length ?? 0;
  const held = retained() - before;
  t.equal(read, rows * valueBytes, 'every row read');
  t.ok(held <= budget, `the cache holds ${(held / 2 ** 20).toFixed(1)} MiB for a 4 MiB budget`);

  // It is full, not starved: the rows the budget has room for are all still there.
  const fits = Math.floor((0.95 * budget) / (valueBytes + ROW_OVERHEAD));
  const hits = store.stats.cacheHits;
  for (let i = rows - 1; i >= rows - fits; i--) store.get(DBCol.Receipts, keys[i]!);
  t.equal(store.stats.cacheHits - hits, fits, `the last ${fits} rows read are cached`);
});
