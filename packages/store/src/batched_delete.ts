// Deleting a column's rows a bounded batch at a time: a repair of a long chain or of a large history
// deletes millions of rows, and one batch of them all would be held in memory whole.
import type { DBColumn } from './columns.js';
import type { Store } from './store.js';
import { StoreUpdate } from './store_update.js';

/** Deletes the rows of `col` that `which` keeps (every row by default), `rowsPerBatch` a commit. */
export async function deleteRowsInBatches(
  store: Store,
  col: DBColumn,
  rowsPerBatch: number,
  which: (key: Uint8Array) => boolean = () => true,
): Promise<void> {
  let update = new StoreUpdate();
  let rows = 0;
  for await (const [key] of store.iter(col)) {
    if (!which(key)) continue;
    update.delete(col, key);
    if (++rows < rowsPerBatch) continue;
    await store.commit(update);
    update = new StoreUpdate();
    rows = 0;
  }
  if (rows > 0) await store.commit(update);
}
