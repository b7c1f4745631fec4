// The JSON types nearcore writes for a block's header and its chunk headers. The hash check decodes
// the header's values, and a decoder forgives what nearcore never writes (a height as "0x6b" or
// " 109 ", a balance as a number, `1` for true, ["x"] for "x"); fields outside the hash (`author`,
// `signature`, the chunk headers' gas and balances) are decoded by nobody. Since a follower answers
// with the JSON its source published, each known field must have nearcore's type, or the block is
// refused: a source cannot change an answer's shape with a value the checks let through. Fields this
// code does not know are kept as published: a newer nearcore adds fields to its views.

import { isDecimalText, isJsonObject, isU64Json } from '@nearlite/primitives';

type Json = Record<string, unknown>;
type Check = (v: unknown) => boolean;

const HASH = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

const hash: Check = (v) => typeof v === 'string' && HASH.test(v);
const str: Check = (v) => typeof v === 'string';
const u64: Check = isU64Json;
const u32: Check = (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffffffff;
/** u64 and u128 values nearcore writes as decimal strings (`dec_format`). */
const u128s: Check = (v) => isDecimalText(v, 128n);
const u64s: Check = (v) => isDecimalText(v, 64n);
/**
 * A balance outside the hash: nearcore writes a decimal string, and re-serialized streams (Borealis)
 * write small ones as JSON numbers; either is a balance, nothing else is.
 */
const balance: Check = (v) => u128s(v) || u64(v);
const bool: Check = (v) => typeof v === 'boolean';
const nullable =
  (c: Check): Check =>
  (v) =>
    v === null || c(v);
const arrayOf =
  (c: Check): Check =>
  (v) =>
    Array.isArray(v) && v.every(c);
const objectOf =
  (fields: Record<string, Check>): Check =>
  (v) =>
    isJsonObject(v) && fieldsHold(v, fields) === null;

/** An object holding every one of `fields`, each of its type. */
const objectWith =
  (fields: Record<string, Check>): Check =>
  (v) =>
    isJsonObject(v) &&
    Object.keys(fields).every((k) => Object.hasOwn(v, k)) &&
    fieldsHold(v, fields) === null;
const u16: Check = (v) => u32(v) && (v as number) <= 0xffff;
const u8: Check = (v) => u32(v) && (v as number) <= 0xff;

/** CongestionInfoView; the chunk hash covers each of its values. */
const congestionInfo = objectWith({
  delayed_receipts_gas: u128s,
  buffered_receipts_gas: u128s,
  receipt_bytes: u64,
  allowed_shard: u16,
});

/** BandwidthRequests::V1: each request a shard and a 40-bit bitmap of five bytes. */
const bandwidthRequests = objectWith({
  V1: objectWith({
    requests: arrayOf(
      objectWith({
        to_shard: u16,
        requested_values_bitmap: objectWith({
          data: (v) => Array.isArray(v) && v.length === 5 && v.every(u8),
        }),
      }),
    ),
  }),
});

const validatorStake = objectOf({
  account_id: str,
  public_key: str,
  stake: u128s,
  validator_stake_struct_version: str,
});

/** BlockHeaderView (core/primitives/src/views.rs); absent fields are left to the hash check. */
const HEADER: Record<string, Check> = {
  height: u64,
  prev_height: nullable(u64),
  hash,
  prev_hash: hash,
  epoch_id: hash,
  next_epoch_id: hash,
  prev_state_root: hash,
  block_body_hash: nullable(hash),
  chunk_receipts_root: hash,
  chunk_headers_root: hash,
  chunk_tx_root: hash,
  outcome_root: hash,
  chunks_included: u64,
  challenges_root: hash,
  timestamp: u64,
  timestamp_nanosec: u64s,
  random_value: hash,
  validator_proposals: arrayOf(validatorStake),
  chunk_mask: arrayOf(bool),
  gas_price: u128s,
  block_ordinal: nullable(u64),
  rent_paid: balance,
  validator_reward: balance,
  total_supply: u128s,
  challenges_result: arrayOf(objectOf({ account_id: str, is_double_sign: bool })),
  last_final_block: hash,
  last_ds_final_block: hash,
  next_bp_hash: hash,
  block_merkle_root: hash,
  epoch_sync_data_hash: nullable(hash),
  approvals: arrayOf(nullable(str)),
  signature: str,
  latest_protocol_version: u32,
  chunk_endorsements: nullable(arrayOf(arrayOf((v) => u32(v) && (v as number) <= 255))),
  shard_split: nullable((v) => Array.isArray(v) && v.length === 2 && u64(v[0]) && str(v[1])),
};

/** ChunkHeaderView. */
const CHUNK_HEADER: Record<string, Check> = {
  chunk_hash: hash,
  prev_block_hash: hash,
  outcome_root: hash,
  prev_state_root: hash,
  encoded_merkle_root: hash,
  encoded_length: u64,
  height_created: u64,
  height_included: u64,
  shard_id: u64,
  gas_used: u64,
  gas_limit: u64,
  rent_paid: balance,
  validator_reward: balance,
  balance_burnt: balance,
  outgoing_receipts_root: hash,
  tx_root: hash,
  validator_proposals: arrayOf(validatorStake),
  congestion_info: nullable(congestionInfo),
  bandwidth_requests: nullable(bandwidthRequests),
  proposed_split: nullable(objectWith({ boundary_account: str, left_memory: u64, right_memory: u64 })),
  signature: str,
};

/** The first field of `o` whose value does not have its type, or null. */
function fieldsHold(o: Json, fields: Record<string, Check>): string | null {
  for (const [name, check] of Object.entries(fields)) {
    if (Object.hasOwn(o, name) && o[name] !== undefined && !check(o[name])) return name;
  }
  return null;
}

/** Why the block's header or chunk headers are not in nearcore's types, or null when they are. */
export function viewTypeError(block: { header: unknown; author?: unknown; chunks?: unknown }): string | null {
  if (!isJsonObject(block.header)) return 'the block has no header';
  const bad = fieldsHold(block.header, HEADER);
  if (bad !== null) return `header field ${bad} is not of nearcore's type`;
  if (!str(block.author)) return 'the block author is not a string';
  // Some re-serialized streams (Borealis) leave the block's chunk headers out.
  if (block.chunks === undefined) return null;
  if (!Array.isArray(block.chunks)) return 'the block chunks are not a list';
  for (const [i, c] of block.chunks.entries()) {
    if (!isJsonObject(c)) return `chunks[${i}] is not a chunk header`;
    const field = fieldsHold(c, CHUNK_HEADER);
    if (field !== null) return `chunks[${i}].${field} is not of nearcore's type`;
  }
  return null;
}

/**
 * Whether the header's two timestamps are one: the hash covers `timestamp_nanosec` where there is
 * one, and nothing else would hold `timestamp` to it.
 */
export function timestampsAgree(header: Json): boolean {
  const { timestamp, timestamp_nanosec: nanos } = header;
  return (
    nanos === undefined || timestamp === undefined || BigInt(timestamp as number) === BigInt(nanos as string)
  );
}

/** The same for a shard's chunk header (the one `chunk` answers with). */
export function chunkHeaderTypeError(header: unknown): string | null {
  if (!isJsonObject(header)) return 'the chunk has no header';
  const field = fieldsHold(header, CHUNK_HEADER);
  return field === null ? null : `chunk header field ${field} is not of nearcore's type`;
}
