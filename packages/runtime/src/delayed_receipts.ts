// The delayed-receipt queue (TrieKey DelayedReceiptIndices / DelayedReceipt): receipts that did not
// fit in a chunk's gas limit wait here, first in first out, and run before new incoming receipts.
// Indices are nearcore's DelayedReceiptIndices (queue_indices.ts).
import { decodeReceipt, encodeReceipt, type Receipt } from '@nearlite/primitives';
import { type TrieUpdate, trieKeyDelayedReceipt, trieKeyDelayedReceiptIndices } from '@nearlite/trie';
import type { RuntimeConfig } from './config/runtime_config.js';
import { receiptCongestionGas } from './congestion_control.js';
import { encodeQueueIndices, readQueueIndices } from './queue_indices.js';

export class DelayedReceiptQueue {
  private first: bigint;
  private next: bigint;
  private dirty = false;
  /**
   * What the queue gained and lost in congestion gas and borsh bytes (nearcore's
   * DelayedReceiptQueueWrapper), counted from receipts as they go in and out, without reading the
   * rest of the queue.
   */
  newDelayedGas = 0n;
  newDelayedBytes = 0n;
  removedDelayedGas = 0n;
  removedDelayedBytes = 0n;

  constructor(
    private readonly state: TrieUpdate,
    private readonly config?: RuntimeConfig,
  ) {
    ({ first: this.first, next: this.next } = readQueueIndices(state.get(trieKeyDelayedReceiptIndices())));
  }

  /**
   * nearcore's bootstrap_congestion_info over the delayed queue: the congestion gas and bytes of
   * every receipt in it. Reads the whole queue, so only for a chunk with no congestion info before it
   * (after genesis, whose queue is empty, or a store from before the info was kept).
   */
  congestionTotals(config: RuntimeConfig): { gas: bigint; bytes: bigint } {
    let gas = 0n;
    let bytes = 0n;
    for (let i = this.first; i < this.next; i++) {
      const raw = this.state.get(trieKeyDelayedReceipt(i));
      if (!raw) throw new Error(`delayed receipt ${i} is missing`);
      gas += receiptCongestionGas(decodeReceipt(raw), config);
      bytes += BigInt(raw.length);
    }
    return { gas, bytes };
  }

  get length(): number {
    return Number(this.next - this.first);
  }

  push(receipt: Receipt): void {
    const bytes = encodeReceipt(receipt);
    if (this.config) {
      this.newDelayedGas += receiptCongestionGas(receipt, this.config);
      this.newDelayedBytes += BigInt(bytes.length);
    }
    this.state.set(trieKeyDelayedReceipt(this.next), bytes);
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
    const receipt = decodeReceipt(raw);
    if (this.config) {
      this.removedDelayedGas += receiptCongestionGas(receipt, this.config);
      this.removedDelayedBytes += BigInt(raw.length);
    }
    return receipt;
  }

  /** Writes the indices back (nearcore keeps the key even when the queue is empty). */
  flush(): void {
    if (!this.dirty) return;
    this.state.set(trieKeyDelayedReceiptIndices(), encodeQueueIndices(this.first, this.next));
    this.state.commit({ type: 'updated_delayed_receipts' });
    this.dirty = false;
  }
}
