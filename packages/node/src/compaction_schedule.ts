// LevelDB keeps deleted rows, and the versions a write replaced, until a compaction rewrites their
// tables. Its own compactions reclaim them as writes go on; on a node that writes little, what GC
// deletes can stay on disk for long. So once GC has collected an epoch's worth of blocks, the
// database's files are measured, and when they have grown by half (and at least GROWTH_FLOOR) since
// the last whole-range compaction, the whole key range is compacted to give the space back.
// A whole-range compaction rewrites every live row: tied to growth, it costs about as many bytes as
// were written since the last one, where one every epoch rewrote the whole store each epoch however
// little had changed. It runs on LevelDB's own thread while blocks go on being made, and block
// production waits for none of it (nearcore leaves compaction to RocksDB's background threads). One
// runs at a time.

/** Growth below which a store is not compacted, whatever its size: a few MiB of a small store's log. */
export const GROWTH_FLOOR = 4 * 1024 * 1024;

export class CompactionSchedule {
  private sinceLast = 0;
  private running: Promise<void> | null = null;
  /** The files' size after the last whole-range compaction, or at the first measure. */
  private base: number | null = null;

  constructor(
    private readonly everyBlocks: number,
    private readonly compact: () => Promise<void>,
    private readonly onError: (err: unknown) => void,
    /** The bytes of the database's files (tables, log, manifest). */
    private readonly sizeOf: () => number,
  ) {}

  /**
   * GC collected `blocks` more: once an epoch's worth has gone, measures the files and starts a
   * compaction, unwaited, if they have grown enough.
   */
  collected(blocks: number): void {
    this.sinceLast += blocks;
    if (this.sinceLast < this.everyBlocks || this.running !== null) return;
    this.sinceLast = 0;
    const size = this.measure();
    if (size === null) return;
    if (this.base === null) {
      this.base = size;
      return;
    }
    if (size - this.base < Math.max(this.base / 2, GROWTH_FLOOR)) return;
    this.running = this.compact()
      .then(() => {
        this.base = this.measure() ?? this.base;
      })
      .catch(this.onError)
      .finally(() => {
        this.running = null;
      });
  }

  private measure(): number | null {
    try {
      return this.sizeOf();
    } catch (err) {
      this.onError(err);
      return null;
    }
  }

  /** Settles once no compaction runs: a stop waits for it before the store closes. */
  settled(): Promise<void> {
    return this.running ?? Promise.resolve();
  }
}
