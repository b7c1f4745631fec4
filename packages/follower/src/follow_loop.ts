// The follow loop: fetches heights from a BlockSource in parallel (a bounded window ahead of the
// cursor), verifies and ingests them strictly in height order, then tails the source's final head.
// A failing fetch is retried with exponential backoff and reported, never skipped; a block that
// fails verification is refetched the same way, so the cursor stops there (and says so) rather than
// store anything it cannot check. A write that fails is written again after the same pause. A height
// the source answers null for, below its final head, has no block (a skipped height).
import {
  type BlockSource,
  BlockVerificationError,
  blockGasUsed,
  StreamErrorCode,
  type StreamerMessage,
} from '@nearlite/stream';
import type { GenesisAnchor } from './genesis_anchor.js';
import type { FollowerGcOptions, HistoryWriter } from './history_reader.js';
import { ingestBlocks } from './ingest.js';
import { ingestPrepared, type PreparedWriter } from './ingest_prepared.js';
import type { PreparedOrRefused } from './prepared_block.js';
import { SYNC_HEIGHT_THRESHOLD, syncingAfter } from './sync_status.js';

/** A write still under way after this long is said in the log, and every as long again. */
const SLOW_WRITE_WARN_MS = 30_000;

/** Blocks fetched and prepared off the loop's thread (`PreparePool`), and where they are written. */
export interface PreparedPath {
  readonly pool: { fetchPrepared(height: number): Promise<PreparedOrRefused | null> };
  readonly writer: PreparedWriter;
}

type Fetched = StreamerMessage | PreparedOrRefused;
/**
 * A height the source no longer keeps (below its first block, as a non-archival node collects its
 * oldest blocks), fetched before anything was written: the loop starts over at the source's first.
 */
const GONE: unique symbol = Symbol("below the source's first block");
/** A fetch under way; `failing` settles at its first failed attempt. */
type Fetch = Promise<Fetched | null | undefined | typeof GONE> & { readonly failing: Promise<void> };
/** A batch's next block is failing, or slow: the blocks before it are written first. */
const HELD: unique symbol = Symbol('held back by a failing fetch');
/**
 * How long a batch's next block may keep the blocks fetched before it unwritten. A source retries a
 * failing request by itself (~25 s for the stream sources) before the loop hears of it, so the
 * loop cannot wait for the failure: a block answered 5xx would hold the good one before it that long.
 */
const HOLD_BATCH_MS = 250;

/** A source's refusal of a height below its first block, directly or from a preparing thread. */
function isBelowFirst(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === StreamErrorCode.BELOW_FIRST;
}
const heightOf = (f: Fetched) => ('block' in f ? f.block.header.height : f.height);
const gasOf = (f: Fetched) => ('block' in f ? blockGasUsed(f.block) : 'gasUsed' in f ? f.gasUsed : 0n);
/** The bytes a fetched block adds to a batch, where known (prepared rows); 0 otherwise. */
const rowBytes = (f: Fetched) => ('rows' in f ? f.rows.length : 0);

export interface FollowLogger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

