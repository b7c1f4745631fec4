// Heights whose state a reader outside the chain loop is walking right now (a view call on a worker
// thread reading the State column through its own database handle), and the rule GC keeps for them.
//
// Invariant: while a height h is pinned, no block above h - 1 is collected, so the trie at the end
// of block h stays whole. Why that is enough: trie nodes leave the State column only when GC
// collects a block and applies that block's TrieChanges deletions, which release nodes of its
// *parent's* state (a lower height). Collecting only blocks below h therefore releases only states
// below h - 1. Nothing else deletes State rows on a running node (the integrity repair runs with the
// node stopped and never releases trie deletions).
//
// The pin is taken on the main thread in the same synchronous step that resolves the block against
// the TAIL marker, and GC checks the pins twice: when it picks how far to collect, and again right
// before it commits (a view may have pinned while it was reading the rows to delete). From that
// second check until its batch is written, heights below the new tail are refused a pin: the
// caller answers GARBAGE_COLLECTED_BLOCK as it would a moment later.
import { HandlerError } from '@nearlite/primitives';

export class StatePins {
  private readonly counts = new Map<number, number>();
  /** Heights below this are being collected by a batch not yet written; -1 when none is. */
  private collectingBelow = -1;

  /**
   * Pins `height` until the returned release is called (once; more calls do nothing). Throws
   * GARBAGE_COLLECTED_BLOCK when GC is writing away that height's state.
   */
  pin(height: number, blockHash: string): () => void {
    const release = this.hold(height);
    if (release) return release;
    throw new HandlerError(
      'GARBAGE_COLLECTED_BLOCK',
      { block_height: height, block_hash: blockHash },
      `The data for block #${height} is garbage collected on this node, use an archival node to fetch historical data`,
    );
  }

  /** As `pin`, for a caller with a refusal of its own: null when GC is writing that height away. */
  hold(height: number): (() => void) | null {
    if (height < this.collectingBelow) return null;
    this.counts.set(height, (this.counts.get(height) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const n = this.counts.get(height)! - 1;
      if (n === 0) this.counts.delete(height);
      else this.counts.set(height, n);
    };
  }

  /** The lowest pinned height, or null when nothing is pinned. */
  lowest(): number | null {
    let low: number | null = null;
    for (const h of this.counts.keys()) if (low === null || h < low) low = h;
    return low;
  }

  /** How far GC may move the tail now: to `stop`, or to the lowest pin if that is lower. */
  gcStop(stop: number): number {
    const low = this.lowest();
    return low === null ? stop : Math.min(stop, low);
  }

  /**
   * GC is about to write a batch that moves the tail to `newTail`. False if a pin arrived below it
   * meanwhile (the batch must be dropped); otherwise pins below `newTail` are refused until
   * `endCollect`.
   */
  beginCollect(newTail: number): boolean {
    if (this.gcStop(newTail) < newTail) return false;
    this.collectingBelow = newTail;
    return true;
  }

  endCollect(): void {
    this.collectingBelow = -1;
  }
}
