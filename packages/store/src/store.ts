// The node's single LevelDB. classic-level is imported only here; memory-level, for unit tests, is a
// development dependency loaded on first use.
// Reads are synchronous (`getSync`) because the VM's storage host functions cannot await.
import { resolve } from 'node:path';
import { compareBytes, isPartialView, offHeap, setU64 } from '@nearlite/primitives';
import { ClassicLevel } from 'classic-level';
import type { MemoryLevel } from 'memory-level';
import { DBCol, type DBColumn } from './columns.js';
import { checkRowContent } from './content_check.js';
import { databaseExists } from './database_exists.js';
import { DiskSpaceCheck } from './disk_space.js';
import { DamagedRowError, StoreError, StoreErrorCode, StoreWriteFailure } from './errors.js';
import { type LeveldbStats, parseLeveldbStats } from './leveldb_stats.js';
import { LruCache } from './lru.js';
import { columnPrefixed, offHeapCopy } from './off_heap.js';
import { type AddedKeys, type FilteredDb, RefcountFilters } from './refcount_filters.js';
import { SeekPool } from './seek_pool.js';
import { emptyStoreStats, type StoreOptions, type StoreStats } from './store_options.js';
import { columnKey, columnKeyOf, type StoreOp, type StoreUpdate } from './store_update.js';
import { forEachWrittenRow, ROW_ABSENT } from './written_rows.js';

/**
 * Where a clean close keeps its refcount filters (`StoreOptions.refcountFilter`), so the next open
 * need not read every key of the refcounted columns again. The row stands for "no refcounted row
 * has been added since these filters were saved": an open that takes it deletes it first, and a
 * commit by a store without filters that writes a refcounted column deletes it too.
 */
const SAVED_FILTERS_KEY = columnPrefixed(DBCol.DbVersion.id, new TextEncoder().encode('refcount_filters'));

type Db = ClassicLevel<Uint8Array, Uint8Array> | MemoryLevel<Uint8Array, Uint8Array>;

const ENC = { keyEncoding: 'view', valueEncoding: 'view' } as const;

/**
 * What a cached row costs beyond its value's bytes, measured on rows read from LevelDB: ~370–410
 * bytes of V8 heap (the key string, the typed array and its ArrayBuffer, the LRU's slots) and ~200
 * bytes of native memory (the backing store's own record and malloc's header). At 256 a 64 MiB
 * budget held ~95 MB.
 */
export const ROW_OVERHEAD = 600;

/** The cache's mark for a row known not to exist (compared by identity). */
const ABSENT = new Uint8Array(0);

/**
 * Refcounted values are stored as `value ‖ i64 LE count`. `slab`: in an off-heap slab (`offHeap`),
 * for a row only written to LevelDB, which copies it; a row the cache keeps gets bytes of its own.
 */
function withRc(value: Uint8Array, rc: number, slab = false): Uint8Array {
  const out = slab ? offHeap(value.length + 8) : new Uint8Array(value.length + 8);
  out.set(value);
  setU64(out, value.length, rc, true);
  return out;
}

// A cached row must not keep a larger buffer alive: an encoder's slab (`BorshWriter.written`), a
// Node.js pool buffer.
function cacheable(value: Uint8Array): Uint8Array {
  return isPartialView(value) ? value.slice() : value;
}

function readRc(stored: Uint8Array): number {
  return Number(
    new DataView(stored.buffer, stored.byteOffset, stored.byteLength).getBigInt64(stored.length - 8, true),
  );
}

/**
 * Paths this process has open as a Store. The database is opened with `multithreading: true` (so a
 * view worker can read it through SharedStoreReader), which lets LevelDB hand the same handle to a
 * second open in this process; the LOCK file still refuses a second process, and this set refuses a
 * second writer here.
 */
const openPaths = new Set<string>();

