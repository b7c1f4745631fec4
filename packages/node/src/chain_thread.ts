// The RPC thread's handle on a chain produced on a thread of its own (chain_worker.ts). Reads go to
// this thread's own handle on the same database; admitted transactions, sandbox patches and
// fast-forwards go to the chain thread; each block the chain thread commits comes back as a message
// naming the rows it wrote, which this thread's read cache forgets before the block is announced on
// `events`. Until then this thread serves the block before it, as a node does for a block it has
// not heard of yet.
//
// The guarantees of a chain on the RPC thread stay: one batch per block, and a transaction is
// answered as executed only once the block holding its outcome is committed and announced here.
import { EventEmitter } from 'node:events';
import { Worker } from 'node:worker_threads';
import {
  type BlockHeader,
  type ChainEvents,
  type ChainHandle,
  type ChainStore,
  type Genesis,
  openChainStore,
  type PooledTransaction,
  RecentRefunds,
  type ShardLayout,
  StatePins,
  type StateWrite,
  type Tip,
  type TxPoolHandle,
  trieStorage,
} from '@nearlite/chain';
import { type CryptoHash, InternalError, receiveThreadWarnings, toHex } from '@nearlite/primitives';
import { DBCol, emptyStoreStats, forEachWrittenRow, type Store, type StoreStats } from '@nearlite/store';
import { Trie } from '@nearlite/trie';
import { STORAGE_USAGE_CONFIG } from './applier.js';
import type { ChainWorkerData, CrossedError, FromChain, ThreadHeap, ToChain } from './chain_messages.js';
import { taskCpuSeconds } from './thread_cpu.js';

export interface ChainThreadLogger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
  /** Contracts' sandbox_debug_log messages, where they are logged. */
  readonly sandboxDebug?: (message: string) => void;
}

export interface ChainThreadOptions {
  readonly store: Store;
  readonly genesis: Genesis;
  readonly data: ChainWorkerData;
  readonly log: ChainThreadLogger;
  /** The thread, started by `bootChainThread` while the node opened and checked its store. */
  readonly booted?: Worker;
  /** The thread's script (tests give another). */
  readonly workerUrl?: URL;
}

const CHAIN_WORKER_URL = new URL('./chain_worker.js', import.meta.url);

/**
 * Starts a chain thread to boot (load its code, read the genesis, make its runtime) while the node
 * opens and checks its store; it touches the store only once `ChainThread.open` lets it. A start
 * that fails before then terminates it.
 */
export function bootChainThread(data: ChainWorkerData, workerUrl: URL = CHAIN_WORKER_URL): Worker {
  receiveThreadWarnings();
  return new Worker(workerUrl, { workerData: data });
}

/** An error the chain thread answered a request with. */
class ChainThreadError extends Error {
  constructor(e: CrossedError) {
    super(e.message);
    this.name = e.name;
  }
}

/** Admission's pool: what the chain thread has been sent and has not settled in a block yet. */
class PoolMirror implements TxPoolHandle {
  private readonly pending = new Map<string, PooledTransaction>();
  private outbox: PooledTransaction[] = [];
  private flushing = false;

  constructor(private readonly send: (txs: readonly PooledTransaction[]) => void) {}

  has(hash: CryptoHash): boolean {
    return this.pending.has(toHex(hash));
  }

  add(tx: PooledTransaction): boolean {
    const k = toHex(tx.hash);
    if (this.pending.has(k)) return false;
    this.pending.set(k, tx);
    this.outbox.push(tx);
    // The admissions of one turn of the event loop cross in one message.
    if (!this.flushing) {
      this.flushing = true;
      setImmediate(() => {
        this.flushing = false;
        const txs = this.outbox;
        this.outbox = [];
        if (txs.length > 0) this.send(txs);
      });
    }
    return true;
  }

  /** A block took these (hex hashes), or chunks made ahead of it refused them. */
  settle(hashes: readonly string[]): void {
    for (const k of hashes) {
      this.pending.delete(k);
    }
  }

