// Transaction signatures checked in batches on worker threads (node:crypto ed25519 runs at a fixed
// cost per check), so admission on the RPC thread only reads a verdict, and a flood of bad
// signatures costs that thread nothing. Checks that arrive together leave together: one batch per
// turn of the event loop, to the worker with the least outstanding work.
import { Worker } from 'node:worker_threads';
import type { SignatureCheck, SignatureChecker } from '@nearlite/chain';
import { receiveThreadWarnings, verifySignature } from '@nearlite/primitives';
import { packable, packCheck, recordBytes, type SignatureBatch } from './signature_batch.js';

interface Pending {
  readonly check: SignatureCheck;
  readonly resolve: (valid: boolean) => void;
}

interface Slot {
  worker: Worker;
  readonly inFlight: Map<number, Pending[]>;
  outstanding: number;
  /** Crashes since this slot's last answered batch. */
  crashes: number;
}

export interface SignaturePoolOptions {
  readonly size?: number;
  /** Most checks in one batch; a larger backlog leaves in several. */
  readonly maxBatch?: number;
  /** The worker script; tests substitute one. */
  readonly workerUrl?: URL;
}

/** A worker that crashed this many times in a row without answering is not started again. */
const MAX_CRASHES = 3;

function checkHere(c: SignatureCheck): boolean {
  return verifySignature(c.message, c.signature, c.publicKey);
}

export class SignaturePool implements SignatureChecker {
  private readonly slots: Slot[] = [];
  private readonly size: number;
  private readonly maxBatch: number;
  private readonly workerUrl: URL;
  private queue: Pending[] = [];
  private flushScheduled = false;
  private nextId = 1;
  private closed = false;
  private started = false;

  constructor(o: SignaturePoolOptions = {}) {
    this.size = o.size ?? 2;
    this.maxBatch = o.maxBatch ?? 512;
    this.workerUrl = o.workerUrl ?? new URL('./signature_worker.js', import.meta.url);
  }

  /** Starts the workers (otherwise the first check does). */
  warm(): void {
    if (this.started || this.closed) return;
    this.started = true;
    for (let i = 0; i < this.size; i++) this.slots.push(this.spawn());
  }

  /** Workers currently running (fewer than the pool's size only after repeated crashes). */
  get workers(): number {
    return this.slots.length;
  }

  check(c: SignatureCheck): Promise<boolean> {
    this.warm();
    if (!packable(c) || this.slots.length === 0) return Promise.resolve(checkHere(c));
    return new Promise((resolve) => {
      this.queue.push({ check: c, resolve });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.flushScheduled = false;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      const slot = this.leastBusy();
      if (!slot) {
        for (const p of batch) p.resolve(checkHere(p.check));
        continue;
      }
      let bytes = 0;
      for (const p of batch) bytes += recordBytes(p.check);
      const items = new Uint8Array(bytes);
      let at = 0;
      for (const p of batch) at = packCheck(items, at, p.check);
      const id = this.nextId++;
      slot.inFlight.set(id, batch);
      // A worker with checks outstanding keeps the process alive until it answers; an idle one does not.
      if (slot.outstanding === 0) slot.worker.ref();
      slot.outstanding += batch.length;
      const msg: SignatureBatch = { id, count: batch.length, items: items.buffer };
      slot.worker.postMessage(msg, [items.buffer]);
    }
  }

  private leastBusy(): Slot | undefined {
    let best: Slot | undefined;
    for (const s of this.slots) if (!best || s.outstanding < best.outstanding) best = s;
    return best;
  }

  private spawn(): Slot {
    receiveThreadWarnings();
    const slot: Slot = {
      worker: new Worker(this.workerUrl),
      inFlight: new Map(),
      outstanding: 0,
      crashes: 0,
    };
    this.attach(slot);
    return slot;
  }

  private attach(slot: Slot): void {
    const worker = slot.worker;
    worker.unref();
    worker.on('message', (msg: { id: number; verdicts: ArrayBuffer }) => {
      const batch = slot.inFlight.get(msg.id);
      if (!batch) return;
      slot.inFlight.delete(msg.id);
      slot.outstanding -= batch.length;
      if (slot.outstanding === 0) worker.unref();
      slot.crashes = 0;
      const verdicts = new Uint8Array(msg.verdicts);
      for (let i = 0; i < batch.length; i++) batch[i]!.resolve(verdicts[i] === 1);
    });
    // The exit that follows says what to do; without a listener an error would end the process.
    worker.on('error', () => undefined);
    worker.on('exit', () => {
      if (slot.worker !== worker) return;
      // Nothing sent to a worker is lost with it: what it had not answered is checked here.
      const orphans = [...slot.inFlight.values()].flat();
      slot.inFlight.clear();
      slot.outstanding = 0;
      for (const p of orphans) p.resolve(checkHere(p.check));
      if (this.closed) return;
      slot.crashes++;
      if (slot.crashes > MAX_CRASHES) {
        this.slots.splice(this.slots.indexOf(slot), 1);
        return;
      }
      slot.worker = new Worker(this.workerUrl);
      this.attach(slot);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
