// Congestion control as nearcore has it since protocol 68 (core/primitives/src/congestion_info.rs,
// runtime/runtime/src/congestion_control.rs): each chunk reports its shard's CongestionInfo, and
// the next chunks read it to bound how much gas goes to new transactions, how much gas other shards
// may send it (what they cannot send waits in their outgoing buffers, `receipt_sink.ts`) and
// whether transactions to a shard are still taken.
import type { Receipt, StoredReceipt } from '@nearlite/primitives';
import type { CongestionControlConfig, RuntimeConfig } from './config/runtime_config.js';
import { totalPrepaidExecFees, totalPrepaidGas, totalPrepaidSendFees } from './fees.js';

/** nearcore's CongestionInfoV1. */
export interface CongestionInfo {
  readonly delayedReceiptsGas: bigint;
  readonly bufferedReceiptsGas: bigint;
  readonly receiptBytes: bigint;
  readonly allowedShard: number;
}

export const DEFAULT_CONGESTION_INFO: CongestionInfo = {
  delayedReceiptsGas: 0n,
  bufferedReceiptsGas: 0n,
  receiptBytes: 0n,
  allowedShard: 0,
};

/** value / max as an f64, exactly 1 from max on (nearcore's clamped_f64_fraction). */
export function clampedF64Fraction(value: bigint, max: bigint): number {
  return max <= value ? 1 : Number(value) / Number(max);
}

/**
 * nearcore's mix: left·(1−ratio) + right·ratio in f64, rounded. Number(bigint) rounds to nearest as
 * Rust's `as f64` does, and for the non-negative totals here Math.round is Rust's f64::round.
 */
export function mix(left: bigint, right: bigint, ratio: number): bigint {
  const total = Number(left) * (1 - ratio) + Number(right) * ratio;
  return BigInt(Math.round(total));
}

export function incomingCongestion(info: CongestionInfo, c: CongestionControlConfig): number {
  return clampedF64Fraction(info.delayedReceiptsGas, c.maxCongestionIncomingGas);
}

function outgoingCongestion(info: CongestionInfo, c: CongestionControlConfig): number {
  return clampedF64Fraction(info.bufferedReceiptsGas, c.maxCongestionOutgoingGas);
}

function memoryCongestion(info: CongestionInfo, c: CongestionControlConfig): number {
  return clampedF64Fraction(info.receiptBytes, c.maxCongestionMemoryConsumption);
}

function missedChunksCongestion(missedChunksCount: number, c: CongestionControlConfig): number {
  if (missedChunksCount <= 1) return 0;
  return clampedF64Fraction(BigInt(missedChunksCount), c.maxCongestionMissedChunks);
}

/**
 * CongestionControl::outgoing_gas_limit: the gas `senderShard` may send this shard in the next chunk.
 * A fully congested shard takes only `allowed_shard_outgoing_gas`, and only from its allowed shard.
 */
export function outgoingGasLimit(
  info: CongestionInfo,
  missedChunksCount: number,
  c: CongestionControlConfig,
  senderShard: number,
): bigint {
  const level = congestionLevel(info, missedChunksCount, c);
  if (level === 1) return senderShard === info.allowedShard ? c.allowedShardOutgoingGas : 0n;
  return mix(c.maxOutgoingGas, c.minOutgoingGas, level);
}

/** CongestionControl::process_tx_limit: the gas a chunk spends at most on converting transactions. */
export function processTxLimit(info: CongestionInfo, c: CongestionControlConfig): bigint {
  return mix(c.maxTxGas, c.minTxGas, incomingCongestion(info, c));
}

/** CongestionControl::congestion_level: the largest of the four congestion kinds, 1 for NaN. */
export function congestionLevel(
  info: CongestionInfo,
  missedChunksCount: number,
  c: CongestionControlConfig,
): number {
  const level = Math.max(
    incomingCongestion(info, c),
    outgoingCongestion(info, c),
    memoryCongestion(info, c),
    missedChunksCongestion(missedChunksCount, c),
  );
  return Number.isNaN(level) ? 1 : level;
}

/**
 * CongestionControl::shard_accepts_transactions, as the InvalidTxError nearcore's validate_tx gives
 * a refused transaction (ShardCongested / ShardStuck), or null when the shard takes transactions.
 */
export function shardRejectsTransactions(
  info: CongestionInfo,
  missedChunksCount: number,
  c: CongestionControlConfig,
  shardId: number,
): object | null {
  const level = congestionLevel(info, missedChunksCount, c);
  if (level < c.rejectTxCongestionThreshold) return null;
  const missed = missedChunksCongestion(missedChunksCount, c);
  if (missed >= level) return { ShardStuck: { shard_id: shardId, missed_chunks: missedChunksCount } };
  return { ShardCongested: { shard_id: shardId, congestion_level: level } };
}

/**
 * compute_receipt_congestion_gas: for an action receipt, the gas it is sure to burn when it runs
 * (prepaid exec fees with the receipt's own, a Delegate's prepaid send fees) plus the gas attached
 * to its function calls; nothing for data, yield, resume and distribution receipts.
 */
export function receiptCongestionGas(receipt: Receipt, config: RuntimeConfig): bigint {
  const r = receipt.receipt;
  if (r.kind !== 'Action' || r.isPromiseYield) return 0n;
  return (
    totalPrepaidExecFees(config, r.actions, receipt.receiverId) +
    config.fees.fees.new_action_receipt.execution +
    totalPrepaidSendFees(config, r.actions) +
    totalPrepaidGas(r.actions)
  );
}

/**
 * CongestionInfo::finalize_allowed_shard: the shard picked round robin by the seed (block height
 * plus the shard's index in the layout).
 */
export function finalizeAllowedShard(
  ownShard: number,
  allShards: readonly number[],
  congestionSeed: number,
): number {
  if (allShards.length === 0) return ownShard;
  return allShards[congestionSeed % allShards.length]!;
}

/**
 * nearcore's receipt_congestion_gas and receipt_size of a receipt read from the state: the metadata
 * it was stored with, or for a plain receipt (stored before use_state_stored_receipt) what it
 * computes to now. `raw` is its stored bytes.
 */
export function storedReceiptCongestion(
  stored: StoredReceipt,
  raw: Uint8Array,
  config: RuntimeConfig,
): { gas: bigint; bytes: bigint } {
  if (stored.metadata) return { gas: stored.metadata.congestionGas, bytes: stored.metadata.congestionSize };
  return { gas: receiptCongestionGas(stored.receipt, config), bytes: BigInt(raw.length) };
}