export interface FollowLoopOptions {
  readonly history: HistoryWriter;
  readonly source: BlockSource;
  /** First height to fetch when the store has no cursor yet. */
  readonly startHeight: number;
  /**
   * Where the source's history begins, asked before the first fetch while nothing is written (null:
   * at `startHeight`), so that a node whose source is down at its start answers RPC meanwhile. Its
   * failure ends the loop.
   */
  readonly firstHeight?: () => Promise<number | null>;
  /** The genesis the history's first block must show, where it shows one (`genesis_anchor.ts`). */
  readonly genesis?: GenesisAnchor;
  readonly log: FollowLogger;
  /** Heights fetched ahead of the cursor at once (at least `batchSize`; four batches by default). */
  readonly concurrency?: number;
  /** How long to wait for the source's head to move once caught up. */
  readonly pollMs?: number;
  readonly retryInitialMs?: number;
  readonly retryMaxMs?: number;
  /** After how long a write still under way is said in the log (30 s). */
  readonly slowWriteWarnMs?: number;
  /** How often catch-up progress is logged. */
  readonly progressEveryMs?: number;
  /** Retention for a non-archival follower; null keeps everything (archival). */
  readonly gc?: FollowerGcOptions | null;
  /**
   * Most blocks written at once while catching up (1 by default): consecutive fetched blocks are
   * verified and committed together, the cursor moved once to the last of them.
   */
  readonly batchSize?: number;
  /**
   * A batch also ends once its prepared rows reach this many bytes (1 MiB by default): LevelDB
   * builds a batch in one growing buffer, fresh memory that costs more to touch than to fill, and a
   * smaller batch lets the preparing threads run on while it is written.
   */
  readonly batchBytes?: number;
  /**
   * Fetch, parse, check and encode blocks on worker threads; the loop then only checks each block's
   * link to the one before it and commits. Absent: all of it on the loop's thread.
   */
  readonly prepared?: PreparedPath;
  /** Called after each committed block, with the gas its chunks used. */
  readonly onBlock?: (height: number, gasUsed: bigint) => void;
  /** The last height to follow, asked at each turn (config.json's `expected_shutdown`); null: none. */
  readonly stopAt?: () => number | null;
  /** Called, with the height after which nothing is followed, once every height up to `stopAt` is done. */
  readonly onStopReached?: (height: number) => void;
}

export class FollowLoop {
  private stopped = false;
  /** Every pending wait (sleeps, fetches under way): stop() ends them all. */
  private readonly wakers = new Set<() => void>();
  private writtenCount = 0;
  private catchingUp = true;
  private sourceHead: number | null = null;
  /** Since when the cursor has been more than `SYNC_HEIGHT_THRESHOLD` below the source's head. */
  private behindSince: number | null = null;
  /**
   * After a refused block or a failed write, one height at a time until a write lands: a source that
   * keeps sending a bad block is asked for it alone every pause, not for the whole window (on a
   * requester-pays bucket, every request is paid).
   */
  private retrying = false;
  private running: Promise<void> | null = null;
  private failure: Error | null = null;
  private readonly failedAt: Promise<Error>;
  private fail!: (err: Error) => void;
  private lastWriteAt = Date.now();
  /** When the source began to fail every call, as far as the last one tells; null while it answers. */
  private failingSince: number | null = null;
  /**
   * Calls to the source under way, since when some has been, and when one last answered: a source
   * retries a failing request by itself before the call fails (~25 s for the stream sources), and
   * a call that has not answered for that long is a source failing as much as one that threw.
   */
  private calls = 0;
  private callingSince = Date.now();
  private lastAnswerAt = Date.now();
  private readonly concurrency: number;
  private readonly batchSize: number;
  private readonly batchBytes: number;
  /** Where the history begins while nothing is written: `startHeight`, or the source's first block. */
  private startAt: number;
  /** Which window the fetches belong to: a dropped window's fetches give up at their next failure. */
  private windowNumber = 0;

  constructor(private readonly o: FollowLoopOptions) {
    this.startAt = o.startHeight;
    this.batchSize = Math.max(1, o.batchSize ?? 1);
    this.batchBytes = o.batchBytes ?? 1024 * 1024;
    // A batch is taken from fetched blocks, so the window holds at least one batch. By default it
    // holds four: a window of one batch starts the next batch's fetches only once this one's last
    // block is in, and the preparing threads wait at the end of every batch (catching up on the
    // full bench chain, two interleaved pairs: 721–865 blocks/s with a window of 32, 853–925 with 128).
    this.concurrency = Math.max(1, o.concurrency ?? Math.max(8, 4 * this.batchSize), this.batchSize);
    this.failedAt = new Promise((resolve) => {
      this.fail = resolve;
    });
  }

