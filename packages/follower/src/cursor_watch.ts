// Waiting for a history's cursor to move. A follower's RPC and a front end learn of new blocks only
// through `cursor()`, which a LevelDB history moves as it commits and a PostgreSQL one as the writer's
// NOTIFY (or the poll behind it) reports: so the waiters look at it on a short timer, one for them
// all, running only while someone waits.

interface Waiter {
  readonly seen: number;
  readonly deadline: number;
  readonly resolve: (moved: boolean) => void;
}

export class CursorWatch {
  private readonly waiters = new Set<Waiter>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly height: () => number,
    private readonly everyMs = 20,
  ) {}

  private stopped = false;

  /** True once the cursor is above `seen`; false when `deadline` (a `Date.now()` time) comes first, or the watch stops. */
  next(seen: number, deadline: number): Promise<boolean> {
    if (this.height() > seen) return Promise.resolve(true);
    if (this.stopped || Date.now() >= deadline) return Promise.resolve(false);
    return new Promise((resolve) => {
      this.waiters.add({ seen, deadline, resolve });
      if (this.timer === undefined) {
        this.timer = setInterval(() => this.tick(), this.everyMs);
      }
    });
  }

  /** The node is stopping and the cursor moves no more: every wait ends now, as at its deadline, and any begun later at once. */
  stop(): void {
    this.stopped = true;
    for (const w of this.waiters) w.resolve(false);
    this.waiters.clear();
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** How many wait now. */
  get waiting(): number {
    return this.waiters.size;
  }

  private tick(): void {
    const height = this.height();
    const now = Date.now();
    for (const w of this.waiters) {
      if (height > w.seen) w.resolve(true);
      else if (now >= w.deadline) w.resolve(false);
      else continue;
      this.waiters.delete(w);
    }
    if (this.waiters.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}
