// The rows a committed batch wrote, packed into one buffer that can be transferred to another thread:
// a Store that reads the same database there (its only writer being elsewhere) forgets what its
// read cache holds for them (`Store.forgetRows`), so it never serves a row older than the batch.
//
// Layout, per row: column id (u8), key length (u32 LE), key.
import type { DBColumn } from './columns.js';
import type { StoreUpdate } from './store_update.js';

export class WrittenRows {
  private buf = new Uint8Array(4096);
  private view = new DataView(this.buf.buffer);
  private len = 0;

  /** Rows of these columns are left out: content-addressed rows whose bytes never change. */
  constructor(private readonly skip: ReadonlySet<number> = new Set()) {}

  add(update: StoreUpdate): void {
    for (const op of update.ops) this.push(op.col, op.key);
    for (const r of update.refcounts.values()) this.push(r.col, r.key);
  }

  private push(col: DBColumn, key: Uint8Array): void {
    if (this.skip.has(col.id)) return;
    const need = this.len + 5 + key.length;
    if (need > this.buf.length) {
      const grown = new Uint8Array(Math.max(need, this.buf.length * 2));
      grown.set(this.buf.subarray(0, this.len));
      this.buf = grown;
      this.view = new DataView(grown.buffer);
    }
    this.buf[this.len] = col.id;
    this.view.setUint32(this.len + 1, key.length, true);
    this.buf.set(key, this.len + 5);
    this.len = need;
  }

  get empty(): boolean {
    return this.len === 0;
  }

  /** The packed rows so far, in a buffer of their own; starts over. */
  take(): Uint8Array {
    const out = this.buf.slice(0, this.len);
    this.len = 0;
    return out;
  }
}

/** Calls `fn(columnId, key)` for each row of a buffer made by `WrittenRows.take`. */
export function forEachWrittenRow(packed: Uint8Array, fn: (columnId: number, key: Uint8Array) => void): void {
  const view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
  let at = 0;
  while (at + 5 <= packed.length) {
    const n = view.getUint32(at + 1, true);
    fn(packed[at]!, packed.subarray(at + 5, at + 5 + n));
    at += 5 + n;
  }
}
