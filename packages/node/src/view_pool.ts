// Runs view calls on worker threads: the RPC loop stays responsive while a contract runs, even one
// that spins until the view gas limit. A call at a state root of an on-disk store (`callAt`) reads
// the trie in the worker, through the worker's own handle on the database; the caller keeps that
// state from GC meanwhile (chain's StatePins). Any other call (`call`) has its state reads answered
// here, one round trip per read.
import { AsyncResource } from 'node:async_hooks';
import { Worker } from 'node:worker_threads';
import type { CryptoHash } from '@nearlite/primitives';
import { HandlerError, InternalError, receiveThreadWarnings } from '@nearlite/primitives';
import { ValidatorsUnknown } from './view_errors.js';
import type { ViewRequest } from './view_worker.js';

/**
 * A state a worker reads itself, in the LevelDB a Store of this process has open at `path`: the trie
 * at `root`, or a follower's history as of `height` through its flat rows (a key the flat row
 * cannot answer for is read through the main thread).
 */
export type WorkerState =
  | { readonly path: string; readonly root: CryptoHash }
  | {
      readonly path: string;
      readonly height: number;
      /** Rows the history does not hold, known otherwise (a global contract's code): read first. */
      readonly given?: readonly (readonly [Uint8Array, Uint8Array | null])[];
      /**
       * The history's state is held from this height (@nearlite/follower's state_from.ts): a flat row
       * below it cannot answer, and its key goes to the main thread, which says so.
       */
      readonly stateFrom?: number;
    };

/**
 * The shared buffer a value crosses in; a larger value crosses in pieces of this size. ctrl[1] says
 * what a read found: its total length, ABSENT, or FAILED (the read itself failed: the view must
 * fail, never see the key as absent).
 */
const DATA_BYTES = 8 * 1024 * 1024;
const ABSENT = -1;
const FAILED = -2;

interface Job {
  readonly req: ViewRequest;
  /** Answers the worker's reads it cannot do from `at` itself (a promise: the worker waits meanwhile). */
  readonly get: ((key: Uint8Array) => Uint8Array | undefined | Promise<Uint8Array | undefined>) | null;
  readonly at: WorkerState | null;
  readonly onGas: ((burnt: bigint) => void) | undefined;
  readonly resolve: (v: object) => void;
  readonly reject: (e: unknown) => void;
}

interface Slot {
  readonly worker: Worker;
  readonly ctrl: Int32Array;
  readonly data: Uint8Array;
  job: Job | null;
  /** The value being handed over in pieces, if larger than the buffer. */
  pending: Uint8Array | null;
  /** A read that failed during the current job: the job fails with it, whatever the VM made of it. */
  readError?: unknown;
}

/**
 * `fn`, run in the async context of the call that made the job: the worker's answer arrives outside
 * it, and what `fn` charges must land on the request that made the call. (AsyncResource.bind does
 * the same at many times the cost on Node 20, defining deprecated accessors on every function.)
 */
function inCallerContext(fn: ((burnt: bigint) => void) | undefined) {
  if (!fn) return undefined;
  const resource = new AsyncResource('nearlite.ViewCall');
  return (burnt: bigint) => resource.runInAsyncScope(fn, null, burnt);
}

