// Retention on a follower that is not archival: blocks more than `keepBlocks` below the cursor are
// collected a few at a time. A step first moves `first` (the follower's tail), so queries below it
// answer GARBAGE_COLLECTED_BLOCK and block lookups UNKNOWN_BLOCK, as on a GC'd producer; the rows of
// the heights below a tail are deleted once `gcGraceMs` has passed since it moved, so a request that
// passed the tail check just before (a transaction status reading its receipts one by one) never
// reads half of a block, as the PostgreSQL history waits for its readers. `gc_done` records how far
// the deletions have gone, so a restart finishes what was started (block_rows.ts deletes a block but
// its header and height index row, which nearcore's GC keeps too).
// State history is kept: the rows below the tail still hold the values current at it.
import { DBCol, StoreUpdate, u64be } from '@nearlite/store';
import { deleteStreamBlockRows } from './block_rows.js';
import { FIRST_KEY, GC_DONE_KEY } from './history_keys_misc.js';
import type { FollowerGcOptions } from './history_reader.js';
import type { HistoryStore } from './history_store.js';

/** How long the rows of a collected height outlive the tail's move past it. */
export const DEFAULT_GC_GRACE_MS = 5_000;

export class FollowerGc {
  /** Tails this process moved to, oldest first, with when. */
  private readonly tails: { tail: number; at: number }[] = [];
  /** The highest tail whose grace has passed: rows below it may go. */
  private deletable: number | null = null;
  private started = false;

  constructor(
    private readonly history: HistoryStore,
    private readonly graceMs: number,
  ) {}

  private done(first: number): number {
    // A history from before deletions were deferred deleted every row below its tail at once.
    return this.history.collectedTo() ?? first;
  }

  /** Moves the tail up to `heightsPerStep` heights; returns how many blocks it moved past. */
  async step(o: FollowerGcOptions): Promise<number> {
    const h = this.history;
    const cursor = h.cursor();
    const first = h.firstHeight();
    if (!cursor || first === null) return 0;
    const perStep = o.heightsPerStep ?? 4;
    const done = this.done(first);
    if (!this.started) {
      this.started = true;
      // No reader of this process read below the tail it found: those rows may go at once.
      if (done < first) this.tails.push({ tail: first, at: 0 });
      if (!h.store.has(DBCol.FollowerMisc, GC_DONE_KEY)) {
        const u = new StoreUpdate();
        u.put(DBCol.FollowerMisc, GC_DONE_KEY, u64be(done));
        await h.store.commit(u);
      }
    }
    let collected = 0;
    const target = cursor.height - o.keepBlocks;
    if (first < target) {
      let until = Math.min(target, first + perStep);
      // The first height names a block, not one the chain skipped: the earliest block views read it.
      while (until < target && !h.blockHashAt(until)) until++;
      for (let height = first; height < until; height++) if (h.blockHashAt(height)) collected++;
      const u = new StoreUpdate();
      u.put(DBCol.FollowerMisc, FIRST_KEY, u64be(until));
      await h.store.commit(u);
      this.tails.push({ tail: until, at: Date.now() });
    }
    const known = Date.now() - this.graceMs;
    while (this.tails.length > 0 && this.tails[0]!.at <= known) {
      const { tail } = this.tails.shift()!;
      if (this.deletable === null || tail > this.deletable) this.deletable = tail;
    }
    if (this.deletable !== null && done < this.deletable) {
      // Up to `heightsPerStep` blocks a step, past the heights a fast-forward left without one.
      let to = done;
      for (let blocks = 0; to < this.deletable && blocks < perStep; to++) if (h.blockHashAt(to)) blocks++;
      await this.deleteRows(done, to);
    }
    return collected;
  }

  /** Deletes the rows of the heights `from` ≤ h < `to`, and records how far deletions have gone. */
  private async deleteRows(from: number, to: number): Promise<void> {
    const history = this.history;
    const update = new StoreUpdate();
    for (let h = from; h < to; h++) deleteStreamBlockRows(history, update, h, { keepHeader: true });
    update.put(DBCol.FollowerMisc, GC_DONE_KEY, u64be(to));
    await history.store.commit(update);
  }
}

/** One GC step of `history` (its own collector, with its grace). */
export function gcFollowerStep(history: HistoryStore, o: FollowerGcOptions): Promise<number> {
  return history.collectGarbage(o);
}