export class Store {
  readonly stats: StoreStats = emptyStoreStats();
  private readonly cache: LruCache<string, Uint8Array>;
  /**
   * Columns the cache has held a row of: a write to any other column has nothing to forget, so its
   * rows need no cache key (a chain thread writes a dozen rows a transfer that it never reads).
   */
  private readonly cachedColumns = new Set<number>();
  private closed = false;
  /**
   * Set by a batch LevelDB failed to write (a full disk): no later batch is written. LevelDB's log
   * writer counts a failed record as written, so every record appended after it lands out of step
   * with the log's blocks and cannot be read back when the log is replayed: batches acknowledged
   * after a failure would be lost at the next open. Stopping at the first keeps every acknowledged
   * batch readable; the failed one ends the log torn, which a replay drops.
   */
  private failedWrite: StoreWriteFailure | null = null;

  /** The write failure that stopped this store's writes, if one did. */
  get writeFailure(): StoreWriteFailure | null {
    return this.failedWrite;
  }
  private readonly seeks: SeekPool;
  /** Called with every update once its batch is written (a writer telling readers elsewhere). */
  onCommitted: ((update: StoreUpdate) => void) | null = null;

  private readonly writeThrough: ReadonlySet<number> | null;

  /** `StoreOptions.refcountFilter`'s filters; null without the option. */
  private readonly refcountFilters: RefcountFilters | null;

  private constructor(
    private readonly db: Db,
    readonly path: string | null,
    opts: StoreOptions,
    private readonly readOnly = false,
  ) {
    this.cache = new LruCache(opts.cacheBytes ?? 64 * 1024 * 1024, (v) => v.length + ROW_OVERHEAD);
    this.writeThrough = opts.writeThrough ?? null;
    this.seeks = new SeekPool(db as ClassicLevel<Uint8Array, Uint8Array>);
    this.refcountFilters = opts.refcountFilter
      ? new RefcountFilters(this.filteredDb(), opts.refcountFilterKeys ?? 1 << 20, this.stats)
      : null;
    this.diskSpace = opts.diskSpace && path !== null ? new DiskSpaceCheck(path, opts.diskSpace) : null;
  }
  private readonly diskSpace: DiskSpaceCheck | null;

  /** Whether its writes are preceded by the check of the disk's free space (`StoreOptions.diskSpace`). */
  get checksDiskSpace(): boolean {
    return this.diskSpace !== null;
  }

  /**
   * The filters a clean close kept take over, or a build starts. The kept row is deleted before
   * anything else is written: from here on a crash leaves no row that could miss a key written since.
   */
  private async startRefcountFilters(): Promise<void> {
    const filters = this.refcountFilters;
    if (!filters) return;
    const kept = this.readOnly ? undefined : this.db.getSync(SAVED_FILTERS_KEY);
    if (kept) {
      await this.db.del(SAVED_FILTERS_KEY);
      if (filters.restore(kept)) return;
    }
    filters.start();
  }

  /** Opens the LevelDB at `path`, making it if missing unless read-only. A second process gets LOCKED. */
  static async open(path: string, opts: StoreOptions & { readOnly?: boolean } = {}): Promise<Store> {
    // One spelling per directory: LevelDB shares a handle between threads by the exact path string.
    const where = resolve(path);
    // LevelDB would make the directory, its LOCK and its LOG before finding no database there.
    if (opts.readOnly && !databaseExists(where))
      throw new StoreError(StoreErrorCode.Io, `no database at ${path}`);
    if (openPaths.has(where)) throw lockedError(path);
    openPaths.add(where);
    const db = new ClassicLevel<Uint8Array, Uint8Array>(where, ENC);
    try {
      await db.open({
        createIfMissing: !opts.readOnly,
        multithreading: true,
        writeBufferSize: opts.writeBufferBytes ?? 32 * 1024 * 1024,
        maxFileSize: opts.tableFileBytes ?? 8 * 1024 * 1024,
        compression: opts.compression ?? false,
      });
    } catch (err) {
      openPaths.delete(where);
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      if (cause?.code === 'LEVEL_LOCKED') throw lockedError(path);
      throw new StoreError(
        StoreErrorCode.Io,
        `cannot open the database at ${path}: ${cause?.message ?? String(err)}`,
      );
    }
    const store = new Store(db, where, opts, opts.readOnly ?? false);
    try {
      await store.startRefcountFilters();
    } catch (err) {
      await store.close();
      throw new StoreError(StoreErrorCode.Io, `cannot open the database at ${path}: ${String(err)}`);
    }
    return store;
  }

