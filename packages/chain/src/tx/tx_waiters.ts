// The clients waiting on transactions (send_tx, tx), indexed by the outcome ids that would move each
// one on. A block wakes only the waiters its outcomes touch, and a waiter leaves in constant time:
// as one listener each on the chain's block event, every block called every waiter and each leaving
// one searched the whole listener list, so a block's cost grew with the clients waiting, not with
// what it carried.
import type { EventEmitter } from 'node:events';
import type { ChainEvents, NewBlockEvent, NewChunksEvent } from '../chain_handle.js';

export interface TxWaiter {
  /** The transaction's hash (hex): a block that leaves it out as invalid rejects the waiter. */
  readonly txHex: string;
  /**
   * Woken by every block (finality-based levels, or a transaction a chunk dropped), not only by
   * blocks touching its ids; read when the waiter is added.
   */
  everyBlock: boolean;
  /** Woken when chunks made ahead of their block take the transaction (it waits for INCLUDED). */
  readonly atInclusion: boolean;
  /**
   * A block produced an outcome for one of its ids (or any block, for `everyBlock`), or chunks took
   * its transaction (for `atInclusion`).
   */
  woken(): void;
  /** The transaction was left out of chunks as invalid. */
  rejected(err: unknown): void;
}

// An id almost always has one waiter: it is kept as is, and a set is made only for a second. Each
// waiter's entries live as long as it waits, past the young generation, so what they allocate is
// paid for again by the collector.
type Waiters = TxWaiter | Set<TxWaiter>;

interface Watch {
  readonly waiter: TxWaiter;
  /** Its ids in `byOutcome`, as the caller gave them (never changed afterwards). */
  ids: ReadonlySet<string>;
  /** When it came: a block wakes its waiters in that order, first come first answered. */
  readonly arrival: number;
}

/**
 * Waiters a block wakes in one turn of the event loop. The rest wait for the next turn, after the
 * sockets have been read: the clients answered first are already sending their next transactions,
 * and those are admitted while the others are still being answered. Woken all in one turn, a block's
 * crowd of clients came back together, after the last answer, and all waited for the same chunks;
 * the chain then made three blocks for them while the RPC thread had nothing to do, and idled while
 * the RPC thread answered. In slices, the first comers reach the next chunks and the rest the ones
 * after, so each block carries part of the crowd at every stage: on the bench's full chain, 1,200
 * senders made 5–12 % more transfers a second (docs/PERFORMANCE.md).
 */
const WAKE_SLICE = 100;

export class TxWaiters {
  private readonly byOutcome = new Map<string, Waiters>();
  private readonly byTx = new Map<string, Waiters>();
  private readonly everyBlock = new Set<TxWaiter>();
  private readonly watched = new Map<TxWaiter, Watch>();
  private arrivals = 0;

  constructor(private readonly events: EventEmitter<ChainEvents>) {}

  get size(): number {
    return this.watched.size;
  }

  /** Starts waking `w` for blocks with an outcome for any of `ids`; `ids` must not change after. */
  add(w: TxWaiter, ids: ReadonlySet<string>): void {
    if (this.watched.size === 0) {
      this.events.on('block', this.onBlock);
      this.events.on('chunks', this.onChunks);
    }
    addTo(this.byTx, w.txHex, w);
    if (w.everyBlock) this.everyBlock.add(w);
    for (const id of ids) addTo(this.byOutcome, id, w);
    this.watched.set(w, { waiter: w, ids, arrival: this.arrivals++ });
  }

  /** Replaces the ids `w` is woken for (a waiter no longer here is left out). */
  watch(w: TxWaiter, ids: ReadonlySet<string>): void {
    const entry = this.watched.get(w);
    if (entry === undefined || entry.ids === ids) return;
    for (const id of entry.ids) removeFrom(this.byOutcome, id, w);
    for (const id of ids) addTo(this.byOutcome, id, w);
    entry.ids = ids;
  }

  remove(w: TxWaiter): void {
    const entry = this.watched.get(w);
    if (entry === undefined) return;
    for (const id of entry.ids) removeFrom(this.byOutcome, id, w);
    removeFrom(this.byTx, w.txHex, w);
    this.everyBlock.delete(w);
    this.watched.delete(w);
    if (this.watched.size === 0) {
      this.events.off('block', this.onBlock);
      this.events.off('chunks', this.onChunks);
    }
  }

  private reject(rejected: ReadonlyMap<string, unknown>): void {
    for (const [hex, err] of rejected) {
      const ws = this.byTx.get(hex);
      if (ws === undefined) continue;
      for (const w of ws instanceof Set ? [...ws] : [ws]) {
        this.remove(w);
        w.rejected(err);
      }
    }
  }

  private readonly onChunks = (ev: NewChunksEvent): void => {
    this.reject(ev.rejected);
    const woken = new Set<Watch>();
    forEachWaiter(this.byTx, ev.txIds, (w) => {
      const entry = this.watched.get(w);
      if (entry !== undefined && w.atInclusion) woken.add(entry);
    });
    this.wakeInOrder(woken);
  };

  private readonly onBlock = (ev: NewBlockEvent): void => {
    this.reject(ev.rejected);
    const woken = new Set<Watch>();
    const wake = (w: TxWaiter) => {
      const entry = this.watched.get(w);
      if (entry !== undefined) woken.add(entry);
    };
    for (const w of this.everyBlock) wake(w);
    forEachWaiter(this.byOutcome, ev.outcomeIds, wake);
    this.wakeInOrder(woken);
  };

  private wakeInOrder(woken: ReadonlySet<Watch>): void {
    const order = [...woken].sort((a, b) => a.arrival - b.arrival);
    this.wakeFrom(order, 0);
  }

  private wakeFrom(order: readonly Watch[], from: number): void {
    const end = Math.min(order.length, from + WAKE_SLICE);
    // A waiter's wake-up removes only itself, but one that left meanwhile is not told.
    for (let i = from; i < end; i++) {
      const e = order[i]!;
      if (this.watched.has(e.waiter)) e.waiter.woken();
    }
    if (end < order.length) setImmediate(() => this.wakeFrom(order, end));
  }
}

/** Each waiter `index` files under one of `ids`: by the ids, or by the index when it is the smaller. */
function forEachWaiter(
  index: ReadonlyMap<string, Waiters>,
  ids: ReadonlySet<string>,
  fn: (w: TxWaiter) => void,
): void {
  const each = (ws: Waiters) => {
    if (ws instanceof Set) for (const w of ws) fn(w);
    else fn(ws);
  };
  if (ids.size <= index.size) {
    for (const id of ids) {
      const ws = index.get(id);
      if (ws !== undefined) each(ws);
    }
  } else {
    for (const [id, ws] of index) if (ids.has(id)) each(ws);
  }
}

function addTo(m: Map<string, Waiters>, key: string, w: TxWaiter): void {
  const ws = m.get(key);
  if (ws === undefined) m.set(key, w);
  else if (ws instanceof Set) ws.add(w);
  else if (ws !== w) m.set(key, new Set([ws, w]));
}

function removeFrom(m: Map<string, Waiters>, key: string, w: TxWaiter): void {
  const ws = m.get(key);
  if (ws === w) m.delete(key);
  else if (ws instanceof Set) {
    ws.delete(w);
    if (ws.size === 0) m.delete(key);
  }
}