export class ViewCallPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;

  /**
   * `sandbox`: the workers offer contracts the sandbox's host functions, their debug messages going
   * to `log` (null: nowhere).
   */
  constructor(
    private readonly size = 2,
    private readonly sandbox: { readonly log: ((message: string) => void) | null } | null = null,
    /** config.json's max_gas_burnt_view: the gas a view call may burn, where set (nearcore's TrieViewer). */
    private readonly maxGasBurntView: bigint | null = null,
  ) {}

  /**
   * Starts the workers. Each loads the runtime and VM, which is start-up work the node's first
   * answer need not wait for: the node calls this once it has answered a request (`WarmUp`), and a
   * call before then starts them itself.
   */
  warm(): void {
    while (this.slots.length < this.size) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    receiveThreadWarnings();
    const ctrlBuffer = new SharedArrayBuffer(8);
    const dataBuffer = new SharedArrayBuffer(DATA_BYTES);
    const worker = new Worker(new URL('./view_worker.js', import.meta.url), {
      workerData: {
        ctrlBuffer,
        dataBuffer,
        sandbox: this.sandbox ? { log: this.sandbox.log !== null } : null,
      },
    });
    worker.unref();
    const slot: Slot = {
      worker,
      ctrl: new Int32Array(ctrlBuffer),
      data: new Uint8Array(dataBuffer),
      job: null,
      pending: null,
    };
    const hand = (piece: Uint8Array, ctrl1: number) => {
      slot.data.set(piece);
      slot.ctrl[1] = ctrl1;
      Atomics.store(slot.ctrl, 0, 1);
      Atomics.notify(slot.ctrl, 0);
    };
    worker.on(
      'message',
      (msg: {
        type: string;
        key?: Uint8Array;
        offset?: number;
        gas?: bigint;
        result?: object;
        handler?: { cause: string; info: Record<string, unknown> | undefined; data: unknown };
        message?: string;
        validatorsUnknown?: boolean;
      }) => {
        if (msg.type === 'sandboxLog') return this.sandbox?.log?.(msg.message!);
        const job = slot.job;
        if (msg.type === 'get') {
          const failed = (err: unknown) => {
            slot.readError = err;
            hand(new Uint8Array(0), FAILED);
          };
          const answer = (value: Uint8Array | undefined) => {
            if (value === undefined) return hand(new Uint8Array(0), ABSENT);
            slot.pending = value.length > DATA_BYTES ? value : null;
            hand(value.subarray(0, DATA_BYTES), value.length);
          };
          let value: Uint8Array | undefined | Promise<Uint8Array | undefined>;
          try {
            if (!job?.get) throw new Error('this view call has no main-thread state');
            value = job.get(msg.key!);
          } catch (err) {
            return failed(err);
          }
          if (value instanceof Promise) return void value.then(answer, failed);
          return answer(value);
        }
        if (msg.type === 'more') {
          const value = slot.pending!;
          const end = Math.min(value.length, msg.offset! + DATA_BYTES);
          if (end === value.length) slot.pending = null;
          return hand(value.subarray(msg.offset!, end), value.length);
        }
        slot.job = null;
        slot.pending = null;
        const readError = slot.readError;
        slot.readError = undefined;
        if (job) {
          if (msg.gas !== undefined) job.onGas?.(msg.gas);
          // A read refused with a client's error (state this node does not hold) fails the call with it.
          if (readError instanceof HandlerError) job.reject(readError);
          else if (readError !== undefined)
            job.reject(
              new InternalError(`a state read failed during the view call: ${(readError as Error).message}`),
            );
          else if (msg.type === 'result') job.resolve(msg.result!);
          else if (msg.validatorsUnknown) job.reject(new ValidatorsUnknown());
          else if (msg.handler)
            job.reject(new HandlerError(msg.handler.cause, msg.handler.info, msg.handler.data));
          else job.reject(new InternalError(msg.message ?? 'view call failed'));
        }
        this.pump();
      },
    );
    worker.on('error', (err) => {
      slot.job?.reject(new InternalError(`view worker failed: ${err.message}`));
      slot.job = null;
      const i = this.slots.indexOf(slot);
      if (i >= 0) this.slots[i] = this.spawn();
      this.pump();
    });
    return slot;
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (slot.job || this.queue.length === 0) continue;
      const job = this.queue.shift()!;
      slot.job = job;
      const req = this.maxGasBurntView === null ? job.req : { ...job.req, maxGasBurnt: this.maxGasBurntView };
      slot.worker.postMessage({ id: this.nextId++, req, at: job.at });
    }
  }

  call(
    req: ViewRequest,
    get: (key: Uint8Array) => Uint8Array | undefined,
    onGas?: (burnt: bigint) => void,
  ): Promise<object> {
    this.warm();
    return new Promise((resolve, reject) => {
      this.enqueue({ req, get, at: null, onGas: inCallerContext(onGas), resolve, reject });
    });
  }

  /**
   * Like `call`, for state that is read asynchronously (a follower's history): each read the
   * contract makes is one `read` here, while the worker waits; nothing is read ahead.
   */
  callLazy(
    req: ViewRequest,
    read: (key: Uint8Array) => Promise<Uint8Array | undefined>,
    onGas?: (burnt: bigint) => void,
  ): Promise<object> {
    this.warm();
    return new Promise((resolve, reject) => {
      this.enqueue({ req, get: read, at: null, onGas: inCallerContext(onGas), resolve, reject });
    });
  }

  /**
   * Like `callLazy`, over a follower's LevelDB history at `at.path`: the worker reads each key's flat
   * row itself, and only a key changed after `at.height` costs a `read` here.
   */
  callHistory(
    req: ViewRequest,
    at: { readonly path: string; readonly height: number },
    read: (key: Uint8Array) => Promise<Uint8Array | undefined>,
    onGas?: (burnt: bigint) => void,
  ): Promise<object> {
    this.warm();
    return new Promise((resolve, reject) => {
      this.enqueue({ req, get: read, at, onGas: inCallerContext(onGas), resolve, reject });
    });
  }

  /**
   * Runs a view call whose state reads the worker does itself, at `at.root` in the database at
   * `at.path`. The caller must keep that state from GC until the promise settles.
   */
  callAt(req: ViewRequest, at: WorkerState, onGas?: (burnt: bigint) => void): Promise<object> {
    this.warm();
    return new Promise((resolve, reject) => {
      this.enqueue({ req, get: null, at, onGas: inCallerContext(onGas), resolve, reject });
    });
  }

  private enqueue(job: Job): void {
    this.queue.push(job);
    this.pump();
  }

  async close(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