  /**
   * Where another thread of this process can open this database with SharedStoreReader; null for an
   * in-memory store, which only this thread can read.
   */
  sharedPath(): string | null {
    return this.closed ? null : this.path;
  }

  /** An in-memory store, for unit tests (needs the memory-level development dependency). */
  static async memory(opts: StoreOptions = {}): Promise<Store> {
    const { MemoryLevel } = await import('memory-level');
    const db = new MemoryLevel<Uint8Array, Uint8Array>(ENC);
    await db.open();
    const store = new Store(db, null, opts);
    await store.startRefcountFilters();
    return store;
  }

  // Every column is cached, absent rows too: this Store is the only writer of its database, and
  // commit() writes each batch through to the cache, so a cached row is never stale. Absent rows are
  // worth caching: a miss still costs LevelDB a lookup per level.
  private raw(col: DBColumn, key: Uint8Array): Uint8Array | undefined {
    if (this.closed) throw new StoreError(StoreErrorCode.Closed, 'the store is closed');
    return this.lookup(columnKey(col, key), col.id, key, true);
  }

  /**
   * A row by its cache key, its column and key; `keep`: cache what LevelDB answered. `dbKey`: the
   * row's LevelDB key when the caller has made it already.
   */
  private lookup(
    ck: string,
    colId: number,
    key: Uint8Array,
    keep: boolean,
    dbKey?: Uint8Array,
  ): Uint8Array | undefined {
    const hit = this.cache.get(ck);
    this.stats.reads++;
    if (hit !== undefined) {
      this.stats.cacheHits++;
      return hit === ABSENT ? undefined : hit;
    }
    // LevelDB's key is made only on a miss: most reads are answered by the cache.
    const v = this.db.getSync(dbKey ?? columnPrefixed(colId, key));
    if (v !== undefined) checkRowContent(colId, key, v);
    if (keep) {
      this.cachedColumns.add(colId);
      this.cache.set(ck, v ?? ABSENT);
    }
    return v;
  }

  get(col: DBColumn, key: Uint8Array): Uint8Array | undefined {
    const v = this.raw(col, key);
    if (v === undefined || !col.refcounted) return v;
    return v.subarray(0, v.length - 8);
  }

  has(col: DBColumn, key: Uint8Array): boolean {
    return this.raw(col, key) !== undefined;
  }

  /** The stored reference count of a refcounted row (0 when absent). */
  refcount(col: DBColumn, key: Uint8Array): number {
    const v = this.raw(col, key);
    return v === undefined ? 0 : readRc(v);
  }

