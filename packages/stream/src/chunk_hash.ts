// Recomputes a chunk hash from its `ChunkHeaderView` and a block's `chunk_headers_root` from its
// chunk headers, so the block hash vouches for every chunk header field (gas, burnt balance, roots).
// nearcore: ShardChunkHeaderV3::compute_hash = combine(sha256(borsh(ShardChunkHeaderInner)),
// encoded_merkle_root), and Block::compute_chunk_headers_root = merklize(ChunkHashHeight(chunk_hash,
// height_included)). The view does not name the inner's version; the fields it holds narrow it, and
// the versions that fit are tried (a match under any is a sha256 preimage match).
import {
  chunkHeadersRoot as chainChunkHeadersRoot,
  encodeChunkHeaderInner,
  encodeShardChunkHeaderInner,
  type ShardChunkHeaderInnerFields,
} from '@nearlite/chain';
import { base58Decode, bytesEqual, combineHash, parsePublicKey, sha256 } from '@nearlite/primitives';
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

/** The view's fields as chain's encoder takes them; the version decides which it writes. */
function innerFields(c: Json): ShardChunkHeaderInnerFields {
  const congestion = c.congestion_info as Json | null | undefined;
  const bandwidth = c.bandwidth_requests as { V1?: { requests: BandwidthRequestView[] } } | null | undefined;
  const split = c.proposed_split as Json | null | undefined;
  return {
    prevBlockHash: hashField(c, 'prev_block_hash'),
    prevStateRoot: hashField(c, 'prev_state_root'),
    prevOutcomeRoot: hashField(c, 'outcome_root'),
    encodedMerkleRoot: hashField(c, 'encoded_merkle_root'),
    encodedLength: Number(big(c, 'encoded_length')),
    heightCreated: Number(big(c, 'height_created')),
    shardId: Number(big(c, 'shard_id')),
    prevGasUsed: big(c, 'gas_used'),
    gasLimit: big(c, 'gas_limit'),
    prevBalanceBurnt: big(c, 'balance_burnt'),
    prevOutgoingReceiptsRoot: hashField(c, 'outgoing_receipts_root'),
    txRoot: hashField(c, 'tx_root'),
    prevValidatorProposals: ((c.validator_proposals ?? []) as Json[]).map((p) => ({
      accountId: String(p.account_id),
      publicKey: parsePublicKey(String(p.public_key)),
      stake: BigInt(p.stake as string),
    })),
    congestionInfo: congestion
      ? {
          delayedReceiptsGas: big(congestion, 'delayed_receipts_gas'),
          bufferedReceiptsGas: big(congestion, 'buffered_receipts_gas'),
          receiptBytes: big(congestion, 'receipt_bytes'),
          allowedShard: Number(congestion.allowed_shard),
        }
      : null,
    bandwidthRequests: bandwidth?.V1
      ? bandwidth.V1.requests.map((r) => ({
          toShard: r.to_shard,
          bitmap: Uint8Array.from(r.requested_values_bitmap.data),
        }))
      : null,
    proposedSplit: split
      ? {
          boundaryAccount: String(split.boundary_account),
          leftMemory: big(split, 'left_memory'),
          rightMemory: big(split, 'right_memory'),
        }
      : null,
  };
}

export function encodeChunkInnerView(c: Json, version: ChunkInnerVersion): Uint8Array | null {
  const fields = innerFields(c);
  // A view shows bandwidth requests from V4 on, as the untagged form's (nearlite's own) did.
  if (version !== ChunkInnerVersion.V2 && version !== ChunkInnerVersion.V3 && !fields.bandwidthRequests)
    return null;
  if (version !== ChunkInnerVersion.Untagged) return encodeShardChunkHeaderInner(fields, version);
  const { congestionInfo } = fields;
  if (!congestionInfo || fields.proposedSplit) return null;
  return encodeChunkHeaderInner({ ...fields, congestionInfo });
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
    if (inner && bytesEqual(combineHash(sha256(inner), root), expected)) return version;
  }
  return null;
}

/** Block::compute_chunk_headers_root over a block's chunk headers. */
export function chunkHeadersRoot(chunks: readonly Json[]): Uint8Array {
  return chainChunkHeadersRoot(
    chunks.map((c) => ({
      chunkHash: hashField(c, 'chunk_hash'),
      heightIncluded: Number(big(c, 'height_included')),
    })),
  );
}
