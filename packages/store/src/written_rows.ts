// The rows a committed batch wrote, packed into one buffer that can be transferred to another thread:
// a Store that reads the same database there (its only writer being elsewhere) takes them into its
// read cache (`Store.takeWrittenRows`), so it never serves a row older than the batch. Rows of the
// columns the writer names come with their new value, which that cache then holds: the reader was
// about to read them (a block's outcomes, for the clients waiting on them). The rest it forgets.
// The writer may also name rows it knows to be absent after the batch (`absent`): a reader about to
// look for them then finds the absence in its cache instead of searching LevelDB for it.
//
// Layout, per row: column id (u8), key length (u32 LE), key, value length (u32 LE; NO_VALUE when
// the row comes without one, ABSENT_VALUE when it is named absent), value.
import type { DBColumn } from './columns.js';
import type { StoreUpdate } from './store_update.js';

const NO_VALUE = 0xffffffff;
const ABSENT_VALUE = 0xfffffffe;

/** What a row named in a `WrittenRows` buffer is after the batch, when the writer says. */
export type WrittenRowValue = Uint8Array | typeof ROW_ABSENT | undefined;
/** The row is known absent after the batch. */
export const ROW_ABSENT: unique symbol = Symbol('absent');

export class WrittenRows {
  private buf = new Uint8Array(4096);
  private view = new DataView(this.buf.buffer);
  private len = 0;

  /**
   * `skip`: columns left out, content-addressed rows whose bytes never change. `carry`: columns whose
   * puts come with their value (refcounted columns never do).
   */
  constructor(
    private readonly skip: ReadonlySet<number> = new Set(),
    private readonly carry: ReadonlySet<number> = new Set(),
  ) {}

  add(update: StoreUpdate): void {
    for (const op of update.ops) {
      const value =
        op.type === 'put' && !op.col.refcounted && this.carry.has(op.col.id) ? op.value : undefined;
      this.push(op.col, op.key, value);
    }
    // A refcounted row's stored bytes include its count, which only the writer's commit knows.
    for (const r of update.refcounts.values()) this.push(r.col, r.key, undefined);
  }

  /**
   * Names rows of `col` the batch left absent: keys nothing in it wrote, which the writer knows no
   * earlier batch wrote either (the receipts a block sent, which no block has run yet). Call it
   * before `take`, after the batch's `add`.
   */
  absent(col: DBColumn, keys: Iterable<Uint8Array>): void {
    if (col.refcounted) throw new Error(`absent rows of refcounted column ${col.id}`);
    for (const key of keys) this.push(col, key, ROW_ABSENT);
  }

  private push(col: DBColumn, key: Uint8Array, value: WrittenRowValue): void {
    if (this.skip.has(col.id)) return;
    const bytes = value === ROW_ABSENT ? undefined : value;
    const need = this.len + 9 + key.length + (bytes?.length ?? 0);
    if (need > this.buf.length) {
      const grown = new Uint8Array(Math.max(need, this.buf.length * 2));
      grown.set(this.buf.subarray(0, this.len));
      this.buf = grown;
      this.view = new DataView(grown.buffer);
    }
    let at = this.len;
    this.buf[at] = col.id;
    this.view.setUint32(at + 1, key.length, true);
    this.buf.set(key, at + 5);
    at += 5 + key.length;
    this.view.setUint32(at, bytes ? bytes.length : value === ROW_ABSENT ? ABSENT_VALUE : NO_VALUE, true);
    if (bytes) this.buf.set(bytes, at + 4);
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

/**
 * Calls `fn(columnId, key, value)` for each row of a buffer made by `WrittenRows.take`; `value` is
 * undefined for a row that came without one, `ROW_ABSENT` for one named absent. Key and value are
 * views of `packed`.
 */
export function forEachWrittenRow(
  packed: Uint8Array,
  fn: (columnId: number, key: Uint8Array, value: WrittenRowValue) => void,
): void {
  const view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
  let at = 0;
  while (at + 9 <= packed.length) {
    const n = view.getUint32(at + 1, true);
    const keyAt = at + 5;
    const m = view.getUint32(keyAt + n, true);
    const valueAt = keyAt + n + 4;
    const carried = m !== NO_VALUE && m !== ABSENT_VALUE;
    const value = carried
      ? packed.subarray(valueAt, valueAt + m)
      : m === ABSENT_VALUE
        ? ROW_ABSENT
        : undefined;
    fn(packed[at]!, packed.subarray(keyAt, keyAt + n), value);
    at = valueAt + (carried ? m : 0);
  }
}