  /**
   * Rows of one column whose key starts with `prefix`, ascending; with `gte`, from there on (a `gte`
   * below the prefix starts at the prefix), and with `lt`, below it. Keys are returned without the
   * column byte.
   */
  async *iter(
    col: DBColumn,
    prefix: Uint8Array = new Uint8Array(0),
    opts: {
      limit?: number;
      reverse?: boolean;
      gte?: Uint8Array | undefined;
      lt?: Uint8Array | undefined;
    } = {},
  ): AsyncGenerator<[Uint8Array, Uint8Array]> {
    if (this.closed) throw new StoreError(StoreErrorCode.Closed, 'the store is closed');
    const from = opts.gte && compareBytes(opts.gte, prefix) > 0 ? opts.gte : prefix;
    const gte = columnPrefixed(col.id, from);
    const end = upperBound(columnPrefixed(col.id, prefix));
    const below = opts.lt && columnPrefixed(col.id, opts.lt);
    const lt = below && (!end || compareBytes(below, end) < 0) ? below : end;
    const it = (this.db as ClassicLevel<Uint8Array, Uint8Array>).iterator({
      gte,
      ...(lt ? { lt } : {}),
      limit: opts.limit ?? -1,
      reverse: opts.reverse ?? false,
    });
    try {
      for await (const [k, v] of it) {
        yield [k.subarray(1), col.refcounted ? v.subarray(0, v.length - 8) : v];
      }
    } catch (err) {
      // The store closed while the scan ran: LevelDB's own error says so in its terms.
      if (this.closed) throw new StoreError(StoreErrorCode.Closed, 'the store is closed');
      throw err;
    } finally {
      await it.close();
    }
  }

  /**
   * The first row of `col` whose key is at least `from` and starts with `prefix` (keys without the
   * column byte), or undefined: one seek, on an iterator kept for reuse (`SeekPool`).
   */
  async first(
    col: DBColumn,
    prefix: Uint8Array,
    from: Uint8Array,
  ): Promise<[Uint8Array, Uint8Array] | undefined> {
    if (this.closed) throw new StoreError(StoreErrorCode.Closed, 'the store is closed');
    const row = await this.seeks.seek(col, from);
    if (!row) return undefined;
    const key = row[0].subarray(1);
    if (key.length < prefix.length) return undefined;
    for (let i = 0; i < prefix.length; i++) if (key[i] !== prefix[i]) return undefined;
    return [key, col.refcounted ? row[1].subarray(0, row[1].length - 8) : row[1]];
  }

