// The delayed-receipt queue (TrieKey DelayedReceiptIndices / DelayedReceipt): receipts that did not
// fit in a chunk's gas limit wait here, first in first out, and run before new incoming receipts.
// Indices are nearcore's DelayedReceiptIndices (queue_indices.ts).
import { decodeReceipt, encodeReceipt, type Receipt } from '@nearlite/primitives';
import { type TrieUpdate, trieKeyDelayedReceipt, trieKeyDelayedReceiptIndices } from '@nearlite/trie';
import { encodeQueueIndices, readQueueIndices } from './queue_indices.js';

export class DelayedReceiptQueue {
  private first: bigint;
  private next: bigint;
  private dirty = false;

  constructor(private readonly state: TrieUpdate) {
    ({ first: this.first, next: this.next } = readQueueIndices(state.get(trieKeyDelayedReceiptIndices())));
  }

  get length(): number {
    return Number(this.next - this.first);
  }

  push(receipt: Receipt): void {
    this.state.set(trieKeyDelayedReceipt(this.next), encodeReceipt(receipt));
    this.next += 1n;
    this.dirty = true;
  }

  pop(): Receipt | null {
    if (this.first === this.next) return null;
    const key = trieKeyDelayedReceipt(this.first);
    const raw = this.state.get(key);
    if (!raw) throw new Error(`delayed receipt ${this.first} is missing`);
    this.state.remove(key);
    this.first += 1n;
    this.dirty = true;
    return decodeReceipt(raw);
  }

  /** Writes the indices back (nearcore keeps the key even when the queue is empty). */
  flush(): void {
    if (!this.dirty) return;
    this.state.set(trieKeyDelayedReceiptIndices(), encodeQueueIndices(this.first, this.next));
    this.state.commit({ type: 'updated_delayed_receipts' });
    this.dirty = false;
  }
}
