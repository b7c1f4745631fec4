// Worker threads that fetch and prepare blocks for the follow loop (see prepare_worker.ts), each
// with its own copy of the source. A request goes to the thread with the fewest under way.
import { Worker } from 'node:worker_threads';
import { receiveThreadWarnings } from '@nearlite/primitives';
import type { RetryEvent, SourceSpec } from '@nearlite/stream';
import type { PreparedOrRefused } from './prepared_block.js';

export interface PrepareRequest {
  readonly id: number;
  readonly height: number;
}

/** A failed attempt of a thread's source, as it tells it (the error as its text). */
export interface RetryReport {
  readonly source: string;
  readonly height: number | null;
  readonly attempt: number;
  readonly delayMs: number;
  readonly message: string;
}

export interface PrepareReply {
  readonly id: number;
  readonly block?: PreparedOrRefused | null;
  readonly error?: { readonly name: string; readonly message: string; readonly code?: string };
}

/**
 * A fetch or preparation that failed in a worker, with the original error's name, message and, for a
 * source's typed failure, its code (`StreamErrorCode`).
 */
export class PrepareError extends Error {
  override readonly name = 'PrepareError';
  constructor(
    readonly errorName: string,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

interface Slot {
  worker: Worker;
  /** The thread died: it is replaced when the next request comes, not at once. */
  dead: boolean;
  readonly pending: Map<
    number,
    { resolve: (b: PreparedOrRefused | null) => void; reject: (e: Error) => void }
  >;
}

export class PreparePool {
  private readonly slots: Slot[] = [];
  private nextId = 0;
  private closed = false;

  constructor(
    private readonly spec: SourceSpec,
    threads: number,
    /** The thread's script (tests give one that crashes). */
    private readonly workerUrl: URL = new URL('./prepare_worker.js', import.meta.url),
    /** Told of the threads' failed attempts, as the source's own `onRetry` is. */
    private readonly onRetry?: (e: RetryEvent) => void,
  ) {
    for (let i = 0; i < Math.max(1, threads); i++) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    receiveThreadWarnings();
    const slot: Slot = {
      worker: new Worker(this.workerUrl, { workerData: this.spec }),
      dead: false,
      pending: new Map(),
    };
    slot.worker.on('message', (reply: PrepareReply | { retry: RetryReport }) => {
      if ('retry' in reply) {
        const { message, ...e } = reply.retry;
        this.onRetry?.({ ...e, error: new Error(message) });
        return;
      }
      const p = slot.pending.get(reply.id);
      if (!p) return;
      slot.pending.delete(reply.id);
      if (reply.error) p.reject(new PrepareError(reply.error.name, reply.error.message, reply.error.code));
      else p.resolve(reply.block ?? null);
    });
    // A thread that dies fails what it held (the loop retries those, with its backoff). It is
    // replaced by the next request, so a thread that cannot start is retried at the loop's pace
    // rather than in a tight loop.
    const fail = (err: Error) => {
      slot.dead = true;
      for (const p of slot.pending.values()) p.reject(err);
      slot.pending.clear();
    };
    slot.worker.on('error', fail);
    slot.worker.on('exit', (code) =>
      fail(new PrepareError('Exit', `a block preparation thread exited (${code})`)),
    );
    return slot;
  }

  /** The block at `height`, prepared; null for a height with no block. */
  fetchPrepared(height: number): Promise<PreparedOrRefused | null> {
    if (this.closed)
      return Promise.reject(new PrepareError('Closed', 'the block preparation pool is closed'));
    for (let i = 0; i < this.slots.length; i++) if (this.slots[i]!.dead) this.slots[i] = this.spawn();
    let slot = this.slots[0]!;
    for (const s of this.slots) if (s.pending.size < slot.pending.size) slot = s;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      slot.pending.set(id, { resolve, reject });
      slot.worker.postMessage({ id, height } satisfies PrepareRequest);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
