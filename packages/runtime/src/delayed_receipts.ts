// The delayed-receipt queue (TrieKey DelayedReceiptIndices / DelayedReceipt): receipts that did not
// fit in a chunk's gas limit wait here, first in first out, and run before new incoming receipts.
// Indices are nearcore's borsh DelayedReceiptIndices { first_index: u64, next_available_index: u64 }.
import { BorshReader, BorshWriter, decodeReceipt, encodeReceipt, type Receipt } from '@nearlite/primitives';
import { type TrieUpdate, trieKeyDelayedReceipt, trieKeyDelayedReceiptIndices } from '@nearlite/trie';

export class DelayedReceiptQueue {
  private first: bigint;
  private next: bigint;
  private dirty = false;

  constructor(private readonly state: TrieUpdate) {
    const raw = state.get(trieKeyDelayedReceiptIndices());
    if (raw) {
      const r = new BorshReader(raw);
      this.first = r.u64();
      this.next = r.u64();
      r.end();
    } else {
      this.first = 0n;
      this.next = 0n;
    }
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
    this.state.set(
      trieKeyDelayedReceiptIndices(),
      new BorshWriter(16).u64(this.first).u64(this.next).toBytes(),
    );
    this.state.commit({ type: 'updated_delayed_receipts' });
    this.dirty = false;
  }
}