  /** Why the loop stopped on its own (a writer that can write no more), or null while it runs. */
  get failed(): Error | null {
    return this.failure;
  }

  /** Settles when the loop stops on its own, never when stop() stops it: a process exits on it. */
  whenFailed(): Promise<Error> {
    return this.failedAt;
  }

  /**
   * How long (ms) the source has failed every call or kept every call waiting, up to now; 0 while
   * it answers.
   */
  get sourceFailingMs(): number {
    const now = Date.now();
    if (this.failingSince !== null) return now - this.failingSince;
    return this.calls > 0 ? now - Math.max(this.callingSince, this.lastAnswerAt) : 0;
  }

  /** When a block was last written, or the loop made, for how long the history has not moved. */
  get lastWrite(): number {
    return this.lastWriteAt;
  }

  /** The source's final height, as last seen. */
  get head(): number | null {
    return this.sourceHead;
  }

  /** Blocks between the cursor and the source's final head; null before the source answered. */
  get lag(): number | null {
    if (this.sourceHead === null) return null;
    return Math.max(0, this.sourceHead - (this.nextHeight() - 1));
  }

  /** Blocks written since the loop started. */
  get blocksWritten(): number {
    return this.writtenCount;
  }

  private written(block: Fetched): void {
    this.writtenCount++;
    this.noteLag();
    this.o.onBlock?.(heightOf(block), gasOf(block));
  }

  private noteLag(): void {
    const lag = this.lag;
    if (lag !== null && lag > SYNC_HEIGHT_THRESHOLD) this.behindSince ??= Date.now();
    else this.behindSince = null;
  }

  /** Whether the node is catching up, as nearcore's client decides it (`syncingAfter`). */
  get syncing(): boolean {
    this.noteLag();
    const behindFor = this.behindSince === null ? 0 : Date.now() - this.behindSince;
    this.catchingUp = syncingAfter(this.catchingUp, this.lag, behindFor, 2 * (this.o.pollMs ?? 1000));
    return this.catchingUp;
  }

  start(): void {
    this.running ??= this.run().catch((err) => {
      // A typed failure (one with a code: the history's, the source's, the system's) says what to do
      // in its message; only an unexpected one needs its stack.
      const e = err as Error & { code?: unknown };
      const detail = typeof e?.code === 'string' ? `${e.name}: ${e.message}` : (e?.stack ?? String(err));
      this.o.log.error(`follow loop stopped: ${detail}`);
      this.failure = err instanceof Error ? err : new Error(String(err));
      this.fail(this.failure);
    });
  }

  async stop(): Promise<void> {
    this.halt();
    await this.running;
  }

  /** Ends every wait under way; the loop leaves at its next turn. */
  private halt(): void {
    this.stopped = true;
    for (const wake of this.wakers) wake();
  }

