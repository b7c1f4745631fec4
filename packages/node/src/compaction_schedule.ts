// LevelDB keeps deleted rows until a compaction rewrites their tables, so once GC has collected an
// epoch's worth of blocks the whole key range is compacted to give the space back. It runs on
// LevelDB's own thread while blocks go on being made: a whole-range compaction takes time that grows
// with the whole state, not with what GC removed, and block production waits for none of it
// (nearcore leaves compaction to RocksDB's background threads). One runs at a time.
export class CompactionSchedule {
  private sinceLast = 0;
  private running: Promise<void> | null = null;

  constructor(
    private readonly everyBlocks: number,
    private readonly compact: () => Promise<void>,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** GC collected `blocks` more: starts a compaction, unwaited, once an epoch's worth has gone. */
  collected(blocks: number): void {
    this.sinceLast += blocks;
    if (this.sinceLast < this.everyBlocks || this.running !== null) return;
    this.sinceLast = 0;
    this.running = this.compact()
      .catch(this.onError)
      .finally(() => {
        this.running = null;
      });
  }

  /** Settles once no compaction runs: a stop waits for it before the store closes. */
  settled(): Promise<void> {
    return this.running ?? Promise.resolve();
  }
}
