// The delayed-receipt queue (TrieKey DelayedReceiptIndices / DelayedReceipt): receipts that did not
// fit in a chunk's gas limit wait here, first in first out, and run before new incoming receipts.
// Indices are nearcore's DelayedReceiptIndices (queue_indices.ts). Each receipt is stored as
// nearcore stores it under use_state_stored_receipt: with the congestion gas and size it went in
// with, which are what taking it out removes from the shard's congestion info.
import {
  decodeStoredReceipt,
  encodeReceipt,
  type Receipt,
  wrapStateStoredReceipt,
} from '@nearlite/primitives';
import {
  legacyTrieKeyDelayedReceipt,
  type TrieUpdate,
  trieKeyDelayedReceipt,
  trieKeyDelayedReceiptIndices,
} from '@nearlite/trie';
import type { RuntimeConfig } from './config/runtime_config.js';
import { receiptCongestionGas, storedReceiptCongestion } from './congestion_control.js';
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
    private readonly config: RuntimeConfig,
  ) {
    ({ first: this.first, next: this.next } = readQueueIndices(state.get(trieKeyDelayedReceiptIndices())));
  }

  /**
   * nearcore's bootstrap_congestion_info over the delayed queue: the congestion gas and bytes of
   * every receipt in it. Reads the whole queue, so only for a chunk with no congestion info before it
   * (after genesis, whose queue is empty, or a store from before the info was kept).
   */
  congestionTotals(): { gas: bigint; bytes: bigint } {
    let gas = 0n;
    let bytes = 0n;
    for (let i = this.first; i < this.next; i++) {
      const { raw } = this.read(i);
      const counted = storedReceiptCongestion(decodeStoredReceipt(raw), raw, this.config);
      gas += counted.gas;
      bytes += counted.bytes;
    }
    return { gas, bytes };
  }

  /**
   * The receipt at `index`, under nearcore's key, or under the one earlier versions of this store
   * wrote (a queue left by them is taken out from where it is).
   */
  private read(index: bigint): { key: Uint8Array; raw: Uint8Array } {
    const key = trieKeyDelayedReceipt(index);
    const raw = this.state.get(key);
    if (raw) return { key, raw };
    const legacy = legacyTrieKeyDelayedReceipt(index);
    const old = this.state.get(legacy);
    if (!old) throw new Error(`delayed receipt ${index} is missing`);
    return { key: legacy, raw: old };
  }

  get length(): number {
    return Number(this.next - this.first);
  }

  push(receipt: Receipt): void {
    const congestionGas = receiptCongestionGas(receipt, this.config);
    const plain = encodeReceipt(receipt);
    const congestionSize = BigInt(plain.length);
    this.newDelayedGas += congestionGas;
    this.newDelayedBytes += congestionSize;
    const value = this.config.useStateStoredReceipt
      ? wrapStateStoredReceipt(plain, { congestionGas, congestionSize })
      : plain;
    this.state.set(trieKeyDelayedReceipt(this.next), value);
    this.next += 1n;
    this.dirty = true;
  }

  pop(): Receipt | null {
    if (this.first === this.next) return null;
    const { key, raw } = this.read(this.first);
    this.state.remove(key);
    this.first += 1n;
    this.dirty = true;
    const stored = decodeStoredReceipt(raw);
    const { gas, bytes } = storedReceiptCongestion(stored, raw, this.config);
    this.removedDelayedGas += gas;
    this.removedDelayedBytes += bytes;
    return stored.receipt;
  }

  /** Writes the indices back (nearcore keeps the key even when the queue is empty). */
  flush(): void {
    if (!this.dirty) return;
    this.state.set(trieKeyDelayedReceiptIndices(), encodeQueueIndices(this.first, this.next));
    this.state.commit({ type: 'updated_delayed_receipts' });
    this.dirty = false;
  }
}