  /** Everything still pending, for a chain thread that starts over. */
  all(): PooledTransaction[] {
    return [...this.pending.values()];
  }
}

/** Restarts of a chain thread that died before it produced a block, before the node gives up. */
const MAX_FAILED_STARTS = 3;

export interface ChainThreadHooks {
  /** Each block's production time (seconds), and blocks GC collected. */
  readonly onProduced?: (seconds: number) => void;
  readonly onCollected?: (blocks: number) => void;
}

export class ChainThread implements ChainHandle {
  readonly events = new EventEmitter<ChainEvents>();
  readonly statePins = new StatePins();
  readonly pool: PoolMirror;
  readonly canProduce = true;
  private worker: Worker | null = null;
  private hooks: ChainThreadHooks = {};
  private running = false;
  /** What was asked of the chain while no thread ran (one died, the next not started yet). */
  private early: ToChain[] = [];
  private tip: Tip;
  private nextId = 1;
  private readonly requests = new Map<
    number,
    { resolve: (v: unknown) => void; reject: (e: Error) => void }
  >();
  private chainStats: StoreStats = emptyStoreStats();
  /** The chain thread's heap as its last block reported it. */
  heap: ThreadHeap = { used: 0, total: 0 };
  /** The running chain thread's id in /proc/self/task; null where unknown. */
  private tid: number | null = null;
  /** Event loop seconds of the chain threads that exited, and of the running one when last read. */
  private loopActiveBefore = 0;
  private loopActiveNow = 0;
  private stopping = false;
  private failedStarts = 0;
  private producedSinceStart = false;
  private respawn: NodeJS.Timeout | null = null;
  private tipHeader: { readonly tip: Tip; readonly header: BlockHeader } | undefined;
  private readonly recentRefunds = new RecentRefunds();
  private stopAt: number | null = null;

  private constructor(
    private readonly o: ChainThreadOptions,
    readonly chainStore: ChainStore,
    readonly layout: ShardLayout,
    head: Tip,
    readonly genesisHash: CryptoHash,
  ) {
    this.tip = head;
    this.events.setMaxListeners(0);
    this.pool = new PoolMirror((txs) => this.post({ t: 'txs', txs }));
    this.attach(o.booted ?? bootChainThread(o.data, o.workerUrl));
  }

  /**
   * Writes the genesis block on a new store (here, before any reader can look) and starts the chain
   * thread, which boots while the node sets up the rest; it produces blocks once `run` says so.
   */
  static async open(o: ChainThreadOptions): Promise<ChainThread> {
    const s = await openChainStore(o.store, o.genesis, STORAGE_USAGE_CONFIG);
    return new ChainThread(o, s.chainStore, s.layout, s.head, s.genesisHash);
  }

  /** Blocks from now on: everything that listens to them is in place. */
  run(hooks: ChainThreadHooks = {}): void {
    this.hooks = hooks;
    this.running = true;
    this.post({ t: 'run', stopAt: this.stopAt });
  }

  /**
   * No block above `height` (null: no end): the node stops there (`expected_shutdown`), and a block
   * made while it stops would be one past the height it was asked to stop at.
   */
  produceUpTo(height: number | null): void {
    this.stopAt = height;
    if (this.running) this.post({ t: 'run', stopAt: height });
  }

  /**
   * Seconds the chain threads' event loops have spent running callbacks, the threads that exited
   * included as far as they had been read: an exited thread's loop can no longer be asked.
   */
  get eventLoopActiveSeconds(): number {
    if (this.worker) this.loopActiveNow = this.worker.performance.eventLoopUtilization().active / 1000;
    return this.loopActiveBefore + this.loopActiveNow;
  }

  /** The chain thread's CPU time so far (seconds), read when asked; null where the system does not say. */
  get cpuSeconds(): number | null {
    return this.tid === null ? null : taskCpuSeconds(this.tid);
  }

  get store(): Store {
    return this.o.store;
  }

