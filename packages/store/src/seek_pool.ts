// The iterators behind `Store.first`. Creating a LevelDB iterator per seek costs about twice the
// seek itself, so iterators over a whole column are kept and re-seeked. An iterator reads the
// snapshot of its creation, so one is reused only while no batch has been written since then.
import type { ClassicLevel } from 'classic-level';
import type { DBColumn } from './columns.js';
import { columnPrefixed } from './off_heap.js';

type ColumnIterator = ReturnType<ClassicLevel<Uint8Array, Uint8Array>['iterator']>;

/** An open iterator over one column, kept for reuse while nothing has been written. */
interface PooledIterator {
  readonly it: ColumnIterator;
  readonly generation: number;
}

/** Idle iterators kept per column: about the number of seeks a node has in flight at once. */
const POOL_PER_COLUMN = 64;

export class SeekPool {
  /** Bumped when a batch starts and when it has been written: iterators see the data of their creation. */
  private generation = 0;
  private readonly idle = new Map<number, PooledIterator[]>();
  private closed = false;

  constructor(private readonly db: ClassicLevel<Uint8Array, Uint8Array>) {}

  /** The first row of `col` (its key with the column byte) at or after `from`, or undefined. */
  async seek(col: DBColumn, from: Uint8Array): Promise<[Uint8Array, Uint8Array] | undefined> {
    const entry = this.idle.get(col.id)?.pop() ?? {
      it: this.db.iterator({ gte: Uint8Array.of(col.id), lt: Uint8Array.of(col.id + 1) }),
      generation: this.generation,
    };
    let rows: [Uint8Array, Uint8Array][];
    try {
      entry.it.seek(columnPrefixed(col.id, from));
      rows = (await entry.it.nextv(1)) as [Uint8Array, Uint8Array][];
    } catch (err) {
      await entry.it.close().catch(() => undefined);
      throw err;
    }
    this.release(col.id, entry);
    return rows[0];
  }

  /** Idle iterators hold snapshots older than a batch being or just written: closed, not reused. */
  retire(): void {
    this.generation++;
    for (const pool of this.idle.values())
      for (const { it } of pool.splice(0)) it.close().catch(() => undefined);
  }

  /** Closes every idle iterator; one still seeking is closed when it comes back. */
  close(): void {
    this.closed = true;
    this.retire();
  }

  private release(colId: number, entry: PooledIterator): void {
    const pool = this.idle.get(colId) ?? [];
    if (this.closed || entry.generation !== this.generation || pool.length >= POOL_PER_COLUMN) {
      entry.it.close().catch(() => undefined);
      return;
    }
    pool.push(entry);
    this.idle.set(colId, pool);
  }
}
