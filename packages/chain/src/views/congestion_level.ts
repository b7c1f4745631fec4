// EXPERIMENTAL_congestion_level: nearcore's localized congestion level of a chunk's congestion info,
// the largest of its three fractions. Missed chunks are left out, as nearcore's view leaves them out.
import { clampedF64Fraction } from '@nearlite/runtime';

/** The congestion-control parameters the level divides by (`congestion_control_config`). */
export interface CongestionLimits {
  readonly max_congestion_incoming_gas: number | bigint;
  readonly max_congestion_outgoing_gas: number | bigint;
  readonly max_congestion_memory_consumption: number | bigint;
}

export interface CongestionAmounts {
  readonly delayedReceiptsGas: bigint;
  readonly bufferedReceiptsGas: bigint;
  readonly receiptBytes: bigint;
}

/** A chunk header view's `congestion_info`, as nearcore's JSON writes it. */
export interface CongestionInfoJson {
  readonly delayed_receipts_gas: string;
  readonly buffered_receipts_gas: string;
  readonly receipt_bytes: number | string;
  readonly allowed_shard: number;
}

/** A chunk header view's `congestion_info` read back (a stored or streamed chunk's). */
export function congestionInfoFromView(
  v: CongestionInfoJson,
): CongestionAmounts & { readonly allowedShard: number } {
  return {
    delayedReceiptsGas: BigInt(v.delayed_receipts_gas),
    bufferedReceiptsGas: BigInt(v.buffered_receipts_gas),
    receiptBytes: BigInt(v.receipt_bytes),
    allowedShard: v.allowed_shard,
  };
}

export function congestionLevel(info: CongestionAmounts, limits: CongestionLimits): number {
  return Math.max(
    clampedF64Fraction(info.delayedReceiptsGas, BigInt(limits.max_congestion_incoming_gas)),
    clampedF64Fraction(info.bufferedReceiptsGas, BigInt(limits.max_congestion_outgoing_gas)),
    clampedF64Fraction(info.receiptBytes, BigInt(limits.max_congestion_memory_consumption)),
  );
}

/** The limits out of a runtime config view (`EXPERIMENTAL_protocol_config`'s `runtime_config`). */
export function congestionLimits(runtimeConfigView: object): CongestionLimits {
  return (runtimeConfigView as { congestion_control_config: CongestionLimits }).congestion_control_config;
}

const UNLIMITED = 9_223_372_036_854_775_807n;

/**
 * The limits nearcore's parameter files give a protocol version: none before congestion control
 * (68), 20 PGas of delayed receipts from 68, 400 PGas from 73; outgoing 10 PGas and 1 GB of receipts
 * throughout.
 */
export function congestionLimitsOfVersion(protocolVersion: number): CongestionLimits {
  if (protocolVersion < 68) {
    return {
      max_congestion_incoming_gas: UNLIMITED,
      max_congestion_outgoing_gas: UNLIMITED,
      max_congestion_memory_consumption: UNLIMITED,
    };
  }
  return {
    max_congestion_incoming_gas: protocolVersion < 73 ? 20_000_000_000_000_000n : 400_000_000_000_000_000n,
    max_congestion_outgoing_gas: 10_000_000_000_000_000n,
    max_congestion_memory_consumption: 1_000_000_000n,
  };
}