  /**
   * `p`, or undefined once the loop stops, so a fetch that hangs does not hold stop() (`p` may still
   * settle later; it is not waited for). Each wait has its own waker, dropped when `p` settles: a
   * race against one promise pending until stop() would keep every fetched block reachable from it.
   */
  private untilStopped<T>(p: Promise<T>): Promise<T | undefined> {
    if (this.stopped) return Promise.resolve(undefined);
    return new Promise<T | undefined>((resolve, reject) => {
      const wake = () => resolve(undefined);
      this.wakers.add(wake);
      p.then(resolve, reject).finally(() => this.wakers.delete(wake));
    });
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakers.add(done);
    });
  }

  /**
   * Retries `what` until it succeeds or the loop stops (then undefined), or until `giveUp` says an
   * error ends the attempts (then that error is returned).
   */
  private async retry<T>(
    label: string,
    what: () => Promise<T>,
    giveUp: (err: unknown) => boolean = () => false,
    onFailure?: () => void,
    /** The height fetched, where `what` fetches one. */
    height?: number,
  ): Promise<T | undefined> {
    let delay = this.o.retryInitialMs ?? 250;
    for (let attempt = 1; !this.stopped; attempt++) {
      if (this.calls++ === 0) this.callingSince = Date.now();
      const waitedFrom = Math.max(this.callingSince, this.lastAnswerAt);
      try {
        let answer: Awaited<T> | undefined;
        try {
          answer = await this.untilStopped(what());
        } finally {
          this.calls--;
        }
        this.lastAnswerAt = Date.now();
        this.failingSince = null;
        return answer;
      } catch (err) {
        // Stopping ends the fetches under way (the preparing threads are closed): not a failure.
        if (this.stopped) break;
        if (giveUp(err)) throw err;
        onFailure?.();
        // Failing since the call began waiting, which the source's own retries may have made long.
        this.failingSince ??= waitedFrom;
        const failed = `${label} failed (attempt ${attempt}, retrying in ${delay} ms): ${(err as Error).message}`;
        // Past a gap the history would have a hole: the loop waits at the height (the source may be
        // restored from a backup), and says why it cannot go on by itself. Said of the height it
        // waits at: the window's heights above it fail alike, and would each say it at every attempt.
        if (isBelowFirst(err)) {
          if (height === undefined || height === this.nextHeight())
            this.o.log.error(
              `${failed}; ${this.o.source.name} no longer keeps this block, and following on from a later ` +
                'one would leave a gap in the history: follow an archival source',
            );
        } else this.o.log.warn(failed);
        await this.sleep(delay);
        delay = Math.min(delay * 2, this.o.retryMaxMs ?? 10_000);
      }
    }
    return undefined;
  }

  private fetch(height: number): Fetch {
    const prepared = this.o.prepared;
    const window = this.windowNumber;
    let failed!: () => void;
    const failing = new Promise<void>((resolve) => {
      failed = resolve;
    });
    const fetched = this.retry<Fetched | null>(
      `fetching block ${height} from ${this.o.source.name}`,
      () => (prepared ? prepared.pool.fetchPrepared(height) : this.o.source.fetchBlock(height)),
      // A fetch of a dropped window is wanted no more; and while nothing is written, a height below
      // the source's first block is no gap: the history may begin later.
      (err) => window !== this.windowNumber || (isBelowFirst(err) && this.o.history.cursor() === null),
      failed,
      height,
    ).catch((): typeof GONE => GONE);
    return Object.assign(fetched, { failing });
  }

  /** The fetch's block, or HELD once it has failed an attempt or kept the batch `HOLD_BATCH_MS`. */
  private orHeld(pending: Fetch): Promise<Awaited<Fetch> | typeof HELD> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const held = new Promise<typeof HELD>((resolve) => {
      timer = setTimeout(() => resolve(HELD), HOLD_BATCH_MS);
    });
    return Promise.race([pending, pending.failing.then((): typeof HELD => HELD), held]).finally(() =>
      clearTimeout(timer),
    );
  }

  /** Forgets the fetches under way: those still failing stop retrying. */
  private dropWindow(window: Map<number, Fetch>): void {
    window.clear();
    this.windowNumber++;
  }

  /**
   * The height to start at once the source no longer keeps `height` (nothing written yet): its first
   * block now, and never below `height + 1`. Undefined: stopped.
   */
  private async startAfterGone(height: number): Promise<number | undefined> {
    const first = await this.retry(`reading the first block of ${this.o.source.name}`, () =>
      this.o.source.firstHeight(),
    );
    if (first === undefined) return undefined;
    const start = Math.max(first ?? height + 1, height + 1);
    this.o.log.info(`${this.o.source.name} no longer keeps block ${height}: starting at #${start}`);
    this.startAt = start;
    return start;
  }

  /**
   * The next height that may hold a block after the skipped `height`, no further than one past
   * `head`: from the source's listing where it has one, else the height after. Undefined: stopped.
   */
  private async nextAfterSkipped(height: number, head: number): Promise<number | undefined> {
    const source = this.o.source;
    if (!source.nextHeight) return height + 1;
    const next = await this.retry(`finding the block after ${height} in ${source.name}`, () =>
      source.nextHeight!(height),
    );
    if (next === undefined) return undefined;
    return next === null ? height + 1 : Math.min(Math.max(next, height + 1), head + 1);
  }

  private ingest(batch: Fetched[]): Promise<void> {
    const prepared = this.o.prepared;
    if (prepared) return ingestPrepared(prepared.writer, batch as PreparedOrRefused[], this.o.genesis);
    return ingestBlocks(this.o.history, batch as StreamerMessage[], this.o.genesis);
  }

  /** Starts the fetches of heights `from`..`head` that fit the window and are not under way. */
  private fill(window: Map<number, Fetch>, from: number, head: number) {
    const ahead = this.retrying ? 1 : this.concurrency;
    for (let h = from; h <= Math.min(head, from + ahead - 1); h++) {
      if (!window.has(h)) window.set(h, this.fetch(h));
    }
  }

  /** The height the loop takes next: the one after the cursor. */
  private nextHeight(): number {
    return (this.o.history.cursor()?.height ?? this.startAt - 1) + 1;
  }

  private async run(): Promise<void> {
    const { history, log } = this.o;
    if (history.cursor() === null && this.o.firstHeight) {
      const first = await this.untilStopped(this.o.firstHeight());
      if (first === undefined) return;
      if (first !== null) this.startAt = Math.max(this.startAt, first);
      log.info(`following from #${this.startAt}`);
    }
    let next = this.nextHeight();
    const window = new Map<number, Fetch>();
    let reportedAt = Date.now();
    let doneSinceReport = 0;
    while (!this.stopped) {
      const head = await this.retry(`reading the head of ${this.o.source.name}`, () =>
        this.o.source.finalHeight(),
      );
      if (head === undefined) break;
      this.sourceHead = head;
      this.noteLag();
      const stopAt = this.o.stopAt?.() ?? null;
      const until = head === null ? -1 : Math.min(head, stopAt ?? head);
      if (head === null || next > until) {
        if (stopAt !== null && next > stopAt) this.o.onStopReached?.(next - 1);
        await this.sleep(this.o.pollMs ?? 1000);
        continue;
      }
      while (next <= until && !this.stopped) {
        this.fill(window, next, until);
        // Catching up, take the fetched blocks after `next` too (the window holds them); at the
        // head this is one block.
        const last = this.retrying ? next : Math.min(until, next + this.batchSize - 1);
        const batch: Fetched[] = [];
        let taken = next;
        let stopping = false;
        let restart: number | null = null;
        let bytes = 0;
        for (; taken <= last; taken++) {
          const pending = window.get(taken)!;
          // A block still failing (a shard file not yet in the bucket) or slow does not hold back
          // the ones fetched before it: they are written, and the next batch waits for it.
          const message = await this.untilStopped(batch.length > 0 ? this.orHeld(pending) : pending);
          if (message === HELD) break;
          window.delete(taken);
          if (message === undefined) {
            stopping = true;
            break;
          }
          if (message === GONE) {
            if (history.cursor() !== null) {
              // Blocks were written since that fetch gave up: the height is a gap now, waited at.
              window.set(taken, this.fetch(taken));
              taken--;
              continue;
            }
            // What this batch holds so far is gone from the source too, or soon will be: dropped.
            const start = await this.startAfterGone(taken);
            if (start === undefined) {
              stopping = true;
              break;
            }
            this.dropWindow(window);
            restart = start;
            break;
          }
          if (message === null) {
            // A skipped height: where the source can say which height is next, step over the run.
            const jump = await this.nextAfterSkipped(taken, until);
            if (jump === undefined) {
              stopping = true;
              break;
            }
            if (jump > taken + 1) {
              for (const h of window.keys()) if (h < jump) window.delete(h);
              taken = jump - 1;
              if (jump > last) continue;
              this.fill(window, jump, until);
            }
            continue;
          }
          batch.push(message);
          bytes += rowBytes(message);
          if (bytes >= this.batchBytes) {
            taken++;
            break;
          }
        }
        if (stopping) break;
        if (restart !== null) {
          next = restart;
          break;
        }
        // The next batch is fetched while this one is verified and written (not while retrying).
        if (!this.retrying) this.fill(window, taken, until);
        if (batch.length > 0) {
          // A write that neither ends nor fails (a database that stopped answering) is said while it
          // lasts: the loop logs nothing else meanwhile.
          const began = Date.now();
          const range = `${heightOf(batch[0]!)}..${heightOf(batch.at(-1)!)}`;
          const watch = setInterval(() => {
            log.warn(
              `writing blocks ${range} has not finished after ${Math.round((Date.now() - began) / 1000)} s`,
            );
          }, this.o.slowWriteWarnMs ?? SLOW_WRITE_WARN_MS);
          watch.unref();
          try {
            await this.ingest(batch);
          } catch (err) {
            // A writer that can write no more (its PostgreSQL session and lock gone, or a LevelDB that
            // failed a write and takes no more) stops the loop.
            if ((err as { fatal?: unknown } | null)?.fatal === true) {
              // The fetches still in the window end too, rather than retry and log on.
              this.halt();
              throw err;
            }
            // A refused block is refetched; a failed write to PostgreSQL (a database gone away, a
            // full disk) is written again, as the writers make a rewrite harmless. Either way the loop goes on
            // after the cursor, rather than stop while the node keeps answering from stale history.
            log.error(
              err instanceof BlockVerificationError
                ? `${err.message}; refetching it`
                : `writing blocks ${heightOf(batch[0]!)}..${heightOf(batch.at(-1)!)} failed, retrying: ${String(err)}`,
            );
            // The blocks before the refused one are committed: go on after the cursor.
            const at = history.cursor()?.height ?? next - 1;
            for (const m of batch) if (heightOf(m) <= at) this.written(m);
            next = at + 1;
            this.dropWindow(window);
            this.retrying = true;
            await this.sleep(this.o.retryMaxMs ?? 10_000);
            continue;
          } finally {
            clearInterval(watch);
          }
          this.retrying = false;
          this.lastWriteAt = Date.now();
          // Counted as soon as the cursor shows them, not after the GC step below: a reader that sees
          // the cursor must not see fewer blocks written.
          for (const m of batch) this.written(m);
          // A step per block written, as at the head, so GC keeps pace with a batched catch-up.
          if (this.o.gc) {
            try {
              await history.collectGarbage({
                ...this.o.gc,
                heightsPerStep: (this.o.gc.heightsPerStep ?? 4) * batch.length,
              });
            } catch (err) {
              // The next batch's step takes it up again.
              log.error(`GC failed: ${String(err)}`);
            }
          }
          doneSinceReport += batch.length;
        }
        next = taken;
        const now = Date.now();
        if (now - reportedAt >= (this.o.progressEveryMs ?? 5000)) {
          const rate = (doneSinceReport * 1000) / (now - reportedAt);
          const lag = head - (next - 1);
          const eta = rate > 0 ? `${Math.round(lag / rate)} s` : 'unknown';
          // The cursor, not `next`: heights stepped over on the way to a block not yet written are no
          // progress to report.
          const at = history.cursor()?.height ?? next - 1;
          log.info(
            `followed to #${at}: ${rate.toFixed(1)} blocks/s, ${lag} behind ${this.o.source.name}, ETA ${eta}`,
          );
          reportedAt = now;
          doneSinceReport = 0;
        }
      }
    }
    this.dropWindow(window);
  }
}