  /**
   * Commits an update as one atomic batch. Its rows are written through to the read cache unless
   * `cacheRows` is false: then the cache only forgets what it held for them, for a bulk writer
   * (a follower catching up) whose rows would push out the ones readers use, and whose values may
   * be views of a larger buffer the cache would keep alive.
   */
  async commit(update: StoreUpdate, opts: { readonly cacheRows?: boolean } = {}): Promise<void> {
    const cacheRows = opts.cacheRows ?? true;
    if (this.closed) throw new StoreError(StoreErrorCode.Closed, 'the store is closed');
    if (this.failedWrite) throw this.failedWrite;
    if (this.readOnly) throw readOnlyError(this.path ?? 'memory');
    try {
      this.diskSpace?.check(update);
    } catch (err) {
      this.failedWrite = new StoreWriteFailure(err);
      throw this.failedWrite;
    }
    this.stats.batches++;
    this.stats.writes += update.ops.length + update.refcounts.size;
    const batch = this.db.batch();
    // Cache keys with their row after this batch (ABSENT: deleted; null: not known, forget it),
    // applied once the batch is written.
    const written: [string, Uint8Array | null][] = [];
    // Rows of columns the cache has not held, not to be cached: no key is made for them unless it has.
    const unknown: StoreOp[] = [];
    // Keys this batch adds to refcounted columns, when a filter of them is kept: known to a build
    // from the first on, as one may start while this batch is made or written.
    const filters = this.refcountFilters;
    const added: AddedKeys | null = filters ? filters.begin() : null;
    // Filters saved by another store's clean close would not know of the rows this batch adds.
    let savedFiltersStale = !filters && update.refcounts.size > 0;
    try {
      for (const op of update.ops) {
        const k = columnPrefixed(op.col.id, op.key);
        if (op.type === 'put') {
          batch.put(k, offHeapCopy(op.value));
          if (filters && added && op.col.refcounted) filters.add(added, op.col.id, op.key);
          else if (op.col.refcounted) savedFiltersStale = true;
        } else batch.del(k);
        // A direct put on a refcounted column is stored as given; only folded counts are cached.
        const cached = cacheRows && !op.col.refcounted && this.writesThrough(op.col);
        const row = op.type === 'delete' ? ABSENT : cached ? cacheable(op.value) : null;
        if (row === null && !this.cachedColumns.has(op.col.id)) {
          // Looked at again once the batch is written: a read meanwhile may cache the column.
          unknown.push(op);
          continue;
        }
        if (row !== null) this.cachedColumns.add(op.col.id);
        written.push([columnKey(op.col, op.key), row]);
      }
      // Each row's count is read, summed and written: LevelDB has no merge. What was read is not
      // cached on its own, since the row is cached with its new count once the batch is written.
      // The update keys its counts by their cache keys.
      for (const [ck, r] of update.refcounts) {
        if (r.delta === 0) continue;
        this.cachedColumns.add(r.col.id);
        const k = columnPrefixed(r.col.id, r.key);
        // A key the filter denies was never added: absent, without a read.
        let cur: Uint8Array | undefined;
        // A damaged row (its bytes no longer hash to its key) written again takes the written bytes,
        // which do, and keeps its count: the same content written anew heals it.
        let healed = false;
        if (filters?.denies(r.col.id, r.key)) this.stats.refcountsFiltered++;
        else
          try {
            cur = this.lookup(ck, r.col.id, r.key, false, k);
          } catch (err) {
            if (!(err instanceof DamagedRowError)) throw err;
            cur = this.db.getSync(k);
            healed = r.value !== undefined;
          }
        const rc = (cur ? readRc(cur) : 0) + r.delta;
        if (rc <= 0) {
          if (cur) batch.del(k);
          written.push([ck, ABSENT]);
          continue;
        }
        const value = cur && !healed ? cur.subarray(0, cur.length - 8) : r.value;
        if (!value)
          throw new StoreError(
            StoreErrorCode.Io,
            `refcount increment without a value for column ${r.col.id}`,
          );
        if (filters && added && !cur) filters.add(added, r.col.id, r.key);
        const keep = cacheRows && this.writesThrough(r.col);
        const stored = withRc(value, rc, !keep);
        batch.put(k, keep ? offHeapCopy(stored) : stored);
        written.push([ck, keep ? stored : null]);
      }
      if (savedFiltersStale) batch.del(SAVED_FILTERS_KEY);
      this.seeks.retire();
      try {
        await batch.write();
      } catch (err) {
        // Whatever the database holds now, the cache must not claim otherwise.
        for (const [ck] of written) this.cache.delete(ck);
        this.forgetUnknown(unknown);
        this.failedWrite = new StoreWriteFailure(err);
        throw this.failedWrite;
      } finally {
        this.seeks.retire();
      }
    } finally {
      if (filters && added) filters.end(added);
    }
    for (const [ck, row] of written) {
      if (row === null) this.cache.delete(ck);
      else this.cache.set(ck, row);
    }
    this.forgetUnknown(unknown);
    this.onCommitted?.(update);
  }

  /** Resolves once no refcount filter is being built (`StoreOptions.refcountFilter`). */
  async refcountFilterSettled(): Promise<void> {
    await this.refcountFilters?.settled();
  }

  /** What a refcount filter's build reads of this store's database. */
  private filteredDb(): FilteredDb {
    const db = this.db as ClassicLevel<Uint8Array, Uint8Array>;
    return {
      // LevelDB hands out ~16 kB of keys a call by default: about 500 trie node keys.
      keys: (col) =>
        db.keys({ gte: Uint8Array.of(col.id), lt: Uint8Array.of(col.id + 1), highWaterMarkBytes: 1 << 20 }),
      approximateSize: (col) => this.approximateSize(col),
      isClosed: () => this.closed,
    };
  }

  /** Whether a commit caches the rows it writes to `col` (`StoreOptions.writeThrough`). */
  private writesThrough(col: DBColumn): boolean {
    return this.writeThrough?.has(col.id) ?? true;
  }

