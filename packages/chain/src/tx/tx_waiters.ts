// The clients waiting on transactions (send_tx, tx), indexed by the outcome ids that would move each
// one on. A block wakes only the waiters its outcomes touch, and a waiter leaves in constant time:
// as one listener each on the chain's block event, every block called every waiter and each leaving
// one searched the whole listener list, so a block's cost grew with the clients waiting, not with
// what it carried.
import type { EventEmitter } from 'node:events';
import type { NewBlockEvent } from '../chain_handle.js';

export interface TxWaiter {
  /** The transaction's hash (hex): a block that leaves it out as invalid rejects the waiter. */
  readonly txHex: string;
  /** Woken by every block (finality-based levels), not only by blocks touching its ids. */
  readonly everyBlock: boolean;
  /** A block produced an outcome for one of its ids (or any block, for `everyBlock`). */
  woken(ev: NewBlockEvent): void;
  /** The transaction was left out of a block's chunks as invalid. */
  rejected(err: unknown): void;
}

export class TxWaiters {
  private readonly byOutcome = new Map<string, Set<TxWaiter>>();
  private readonly byTx = new Map<string, Set<TxWaiter>>();
  private readonly everyBlock = new Set<TxWaiter>();
  /** Each waiter's ids in `byOutcome`. */
  private readonly watched = new Map<TxWaiter, readonly string[]>();

  constructor(private readonly events: EventEmitter<{ block: [NewBlockEvent] }>) {}

  get size(): number {
    return this.watched.size;
  }

  /** Starts waking `w` for blocks with an outcome for any of `ids`. */
  add(w: TxWaiter, ids: Iterable<string>): void {
    if (this.watched.size === 0) this.events.on('block', this.onBlock);
    this.watched.set(w, []);
    addTo(this.byTx, w.txHex, w);
    if (w.everyBlock) this.everyBlock.add(w);
    this.watch(w, ids);
  }

  /** Replaces the ids `w` is woken for (a waiter no longer here is left out). */
  watch(w: TxWaiter, ids: Iterable<string>): void {
    const old = this.watched.get(w);
    if (old === undefined) return;
    for (const id of old) removeFrom(this.byOutcome, id, w);
    const now = [...ids];
    for (const id of now) addTo(this.byOutcome, id, w);
    this.watched.set(w, now);
  }

  remove(w: TxWaiter): void {
    const old = this.watched.get(w);
    if (old === undefined) return;
    for (const id of old) removeFrom(this.byOutcome, id, w);
    removeFrom(this.byTx, w.txHex, w);
    this.everyBlock.delete(w);
    this.watched.delete(w);
    if (this.watched.size === 0) this.events.off('block', this.onBlock);
  }

  private readonly onBlock = (ev: NewBlockEvent): void => {
    for (const [hex, err] of ev.rejected) {
      const ws = this.byTx.get(hex);
      if (ws === undefined) continue;
      for (const w of [...ws]) {
        this.remove(w);
        w.rejected(err);
      }
    }
    const woken = new Set(this.everyBlock);
    if (ev.outcomeIds.size <= this.byOutcome.size) {
      for (const id of ev.outcomeIds) {
        const ws = this.byOutcome.get(id);
        if (ws !== undefined) for (const w of ws) woken.add(w);
      }
    } else {
      for (const [id, ws] of this.byOutcome) if (ev.outcomeIds.has(id)) for (const w of ws) woken.add(w);
    }
    for (const w of woken) if (this.watched.has(w)) w.woken(ev);
  };
}

function addTo(m: Map<string, Set<TxWaiter>>, key: string, w: TxWaiter): void {
  const s = m.get(key);
  if (s === undefined) m.set(key, new Set([w]));
  else s.add(w);
}

function removeFrom(m: Map<string, Set<TxWaiter>>, key: string, w: TxWaiter): void {
  const s = m.get(key);
  if (s === undefined) return;
  s.delete(w);
  if (s.size === 0) m.delete(key);
}
