// Start-up work that the node's first answer need not wait for, run once that answer has gone out.
// Started right after `listen`, the view and signature worker threads booted four isolates beside
// the first request and took the CPU it needed: on two cores, 21 interleaved starts of one store
// each answered in a median of 351 ms that way and 334 ms this way.

export class WarmUp {
  private pending = true;
  private readonly timer: NodeJS.Timeout;

  /** `work` runs after the first answered request, or after `fallbackMs` if none comes first. */
  constructor(
    private readonly work: () => void,
    fallbackMs = 1000,
  ) {
    this.timer = setTimeout(() => this.run(), fallbackMs);
    this.timer.unref();
  }

  /** Called for every answered request; the first runs the work once its reply has been written. */
  answered(): void {
    if (!this.pending) return;
    clearTimeout(this.timer);
    setImmediate(() => this.run());
  }

  /** The node is stopping: the work never runs. */
  cancel(): void {
    this.pending = false;
    clearTimeout(this.timer);
  }

  private run(): void {
    if (!this.pending) return;
    this.pending = false;
    this.work();
  }
}