  /** Forgets the rows of `ops` whose column the cache has come to hold since they were set aside. */
  private forgetUnknown(ops: readonly StoreOp[]): void {
    for (const op of ops) if (this.cachedColumns.has(op.col.id)) this.cache.delete(columnKey(op.col, op.key));
  }

  /**
   * Takes in the rows another writer of this database (a thread of this process) has written, packed
   * by `WrittenRows`: a row that came with its value is cached with it, the others are forgotten.
   * Iterators kept for reuse are retired with them.
   */
  takeWrittenRows(packed: Uint8Array): void {
    forEachWrittenRow(packed, (id, key, value) => {
      if (value === undefined && !this.cachedColumns.has(id)) return;
      const ck = columnKeyOf(id, key);
      if (value === undefined) this.cache.delete(ck);
      else {
        this.cachedColumns.add(id);
        // A copy: a view would keep the whole packed buffer alive while the cache counts one row.
        this.cache.set(ck, value === ROW_ABSENT ? ABSENT : value.slice());
      }
    });
    this.seeks.retire();
  }

  /** Compacts the whole database so space freed by deletions goes back to the file system. */
  async compact(): Promise<void> {
    await this.compactRange(Uint8Array.of(0), Uint8Array.of(255));
  }

  /**
   * Writes LevelDB's memtable into a table and starts an empty log (LevelDB's CompactRange flushes the
   * memtable first, and a range holding no keys costs nothing more): afterwards nothing the store
   * holds depends on replaying the log.
   */
  async flushLog(): Promise<void> {
    await this.compactRange(Uint8Array.of(0xff, 0xff), Uint8Array.of(0xff, 0xff));
  }

  /** classic-level only: an in-memory store has nothing to compact or flush. */
  private async compactRange(from: Uint8Array, to: Uint8Array): Promise<void> {
    const db = this.db as { compactRange?: (a: Uint8Array, b: Uint8Array) => Promise<void> };
    if (db.compactRange) await db.compactRange(from, to);
  }

  /** Approximate on-disk bytes of a key range (classic-level only), for `inspect stats`. */
  async approximateSize(col: DBColumn): Promise<number> {
    const db = this.db as { approximateSize?: (a: Uint8Array, b: Uint8Array) => Promise<number> };
    if (!db.approximateSize) return 0;
    return db.approximateSize(Uint8Array.of(col.id), Uint8Array.of(col.id + 1));
  }

  /** What LevelDB says of its levels, compactions and memory (classic-level only, while open). */
  leveldbStats(): LeveldbStats | null {
    const db = this.db as { getProperty?: (p: string) => string };
    if (this.closed || !db.getProperty) return null;
    return parseLeveldbStats(
      db.getProperty('leveldb.stats'),
      db.getProperty('leveldb.approximate-memory-usage'),
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // The last write: every batch before it is in the filters (none is in flight), and from this
    // tick on `closed` refuses any other.
    const saved = this.readOnly || this.failedWrite ? null : (this.refcountFilters?.saved() ?? null);
    this.closed = true;
    if (saved) await this.db.put(SAVED_FILTERS_KEY, saved).catch(() => undefined);
    this.seeks.close();
    try {
      await this.db.close();
    } finally {
      if (this.path !== null) openPaths.delete(this.path);
    }
  }
}

function readOnlyError(path: string): StoreError {
  return new StoreError(
    StoreErrorCode.ReadOnly,
    `the database at ${path} was opened read-only and takes no writes`,
  );
}

function lockedError(path: string): StoreError {
  return new StoreError(
    StoreErrorCode.Locked,
    `the database at ${path} is already in use by another process (its LOCK file is held): a running node, or a tool reading its store; stop it first`,
  );
}

/** The smallest key greater than every key starting with `prefix`, or undefined if none exists. */
function upperBound(prefix: Uint8Array): Uint8Array | undefined {
  const out = prefix.slice();
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i]! < 0xff) {
      out[i]! += 1;
      return out.subarray(0, i + 1);
    }
  }
  return undefined;
}
