// Where a followed block's epoch began, found in the history. A NEAR network's epochs do not fall on
// the genesis' grid: nearcore ends one once its last final block is within three heights of the
// estimated end (epoch_manager's is_next_block_in_next_epoch), so skipped heights push each start a
// little later than the one before. The stream carries each block's epoch id and epochs are runs of
// heights, so the first held block of the head's epoch id is its start, provided the history holds a
// block of the epoch before it.
import type { HeaderFacts, HeaderFactsCache } from './header_facts.js';
import type { HistoryReader } from './history_reader.js';

export class EpochStarts {
  private known: { readonly epochId: string; readonly height: number | null } | null = null;

  constructor(
    private readonly history: HistoryReader,
    private readonly facts: HeaderFactsCache,
  ) {}

  /** The height of the first block of `head`'s epoch, or null where the history begins inside it. */
  async of(head: HeaderFacts): Promise<number | null> {
    if (this.known?.epochId === head.epochId) return this.known.height;
    const height = await this.search(head);
    this.known = { epochId: head.epochId, height };
    return height;
  }

  /** The lowest held block at or above `height` (the head bounds it), with its facts. */
  private async heldFrom(height: number, head: HeaderFacts): Promise<HeaderFacts> {
    for (let h = height; h < head.height; h++) {
      const b = await this.history.blockAt(h);
      if (b) return this.facts.of(b);
    }
    return head;
  }

  private async search(head: HeaderFacts): Promise<number | null> {
    const first = this.history.firstHeight();
    if (first === null) return null;
    // "The first held block at or above x is of the head's epoch" holds from some x on: find the
    // least such x by halving, keeping the block found there. A block of an earlier epoch moves the
    // low end past it, over the skipped heights below it, which are not scanned again.
    let lo = first;
    let hi = head.height;
    let start = head;
    while (lo < hi) {
      const mid = lo + Math.floor((hi - lo) / 2);
      const b = await this.heldFrom(mid, head);
      if (b.epochId === head.epochId) {
        hi = mid;
        start = b;
      } else lo = b.height + 1;
    }
    // Every held block is of this epoch: it may have begun before the history did.
    return lo === first ? null : start.height;
  }
}