  get genesis(): Genesis {
    return this.o.genesis;
  }

  /** Reads, cache hits, batches and writes of both threads' handles on the store. */
  storeStats(): StoreStats {
    const a = this.o.store.stats;
    const b = this.chainStats;
    return {
      reads: a.reads + b.reads,
      cacheHits: a.cacheHits + b.cacheHits,
      batches: a.batches + b.batches,
      writes: a.writes + b.writes,
      refcountsFiltered: a.refcountsFiltered + b.refcountsFiltered,
      refcountFilterBuilds: a.refcountFilterBuilds + b.refcountFilterBuilds,
    };
  }

  head(): Tip {
    return this.tip;
  }

  headHeader(): BlockHeader {
    // Every `final` and `optimistic` read starts here: between two blocks they share one lookup.
    const tip = this.tip;
    if (this.tipHeader?.tip === tip) return this.tipHeader.header;
    const header = this.chainStore.blockHeader(tip.hash);
    if (header) this.tipHeader = { tip, header };
    return header!;
  }

  sentRefund(receiptIdHex: string): boolean {
    return this.recentRefunds.has(receiptIdHex);
  }

  stateTrie(blockHash: CryptoHash, shardId: number): Trie | undefined {
    const extra = this.chainStore.chunkExtra(blockHash, shardId);
    return extra ? new Trie(trieStorage(this.o.store), extra.stateRoot) : undefined;
  }

  async produceBlock(): Promise<BlockHeader> {
    const { hash } = (await this.request((id) => ({ t: 'produce', id }))) as { hash: CryptoHash };
    return this.chainStore.blockHeader(hash)!;
  }

  async patchState(writes: readonly StateWrite[]): Promise<void> {
    await this.request((id) => ({ t: 'patch', id, writes }));
  }

  async fastForward(deltaHeight: number, stepNs: bigint): Promise<void> {
    await this.request((id) => ({ t: 'fastForward', id, deltaHeight, stepNs }));
  }

  /** Finishes the block being written and closes the chain thread's handle on the store. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.respawn) clearTimeout(this.respawn);
    const worker = this.worker;
    if (!worker) {
      const err = new InternalError('the node is stopping');
      for (const r of this.requests.values()) r.reject(err);
      this.requests.clear();
      return;
    }
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    try {
      await this.request((id) => ({ t: 'stop', id }), true);
    } catch (err) {
      this.o.log.error(`the chain thread did not stop cleanly: ${(err as Error).message}`);
    }
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000).unref())]);
    await worker.terminate();
  }

  private post(m: ToChain): void {
    if (this.worker) this.worker.postMessage(m);
    else this.early.push(m);
  }

  private request(make: (id: number) => ToChain, whileStopping = false): Promise<unknown> {
    if (this.stopping && !whileStopping) return Promise.reject(new InternalError('the node is stopping'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.requests.set(id, { resolve, reject });
      this.post(make(id));
    });
  }

  private attach(worker: Worker): void {
    this.loopActiveBefore += this.loopActiveNow;
    this.loopActiveNow = 0;
    this.worker = worker;
    worker.postMessage({ t: 'open' } satisfies ToChain);
    this.producedSinceStart = false;
    worker.on('message', (m: FromChain) => this.onMessage(m));
    // The exit that follows says what to do; without a listener an error would end the process.
    worker.on('error', (err) => this.o.log.error(`the chain thread failed: ${err.stack ?? err.message}`));
    worker.on('exit', (code) => this.onExit(worker, code));
    const early = this.early;
    this.early = [];
    // A new thread gets the pool whole: whatever a thread that died held is sent again.
    const pending = this.pool.all();
    if (pending.length > 0) this.post({ t: 'txs', txs: pending });
    if (this.running) this.post({ t: 'run', stopAt: this.stopAt });
    for (const m of early) if (m.t !== 'txs' && m.t !== 'run') this.post(m);
  }

  private onExit(worker: Worker, code: number): void {
    if (worker !== this.worker) return;
    // Until a new thread starts, what is asked of the chain waits for it.
    this.worker = null;
    // Its id may go to another thread of the process.
    this.tid = null;
    const orphans = [...this.requests.values()];
    this.requests.clear();
    // A stop's is no failure: what it leaves unanswered is answered as nearcore's RPC answers a
    // request its node cannot serve.
    const err = this.stopping
      ? new InternalError('the node is stopping')
      : new Error(`the chain thread exited (${code})`);
    for (const r of orphans) r.reject(err);
    // A GC batch it had announced is not coming: its heights stay refused until GC moves again.
    this.statePins.endCollect();
    if (this.stopping) return;
    this.failedStarts = this.producedSinceStart ? 0 : this.failedStarts + 1;
    if (this.failedStarts > MAX_FAILED_STARTS) {
      this.o.log.error(
        `the chain thread exited ${this.failedStarts} times without producing a block: no more blocks`,
      );
      return;
    }
    this.o.log.error(`the chain thread exited (${code}); starting it again`);
    this.respawn = setTimeout(() => {
      this.respawn = null;
      if (!this.stopping) this.attach(bootChainThread(this.o.data, this.o.workerUrl));
    }, 500);
  }

  /**
   * Forgets what this thread's caches hold of the blocks GC collected: their rows, and the headers
   * decoded from them (a block's own batch only adds headers, so only GC takes any away).
   */
  private forgetCollected(written: Uint8Array): void {
    this.o.store.takeWrittenRows(written);
    forEachWrittenRow(written, (col, key) => {
      if (col === DBCol.BlockHeader.id) this.chainStore.forget(key);
    });
  }

