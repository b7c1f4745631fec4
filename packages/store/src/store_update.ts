// One logical change (a block, one GC step) accumulated in memory and committed as ONE LevelDB batch.
// Refcount deltas for the same key are folded here; the read-modify-write of the stored count happens
// at commit. That is only correct with a single writer (the chain loop), which the node guarantees.
import { binaryKey } from '@nearlite/primitives';
import type { DBColumn } from './columns.js';

export type StoreOp =
  | { readonly type: 'put'; readonly col: DBColumn; readonly key: Uint8Array; readonly value: Uint8Array }
  | { readonly type: 'delete'; readonly col: DBColumn; readonly key: Uint8Array };

export interface RefcountDelta {
  readonly col: DBColumn;
  readonly key: Uint8Array;
  value: Uint8Array | undefined;
  delta: number;
}

/** A row's key in maps keyed by column and key: the update's refcounts and the store's cache. */
export function columnKey(col: DBColumn, key: Uint8Array): string {
  return columnKeyOf(col.id, key);
}

/** The same key, for a column known by its id (rows another thread names). */
export function columnKeyOf(columnId: number, key: Uint8Array): string {
  return `${columnId}:${binaryKey(key)}`;
}

export class StoreUpdate {
  readonly ops: StoreOp[] = [];
  readonly refcounts = new Map<string, RefcountDelta>();

  put(col: DBColumn, key: Uint8Array, value: Uint8Array): this {
    this.ops.push({ type: 'put', col, key, value });
    return this;
  }

  delete(col: DBColumn, key: Uint8Array): this {
    this.ops.push({ type: 'delete', col, key });
    return this;
  }

  /** Adds `delta` references to a refcounted row, writing `value` if the row is new. */
  incRef(col: DBColumn, key: Uint8Array, value: Uint8Array, delta = 1): this {
    if (!col.refcounted) throw new TypeError(`column ${col.id} is not refcounted`);
    const k = columnKey(col, key);
    const cur = this.refcounts.get(k);
    if (cur) {
      cur.delta += delta;
      cur.value ??= value;
    } else this.refcounts.set(k, { col, key, value, delta });
    return this;
  }

  decRef(col: DBColumn, key: Uint8Array, delta = 1): this {
    if (!col.refcounted) throw new TypeError(`column ${col.id} is not refcounted`);
    const k = columnKey(col, key);
    const cur = this.refcounts.get(k);
    if (cur) cur.delta -= delta;
    else this.refcounts.set(k, { col, key, value: undefined, delta: -delta });
    return this;
  }

  /** Appends all of another update's operations (used to merge per-shard work into a block). */
  merge(other: StoreUpdate): this {
    this.ops.push(...other.ops);
    for (const r of other.refcounts.values()) {
      if (r.delta >= 0 && r.value) this.incRef(r.col, r.key, r.value, r.delta);
      else if (r.delta < 0) this.decRef(r.col, r.key, -r.delta);
    }
    return this;
  }

  get size(): number {
    return this.ops.length + this.refcounts.size;
  }
}
