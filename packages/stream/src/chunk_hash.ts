// Recomputes a chunk hash from its `ChunkHeaderView` and a block's `chunk_headers_root` from its
// chunk headers, so the block hash vouches for every chunk header field (gas, burnt balance, roots).
// nearcore: ShardChunkHeaderV3::compute_hash = combine(sha256(borsh(ShardChunkHeaderInner)),
// encoded_merkle_root), and Block::compute_chunk_headers_root = merklize(ChunkHashHeight(chunk_hash,
// height_included)). The view does not name the inner's version; the fields it holds narrow it, and
// the versions that fit are tried (a match under any is a sha256 preimage match).
import { merklizeLeaves } from '@nearlite/chain';
import {
  BorshWriter,
  base58Decode,
  combineHash,
  parsePublicKey,
  sha256,
  writePublicKey,
} from '@nearlite/primitives';
import { HeaderViewError } from './header_errors.js';

type Json = Record<string, unknown>;

/**
 * ShardChunkHeaderInner's versions (borsh tag = version − 1): V2 versioned validator stakes (protocol
 * 41 on), V3 congestion info (68), V4 bandwidth requests (74), V5 a proposed split (85: nearcore's
 * TrieSplit, core/primitives/src/trie_split.rs, in the view as published). `Untagged`
 * is the inner without enum tags that nearlite before its V5 hashing wrote, so histories it
 * published then still verify.
 */
export const ChunkInnerVersion = { Untagged: 0, V2: 2, V3: 3, V4: 4, V5: 5 } as const;
export type ChunkInnerVersion = (typeof ChunkInnerVersion)[keyof typeof ChunkInnerVersion];

/** Protocol versions from which the tested layouts cover every chunk: older ones are not checked. */
export const CHUNK_HASH_CHECKED_FROM = 57;

function hashField(c: Json, field: string): Uint8Array {
  const v = c[field];
  const bytes = typeof v === 'string' ? base58Decode(v) : null;
  if (bytes?.length !== 32) throw new HeaderViewError(`chunk header field ${field} is not a hash`);
  return bytes;
}

const big = (c: Json, field: string) => BigInt(c[field] as number | string);

interface BandwidthRequestView {
  to_shard: number;
  requested_values_bitmap: { data: number[] };
}

export function encodeChunkInnerView(c: Json, version: ChunkInnerVersion): Uint8Array | null {
  const congestion = c.congestion_info as Json | null | undefined;
  const bandwidth = c.bandwidth_requests as { V1?: { requests: BandwidthRequestView[] } } | null | undefined;
  // What each version holds, as the view shows it: no congestion info before V3, no bandwidth
  // requests before V4.
  const fits =
    version === ChunkInnerVersion.V2
      ? !congestion && !bandwidth
      : version === ChunkInnerVersion.V3
        ? !!congestion && !bandwidth
        : !!congestion && !!bandwidth?.V1;
  const split = c.proposed_split as Json | null | undefined;
  if (!fits || (split && version !== ChunkInnerVersion.V5)) return null;
  const tagged = version !== ChunkInnerVersion.Untagged;
  const w = new BorshWriter(512);
  if (tagged) w.u8(version - 1);
  w.fixed(hashField(c, 'prev_block_hash'))
    .fixed(hashField(c, 'prev_state_root'))
    .fixed(hashField(c, 'outcome_root'))
    .fixed(hashField(c, 'encoded_merkle_root'))
    .u64(big(c, 'encoded_length'))
    .u64(big(c, 'height_created'))
    .u64(big(c, 'shard_id'))
    .u64(big(c, 'gas_used'))
    .u64(big(c, 'gas_limit'))
    .u128(big(c, 'balance_burnt'))
    .fixed(hashField(c, 'outgoing_receipts_root'))
    .fixed(hashField(c, 'tx_root'));
  const proposals = (c.validator_proposals ?? []) as Json[];
  w.u32(proposals.length);
  for (const p of proposals) {
    w.u8(0); // ValidatorStake::V1
    w.string(String(p.account_id));
    writePublicKey(w, parsePublicKey(String(p.public_key)));
    w.u128(BigInt(p.stake as string));
  }
  if (congestion) {
    if (tagged) w.u8(0); // CongestionInfo::V1
    w.u128(big(congestion, 'delayed_receipts_gas'))
      .u128(big(congestion, 'buffered_receipts_gas'))
      .u64(big(congestion, 'receipt_bytes'))
      .u16(Number(congestion.allowed_shard));
  }
  if (bandwidth?.V1) {
    if (tagged) w.u8(0); // BandwidthRequests::V1
    w.u32(bandwidth.V1.requests.length);
    for (const r of bandwidth.V1.requests) {
      w.u16(r.to_shard).fixed(Uint8Array.from(r.requested_values_bitmap.data));
    }
  }
  if (version === ChunkInnerVersion.V5) {
    // proposed_split: Option<TrieSplit { boundary_account, left_memory: u64, right_memory: u64 }>.
    if (split)
      w.u8(1)
        .string(String(split.boundary_account))
        .u64(big(split, 'left_memory'))
        .u64(big(split, 'right_memory'));
    else w.u8(0);
  }
  return w.toBytes();
}

/** The inner version under which the view's `chunk_hash` verifies, or null when none does. */
export function verifiedChunkVersion(c: Json): ChunkInnerVersion | null {
  const expected = hashField(c, 'chunk_hash');
  const root = hashField(c, 'encoded_merkle_root');
  for (const version of [
    ChunkInnerVersion.V5,
    ChunkInnerVersion.V4,
    ChunkInnerVersion.V3,
    ChunkInnerVersion.V2,
    ChunkInnerVersion.Untagged,
  ]) {
    const inner = encodeChunkInnerView(c, version);
    if (inner && bytesEq(combineHash(sha256(inner), root), expected)) return version;
  }
  return null;
}

/** Block::compute_chunk_headers_root over a block's chunk headers. */
export function chunkHeadersRoot(chunks: readonly Json[]): Uint8Array {
  return merklizeLeaves(
    chunks.map((c) =>
      sha256(new BorshWriter(40).fixed(hashField(c, 'chunk_hash')).u64(big(c, 'height_included')).toBytes()),
    ),
  ).root;
}

function bytesEq(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
