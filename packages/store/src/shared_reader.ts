// A second, read-only handle on a Store's LevelDB, for another thread of the same process (a view
// worker). classic-level shares one LevelDB per path between the threads that open it with
// `multithreading: true`, so this handle sees every batch the owning Store has committed, without
// taking the LOCK file a second process would need.
//
// No row cache: the owning Store is the only writer and this handle cannot see its commits coming,
// so a cached absent row could go stale. Callers cache what is immutable by key (trie nodes by hash).
import { ClassicLevel } from 'classic-level';
import type { DBColumn } from './columns.js';
import { checkRowContent } from './content_check.js';
import { StoreError, StoreErrorCode } from './errors.js';
import { columnPrefixed } from './off_heap.js';

const ENC = { keyEncoding: 'view', valueEncoding: 'view' } as const;

export class SharedStoreReader {
  private closed = false;

  private constructor(private readonly db: ClassicLevel<Uint8Array, Uint8Array>) {}

  /** Opens the database a Store in this process has open at `path` (see Store.sharedPath). */
  static async open(path: string): Promise<SharedStoreReader> {
    const db = new ClassicLevel<Uint8Array, Uint8Array>(path, ENC);
    try {
      await db.open({ createIfMissing: false, multithreading: true });
    } catch (err) {
      const cause = (err as { cause?: { message?: string } }).cause;
      throw new StoreError(
        StoreErrorCode.Io,
        `cannot open the database at ${path} from this thread: ${cause?.message ?? String(err)}`,
      );
    }
    return new SharedStoreReader(db);
  }

  /** The row's value (without a refcounted column's count); undefined when absent. Throws on I/O errors. */
  get(col: DBColumn, key: Uint8Array): Uint8Array | undefined {
    if (this.closed) throw new StoreError(StoreErrorCode.Closed, 'the store is closed');
    const v = this.db.getSync(columnPrefixed(col.id, key));
    if (v === undefined) return v;
    checkRowContent(col.id, key, v);
    if (!col.refcounted) return v;
    return v.subarray(0, v.length - 8);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.db.close();
  }
}
