// The Store's filters of the keys present in its refcounted columns (`StoreOptions.refcountFilter`):
// when and how they are built, and what every commit tells them. A filter never denies a key added
// to it, so a count for a key it denies is folded from zero without a read.
import { DBCol, type DBColumn } from './columns.js';
import { PresenceFilter } from './presence_filter.js';
import type { StoreStats } from './store_options.js';

/** Keys one batch adds to refcounted columns, by column id. */
export type AddedKeys = [number, Uint8Array][];

/** What a build reads of the database it filters. */
export interface FilteredDb {
  /** Keys of a column, each with its column byte, from a snapshot taken when this is called. */
  keys(col: DBColumn): { nextv(n: number): Promise<Uint8Array[]>; close(): Promise<void> };
  approximateSize(col: DBColumn): Promise<number>;
  isClosed(): boolean;
}

const REFCOUNTED: readonly DBColumn[] = Object.values(DBCol).filter((c) => c.refcounted);

/** The layout of `saved()`'s bytes: a format byte, a count, then each filter's header and words. */
const SAVED_FORMAT = 1;
/** Column id (u8), capacity and keys added (f64), words (u32). */
const FILTER_HEADER = 21;

export class RefcountFilters {
  /** Filters built and answering, by column id; null until the first is built. */
  private filters: Map<number, PresenceFilter> | null = null;
  /** Filters being built: every key a commit adds goes into these too. */
  private building: Map<number, PresenceFilter> | null = null;
  private run: Promise<void> | null = null;
  /**
   * The keys of each batch in flight, until it is written: a build that starts meanwhile takes them
   * in, as its snapshot of the database may not hold them yet.
   */
  private readonly inflight = new Set<AddedKeys>();

  constructor(
    private readonly db: FilteredDb,
    private readonly firstCapacity: number,
    /** The store's counters: each build counts in `refcountFilterBuilds`. */
    private readonly stats: StoreStats,
  ) {}

  /** A batch's list of added keys, known to any build from its first key on. */
  begin(): AddedKeys {
    const added: AddedKeys = [];
    this.inflight.add(added);
    return added;
  }

  /** The batch is written (or failed): its keys are in the database or no longer matter. */
  end(added: AddedKeys): void {
    this.inflight.delete(added);
  }

  /** Whether the key is known absent: the answering filter denies it. */
  denies(colId: number, key: Uint8Array): boolean {
    const filter = this.filters?.get(colId);
    return filter !== undefined && !filter.mayContain(key);
  }

  /** A key a batch adds goes into every filter before the batch is written. */
  add(added: AddedKeys, colId: number, key: Uint8Array): void {
    added.push([colId, key]);
    this.building?.get(colId)?.add(key);
    const filter = this.filters?.get(colId);
    if (!filter) return;
    filter.add(key);
    if (filter.added > filter.capacity) this.start(filter.added * 2);
  }

  /** Builds the filters anew in the background, unless a build is under way. */
  start(capacity = this.firstCapacity): void {
    if (this.run !== null) return;
    this.run = this.build(capacity)
      .catch(() => {
        // The filters that answer, if any, still hold every key: they stay, merely fuller.
      })
      .finally(() => {
        this.run = null;
      });
  }

  /**
   * The answering filters as bytes, for the store to keep across a clean close; null while none
   * answer, a build runs or a batch is in flight (then the next open builds them again).
   */
  saved(): Uint8Array | null {
    if (!this.filters || this.run !== null || this.inflight.size > 0) return null;
    const filters = [...this.filters];
    let size = 2;
    for (const [, f] of filters) size += FILTER_HEADER + f.words.length * 4;
    const out = new Uint8Array(size);
    const view = new DataView(out.buffer);
    out[0] = SAVED_FORMAT;
    out[1] = filters.length;
    let at = 2;
    for (const [id, f] of filters) {
      view.setUint8(at, id);
      view.setFloat64(at + 1, f.capacity, true);
      view.setFloat64(at + 9, f.added, true);
      view.setUint32(at + 17, f.words.length, true);
      at += FILTER_HEADER;
      for (const w of f.words) {
        view.setUint32(at, w, true);
        at += 4;
      }
    }
    return out;
  }

  /**
   * Takes back filters `saved()` made, instead of a build: false (nothing taken) when the bytes are
   * not a whole set of filters of this store's refcounted columns.
   */
  restore(bytes: Uint8Array): boolean {
    if (this.filters || this.run !== null) return false;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (bytes.length < 2 || bytes[0] !== SAVED_FORMAT || bytes[1] !== REFCOUNTED.length) return false;
    const filters = new Map<number, PresenceFilter>();
    let at = 2;
    for (let i = 0; i < REFCOUNTED.length; i++) {
      if (at + FILTER_HEADER > bytes.length) return false;
      const id = view.getUint8(at);
      const capacity = view.getFloat64(at + 1, true);
      const added = view.getFloat64(at + 9, true);
      const count = view.getUint32(at + 17, true);
      at += FILTER_HEADER;
      if (!REFCOUNTED.some((c) => c.id === id) || filters.has(id)) return false;
      if (!Number.isSafeInteger(capacity) || capacity < 0 || !Number.isSafeInteger(added) || added < 0)
        return false;
      if (at + count * 4 > bytes.length) return false;
      const words = new Uint32Array(count);
      for (let w = 0; w < count; w++, at += 4) words[w] = view.getUint32(at, true);
      let filter: PresenceFilter;
      try {
        filter = new PresenceFilter(capacity, words);
      } catch {
        return false;
      }
      filter.added = added;
      filters.set(id, filter);
    }
    if (at !== bytes.length) return false;
    this.filters = filters;
    return true;
  }

  /** Resolves once no filter is being built. */
  async settled(): Promise<void> {
    while (this.run) await this.run;
  }

  private async build(capacity: number): Promise<void> {
    // Sized from the columns' bytes on disk (trie rows take ~140–180 bytes each, so at one key per
    // 64 bytes it is built anew only once they have doubled): each build reads every key.
    let onDisk = 0;
    for (const c of REFCOUNTED) onDisk += await this.db.approximateSize(c);
    let size = Math.max(capacity, Math.ceil(onDisk / 64));
    for (;;) {
      if (this.db.isClosed()) return;
      const next = new Map<number, PresenceFilter>(REFCOUNTED.map((c) => [c.id, new PresenceFilter(size)]));
      for (const keys of this.inflight) for (const [id, key] of keys) next.get(id)?.add(key);
      // From here every batch adds its keys to `next`, and the iterators below read the database as
      // it is now (each takes its snapshot as it is made): a key is in one or the other.
      this.building = next;
      const its = REFCOUNTED.map((c) => this.db.keys(c));
      let outgrown = false;
      try {
        for (let i = 0; i < REFCOUNTED.length && !outgrown; i++) {
          const filter = next.get(REFCOUNTED[i]!.id)!;
          for (;;) {
            if (this.db.isClosed()) return;
            const keys = await its[i]!.nextv(16384);
            if (keys.length === 0) break;
            for (const k of keys) filter.add(k, 1);
            if (filter.added > filter.capacity) {
              outgrown = true;
              break;
            }
          }
        }
      } finally {
        if (this.building === next) this.building = null;
        for (const it of its) await it.close().catch(() => undefined);
      }
      if (!outgrown) {
        this.filters = next;
        this.stats.refcountFilterBuilds++;
        return;
      }
      size *= 4;
    }
  }
}
