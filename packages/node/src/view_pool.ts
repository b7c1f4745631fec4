// Runs view calls on worker threads: the RPC loop stays responsive while a contract runs, even one
// that spins until the view gas limit. State reads are answered here from the block's trie.
import { Worker } from 'node:worker_threads';
import { HandlerError, InternalError } from '@nearlite/primitives';
import type { ViewRequest } from './view_worker.js';

/** Largest value a worker can receive in one read (contract code is at most 4 MiB). */
const DATA_BYTES = 8 * 1024 * 1024;

interface Job {
  readonly req: ViewRequest;
  readonly get: (key: Uint8Array) => Uint8Array | undefined;
  readonly resolve: (v: object) => void;
  readonly reject: (e: unknown) => void;
}

interface Slot {
  readonly worker: Worker;
  readonly ctrl: Int32Array;
  readonly data: Uint8Array;
  job: Job | null;
}

export class ViewCallPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;

  constructor(private readonly size = 2) {}

  /**
   * Starts the workers. Each loads the runtime and VM, which is start-up work the node's first
   * answer need not wait for: the node calls this once it is serving, and a call before then
   * starts them itself.
   */
  warm(): void {
    while (this.slots.length < this.size) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    const ctrlBuffer = new SharedArrayBuffer(8);
    const dataBuffer = new SharedArrayBuffer(DATA_BYTES);
    const worker = new Worker(new URL('./view_worker.js', import.meta.url), {
      workerData: { ctrlBuffer, dataBuffer },
    });
    worker.unref();
    const slot: Slot = {
      worker,
      ctrl: new Int32Array(ctrlBuffer),
      data: new Uint8Array(dataBuffer),
      job: null,
    };
    worker.on(
      'message',
      (msg: {
        type: string;
        key?: Uint8Array;
        result?: object;
        handler?: { cause: string; info: Record<string, unknown> | undefined; data: unknown };
        message?: string;
      }) => {
        const job = slot.job;
        if (msg.type === 'get') {
          let value: Uint8Array | undefined;
          try {
            value = job?.get(msg.key!);
          } catch {
            value = undefined;
          }
          if (value && value.length <= DATA_BYTES) {
            slot.data.set(value);
            slot.ctrl[1] = value.length;
          } else slot.ctrl[1] = -1;
          Atomics.store(slot.ctrl, 0, 1);
          Atomics.notify(slot.ctrl, 0);
          return;
        }
        slot.job = null;
        if (job) {
          if (msg.type === 'result') job.resolve(msg.result!);
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
      slot.worker.postMessage({ id: this.nextId++, req: job.req });
    }
  }

  call(req: ViewRequest, get: (key: Uint8Array) => Uint8Array | undefined): Promise<object> {
    this.warm();
    return new Promise((resolve, reject) => {
      this.queue.push({ req, get, resolve, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
