// How long a front end's head has stood still, for `health`. A front end follows no source: its head
// is the writer's cursor, and one that stopped moving (the writer stopped, or the database went away)
// is a head with no new blocks. The cursor is watched every second, not only when `health` is asked,
// so the first call after a stall does not start the clock; the first head seen counts from its
// block's timestamp, as nearcore's health check counts a head's age, so a front end started while
// its writer is stuck is not healthy for the first staleness bound.
import { HeaderFactsCache, type HistoryReader } from '@nearlite/follower';

const WATCH_MS = 1000;

export class HeadClock {
  private height: number | null = null;
  private since = Date.now();
  private readonly facts = new HeaderFactsCache(1);
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly history: HistoryReader,
    /** Told of each head it sees move (a front end's `expected_shutdown` watches it). */
    private readonly onHead: (height: number) => void = () => {},
  ) {
    this.timer = setInterval(() => this.observe(), WATCH_MS);
    this.timer.unref();
    this.observe();
  }

  /** Milliseconds since the head last moved (or since its block was made, for the first head seen). */
  idleMs(): number {
    this.observe();
    return Date.now() - this.since;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private observe(): void {
    const c = this.history.cursor();
    if (!c || c.height === this.height) return;
    const first = this.height === null;
    this.height = c.height;
    this.since = Date.now();
    this.onHead(c.height);
    if (!first) return;
    this.history
      .blockAt(c.height)
      .then((b) => {
        if (!b || this.height !== c.height) return;
        const madeMs = Number(this.facts.of(b).timestamp / 1_000_000n);
        this.since = Math.min(this.since, madeMs);
      })
      .catch(() => {
        // Unread, the head counts from when it was first seen.
      });
  }
}
