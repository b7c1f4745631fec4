// nearcore's ReceiptSinkV2 (runtime/runtime/src/congestion_control.rs): every receipt a chunk makes
// for a shard goes out only while that shard's outgoing gas limit allows (what its congestion info
// lets this shard send it, `outgoingGasLimit`); the rest wait in this shard's outgoing buffer to it,
// kept in the trie, and go out first in later chunks. Receipts for the chunk's own shard have no gas
// limit. What is buffered counts in the shard's congestion info (buffered_receipts_gas and
// receipt_bytes), so a shard that cannot send stops taking transactions as nearcore's does.
//
// The bandwidth scheduler's size limits are not applied, and a buffer never asks for bandwidth: a
// request is made only for more than the base bandwidth (100 kB) buffered to one shard, and the
// grants such requests buy are not computed here (`bandwidth_scheduler.ts`).
import {
  decodeStoredReceipt,
  encodeReceipt,
  type Receipt,
  wrapStateStoredReceipt,
} from '@nearlite/primitives';
import { type TrieUpdate, trieKeyBufferedReceipt } from '@nearlite/trie';
import type { ShardCongestion } from './bandwidth_scheduler.js';
import type { RuntimeConfig } from './config/runtime_config.js';
import { outgoingGasLimit, receiptCongestionGas, storedReceiptCongestion } from './congestion_control.js';
import { BufferedReceiptIndices, ReceiptGroupsQueue } from './outgoing_buffers.js';

/** A receipt on its way out: its encoding and the shard it goes to. */
export interface SinkReceipt {
  readonly receiptId: Uint8Array;
  readonly receiverId: string;
  readonly bytes: Uint8Array;
  readonly targetShard?: number;
}

const GAS_MAX = (1n << 64n) - 1n;

export class ReceiptSink {
  /** The gas each receiving shard takes from this one in this chunk, what is left of it. */
  private readonly gasLimits = new Map<number, bigint>();
  private readonly indices: BufferedReceiptIndices;
  private readonly groups = new Map<number, ReceiptGroupsQueue>();
  /** Congestion gas and bytes buffered and forwarded from the buffers by this chunk. */
  bufferedGas = 0n;
  bufferedBytes = 0n;
  forwardedGas = 0n;
  forwardedBytes = 0n;

  constructor(
    private readonly state: TrieUpdate,
    private readonly config: RuntimeConfig,
    ownShard: number,
    private readonly shardOf: (r: SinkReceipt) => number,
    blockCongestion: ReadonlyMap<number, ShardCongestion>,
    private readonly out: SinkReceipt[],
  ) {
    for (const [shard, c] of blockCongestion) {
      this.gasLimits.set(
        shard,
        shard === ownShard
          ? GAS_MAX
          : outgoingGasLimit(c.congestionInfo, c.missedChunksCount, config.congestionControl, ownShard),
      );
    }
    this.indices = BufferedReceiptIndices.load(state);
  }

  /** nearcore's forward_from_buffer: each buffer, in shard order, up to its first receipt refused. */
  forwardFromBuffers(shardIds: readonly number[]): void {
    let changed = false;
    for (const shard of shardIds) {
      const q = this.indices.get(shard);
      if (!q || q.first === q.next) continue;
      let index = q.first;
      for (; index < q.next; index++) {
        const key = trieKeyBufferedReceipt(shard, index);
        const raw = this.state.get(key);
        if (!raw) throw new Error(`buffered receipt ${index} to shard ${shard} is missing`);
        const stored = decodeStoredReceipt(raw);
        const { gas, bytes } = storedReceiptCongestion(stored, raw, this.config);
        const receipt = sinkReceipt(stored.receipt);
        if (!this.tryForward(receipt, gas, this.shardOf(receipt))) break;
        this.forwardedGas += gas;
        this.forwardedBytes += bytes;
        if (stored.metadata) this.groupsTo(shard).popped(bytes, gas);
        this.state.remove(key);
      }
      if (index !== q.first) {
        this.indices.set(shard, { first: index, next: q.next });
        changed = true;
      }
    }
    if (changed) this.flush();
  }

  /** nearcore's forward_or_buffer_receipt. */
  forwardOrBuffer(r: SinkReceipt, receipt: Receipt): void {
    const shard = this.shardOf(r);
    const gas = receiptCongestionGas(receipt, this.config);
    if (this.tryForward(r, gas, shard)) return;
    const size = BigInt(r.bytes.length);
    this.bufferedGas += gas;
    this.bufferedBytes += size;
    const q = this.indices.get(shard) ?? { first: 0n, next: 0n };
    const stateStored = this.config.useStateStoredReceipt;
    const value = stateStored
      ? wrapStateStoredReceipt(r.bytes, { congestionGas: gas, congestionSize: size })
      : r.bytes;
    if (stateStored) this.groupsTo(shard).pushed(size, gas);
    this.state.set(trieKeyBufferedReceipt(shard, q.next), value);
    this.indices.set(shard, { first: q.first, next: q.next + 1n });
    this.flush();
  }

  /**
   * try_forward since ClampOutgoingGasAdmission (85): a receipt goes out while what is left of the
   * limit covers its gas, or `allowed_shard_outgoing_gas` of it; the limit then loses all its gas.
   */
  private tryForward(r: SinkReceipt, gas: bigint, shard: number): boolean {
    const limit = this.gasLimits.get(shard) ?? GAS_MAX;
    const allowed = this.config.congestionControl.allowedShardOutgoingGas;
    const admission = gas < allowed ? gas : allowed;
    if (limit < admission) return false;
    this.gasLimits.set(shard, limit > gas ? limit - gas : 0n);
    this.out.push(r);
    return true;
  }

  private groupsTo(shard: number): ReceiptGroupsQueue {
    let g = this.groups.get(shard);
    if (!g) {
      g = ReceiptGroupsQueue.load(this.state, shard);
      this.groups.set(shard, g);
    }
    return g;
  }

  /**
   * The buffers' indices and groups written back, committed at once: a receipt whose execution fails
   * after this rolls back its own changes only.
   */
  private flush(): void {
    this.indices.write(this.state);
    for (const g of this.groups.values()) g.write();
    this.state.commit({ type: 'updated_delayed_receipts' });
  }
}

function sinkReceipt(r: Receipt): SinkReceipt {
  const base = { receiptId: r.receiptId, receiverId: r.receiverId, bytes: encodeReceipt(r) };
  const x = r.receipt;
  return x.kind === 'GlobalContractDistribution' ? { ...base, targetShard: Number(x.targetShard) } : base;
}

/**
 * bootstrap_congestion_info over the outgoing buffers: the congestion gas and bytes of every receipt
 * in them (for a chunk with no congestion info before it).
 */
export function bufferedCongestionTotals(
  state: TrieUpdate,
  config: RuntimeConfig,
): { gas: bigint; bytes: bigint } {
  let gas = 0n;
  let bytes = 0n;
  const indices = BufferedReceiptIndices.load(state);
  for (const [shard, q] of indices.entries()) {
    for (let i = q.first; i < q.next; i++) {
      const raw = state.get(trieKeyBufferedReceipt(shard, i));
      if (!raw) throw new Error(`buffered receipt ${i} to shard ${shard} is missing`);
      const counted = storedReceiptCongestion(decodeStoredReceipt(raw), raw, config);
      gas += counted.gas;
      bytes += counted.bytes;
    }
  }
  return { gas, bytes };
}
