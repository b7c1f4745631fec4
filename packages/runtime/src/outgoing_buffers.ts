// What nearcore keeps in the trie beside the outgoing buffers' receipts (core/store/src/trie/
// receipts_column_helper.rs, outgoing_metadata.rs): one value with every buffer's queue indices, and
// per receiving shard a queue of receipt groups (consecutive receipts up to 100 kB together) with
// the buffer's totals, which the bandwidth scheduler's requests are made from. A buffer's indices and
// groups stay in the trie once made, empty or not, as nearcore leaves them.
import { BorshReader, BorshWriter } from '@nearlite/primitives';
import {
  type TrieUpdate,
  trieKeyBufferedReceiptGroupsQueueData,
  trieKeyBufferedReceiptGroupsQueueItem,
  trieKeyBufferedReceiptIndices,
} from '@nearlite/trie';
import type { QueueIndices } from './queue_indices.js';

/** nearcore's BufferedReceiptIndices: a BTreeMap of receiving shard to its queue's indices. */
export class BufferedReceiptIndices {
  private dirty = false;

  private constructor(private readonly byShard: Map<number, QueueIndices>) {}

  static load(state: TrieUpdate): BufferedReceiptIndices {
    const raw = state.get(trieKeyBufferedReceiptIndices());
    const byShard = new Map<number, QueueIndices>();
    if (raw) {
      const r = new BorshReader(raw);
      const n = r.u32();
      for (let i = 0; i < n; i++) {
        const shard = Number(r.u64());
        byShard.set(shard, { first: r.u64(), next: r.u64() });
      }
      r.end();
    }
    return new BufferedReceiptIndices(byShard);
  }

  get(shard: number): QueueIndices | undefined {
    return this.byShard.get(shard);
  }

  set(shard: number, q: QueueIndices): void {
    this.byShard.set(shard, q);
    this.dirty = true;
  }

  entries(): IterableIterator<[number, QueueIndices]> {
    return this.byShard.entries();
  }

  write(state: TrieUpdate): void {
    if (!this.dirty) return;
    const shards = [...this.byShard.keys()].sort((a, b) => a - b);
    const w = new BorshWriter(4 + 24 * shards.length).u32(shards.length);
    for (const s of shards) {
      const q = this.byShard.get(s)!;
      w.u64(BigInt(s)).u64(q.first).u64(q.next);
    }
    state.set(trieKeyBufferedReceiptIndices(), w.toBytes());
    this.dirty = false;
  }
}

/** ReceiptGroupsConfig::default_config: groups aim to stay at or under 100 kB (gas unbounded). */
const GROUP_SIZE_UPPER_BOUND = 100_000n;
const GROUP_GAS_UPPER_BOUND = (1n << 64n) - 1n;

interface ReceiptGroup {
  size: bigint;
  gas: bigint;
}

/** ReceiptGroupsQueueData::V0 and its ReceiptGroup::V0 items, for the buffer to one shard. */
export class ReceiptGroupsQueue {
  private dirty = false;

  private constructor(
    private readonly state: TrieUpdate,
    private readonly shard: number,
    private first: bigint,
    private next: bigint,
    private totalSize: bigint,
    private totalGas: bigint,
    private totalReceipts: bigint,
  ) {}

  static load(state: TrieUpdate, shard: number): ReceiptGroupsQueue {
    const raw = state.get(trieKeyBufferedReceiptGroupsQueueData(shard));
    if (!raw) return new ReceiptGroupsQueue(state, shard, 0n, 0n, 0n, 0n, 0n);
    const r = new BorshReader(raw);
    const version = r.u8();
    if (version !== 0) throw new Error(`unknown ReceiptGroupsQueueData version ${version}`);
    const q = new ReceiptGroupsQueue(state, shard, r.u64(), r.u64(), r.u64(), r.u128(), r.u64());
    r.end();
    return q;
  }

  /** update_on_receipt_pushed: into the last group, or a new one past the bounds. */
  pushed(size: bigint, gas: bigint): void {
    this.totalSize += size;
    this.totalGas += gas;
    this.totalReceipts += 1n;
    this.dirty = true;
    const s = this.state;
    if (this.first < this.next) {
      const last = this.readGroup(s, this.next - 1n);
      if (last.size + size <= GROUP_SIZE_UPPER_BOUND && last.gas + gas <= GROUP_GAS_UPPER_BOUND) {
        this.writeGroup(s, this.next - 1n, { size: last.size + size, gas: last.gas + gas });
        return;
      }
    }
    this.writeGroup(s, this.next, { size, gas });
    this.next += 1n;
  }

  /** update_on_receipt_popped: out of the first group, which goes once it is empty. */
  popped(size: bigint, gas: bigint): void {
    this.totalSize -= size;
    this.totalGas -= gas;
    this.totalReceipts -= 1n;
    this.dirty = true;
    const s = this.state;
    if (this.first >= this.next) throw new Error(`no receipt groups to pop from (shard ${this.shard})`);
    const group = this.readGroup(s, this.first);
    const left = { size: group.size - size, gas: group.gas - gas };
    if (left.size === 0n) {
      s.remove(trieKeyBufferedReceiptGroupsQueueItem(this.shard, this.first));
      this.first += 1n;
    } else this.writeGroup(s, this.first, left);
  }

  write(): void {
    if (!this.dirty) return;
    const w = new BorshWriter(49)
      .u8(0)
      .u64(this.first)
      .u64(this.next)
      .u64(this.totalSize)
      .u128(this.totalGas)
      .u64(this.totalReceipts);
    this.state.set(trieKeyBufferedReceiptGroupsQueueData(this.shard), w.toBytes());
    this.dirty = false;
  }

  private readGroup(state: TrieUpdate, index: bigint): ReceiptGroup {
    const raw = state.get(trieKeyBufferedReceiptGroupsQueueItem(this.shard, index));
    if (!raw) throw new Error(`receipt group ${index} of shard ${this.shard} is missing`);
    const r = new BorshReader(raw);
    const version = r.u8();
    if (version !== 0) throw new Error(`unknown ReceiptGroup version ${version}`);
    const g = { size: r.u64(), gas: r.u128() };
    r.end();
    return g;
  }

  private writeGroup(state: TrieUpdate, index: bigint, g: ReceiptGroup): void {
    state.set(
      trieKeyBufferedReceiptGroupsQueueItem(this.shard, index),
      new BorshWriter(25).u8(0).u64(g.size).u128(g.gas).toBytes(),
    );
  }
}