  private onMessage(m: FromChain): void {
    switch (m.t) {
      case 'ready':
        this.tid = m.tid;
        return;
      case 'block': {
        this.producedSinceStart = true;
        this.o.store.takeWrittenRows(m.written);
        this.chainStats = m.stats;
        this.heap = m.heap;
        this.tip = { height: m.height, hash: m.hash };
        this.recentRefunds.add(m.sentRefundIds);
        this.pool.settle(m.settled);
        const header = this.chainStore.blockHeader(m.hash);
        if (!header) {
          this.o.log.error(`block #${m.height} was announced but this thread cannot read its header`);
          return;
        }
        this.hooks.onProduced?.(m.seconds);
        this.events.emit('block', {
          header,
          outcomeIds: m.outcomeIds,
          rejected: m.rejected,
          gasUsed: m.gasUsed,
        });
        return;
      }
      case 'chunks':
        this.o.store.takeWrittenRows(m.written);
        this.pool.settle(m.settled);
        this.events.emit('chunks', { txIds: m.txIds, rejected: m.rejected });
        return;
      case 'collected':
        this.forgetCollected(m.written);
        this.statePins.endCollect();
        if (m.blocks > 0) this.hooks.onCollected?.(m.blocks);
        return;
      case 'ask': {
        let value: unknown;
        if (m.what === 'lowestPin') value = this.statePins.lowest();
        else {
          // From here until the batch is written and forgotten, heights below the new tail are
          // refused: pins (view calls) and every other read alike.
          value = this.statePins.beginCollect(m.newTail);
          if (value) this.chainStore.raiseTail(m.newTail);
        }
        this.post({ t: 'answer', id: m.id, value });
        return;
      }
      case 'reply': {
        const r = this.requests.get(m.id);
        if (!r) return;
        this.requests.delete(m.id);
        // An InternalError keeps its type across the thread, so a method answers it as its own.
        if (m.error)
          r.reject(
            m.error.name === 'InternalError'
              ? new InternalError(m.error.message)
              : new ChainThreadError(m.error),
          );
        else r.resolve(m.value);
        return;
      }
      case 'log':
        this.o.log[m.level](m.level === 'error' ? m.msg : `chain: ${m.msg}`);
        return;
      case 'sandboxLog':
        this.o.log.sandboxDebug?.(m.msg);
        return;
    }
  }
}
