// The Store's filters of the keys present in its refcounted columns (`StoreOptions.refcountFilter`):
// when and how they are built, and what every commit tells them. A filter never denies a key added
// to it, so a count for a key it denies is folded from zero without a read.
import { DBCol, type DBColumn } from './columns.js';
import { PresenceFilter } from './presence_filter.js';
import type { StoreStats } from './store.js';

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
