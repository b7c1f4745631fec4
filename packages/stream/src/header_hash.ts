// Recomputes a block hash from its `BlockHeaderView`, as nearcore's BlockHeader::compute_hash does:
// hash = combine(combine(sha256(borsh(inner_lite)), sha256(borsh(inner_rest))), prev_hash).
// The view does not say which inner_rest layout the producer used: nearcore picks it from the epoch's
// protocol version (core/primitives/src/block_header.rs), which the view does not carry either. The
// layout is chosen from `latest_protocol_version` and the fields present; the neighbouring layouts are
// tried next, since a producer's latest version may run ahead of its epoch's. A match under any layout
// is a sha256 preimage match, so trying several does not weaken the check.
// From protocol 85 (DynamicResharding) nearcore hashes BlockHeaderInnerRestV6: V5's fields less the
// retired challenges_root and challenges_result, then `shard_split: Option<(ShardId, AccountId)>`,
// which the last block of an epoch sets from one of its chunks' proposed splits. A view that does
// not show the split is tried with none and then with each chunk's proposal.
import { INNER_REST_V6_FROM } from '@nearlite/chain';
import {
  BorshWriter,
  base58Decode,
  bytesEqual,
  combineHash,
  parsePublicKey,
  type Signature,
  sha256,
  writePublicKey,
  writeSignature,
} from '@nearlite/primitives';
import { HeaderViewError } from './header_errors.js';
import { parseSignatureText } from './signature.js';

export const HeaderLayout = { V1: 1, V2: 2, V3: 3, V4: 4, V5: 5, V6: 6 } as const;
export type HeaderLayout = (typeof HeaderLayout)[keyof typeof HeaderLayout];

/**
 * First protocol versions of nearcore's BlockHeaderV3, V4, V5 (ChunkEndorsementsInBlockHeader) and
 * BlockHeaderInnerRestV6 (DynamicResharding).
 */
const V3_FROM = 49;
const V4_FROM = 63;
const V5_FROM = 69;
const V6_FROM = INNER_REST_V6_FROM;

/** `shard_split` of a V6 header: the shard to split and the boundary account. */
export interface ShardSplit {
  readonly shardId: bigint;
  readonly boundaryAccount: string;
}

type Json = Record<string, unknown>;

function hash32(h: Json, field: string): Uint8Array {
  const v = h[field];
  if (typeof v !== 'string') throw new HeaderViewError(`header field ${field} is missing`);
  const bytes = base58Decode(v);
  if (bytes.length !== 32) throw new HeaderViewError(`header field ${field} is not a 32-byte hash`);
  return bytes;
}

function u128(h: Json, field: string): bigint {
  const v = h[field];
  if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'bigint') {
    throw new HeaderViewError(`header field ${field} is missing`);
  }
  return BigInt(v);
}

function u64(h: Json, field: string): bigint {
  const v = h[field];
  if (v === undefined || v === null) throw new HeaderViewError(`header field ${field} is missing`);
  return BigInt(v as number | string | bigint);
}

/** The exact timestamp: `timestamp_nanosec` survives JavaScript's number precision, `timestamp` may not. */
function timestamp(h: Json): bigint {
  return h.timestamp_nanosec !== undefined ? u64(h, 'timestamp_nanosec') : u64(h, 'timestamp');
}

export function encodeInnerLiteView(h: Json): Uint8Array {
  return new BorshWriter(208)
    .u64(u64(h, 'height'))
    .fixed(hash32(h, 'epoch_id'))
    .fixed(hash32(h, 'next_epoch_id'))
    .fixed(hash32(h, 'prev_state_root'))
    .fixed(hash32(h, 'outcome_root'))
    .u64(timestamp(h))
    .fixed(hash32(h, 'next_bp_hash'))
    .fixed(hash32(h, 'block_merkle_root'))
    .toBytes();
}

function writeProposals(w: BorshWriter, h: Json, versioned: boolean): void {
  const list = (h.validator_proposals ?? []) as Json[];
  w.u32(list.length);
  for (const p of list) {
    if (versioned) {
      const version = p.validator_stake_struct_version ?? 'V1';
      if (version !== 'V1') throw new HeaderViewError(`unknown validator stake version ${String(version)}`);
      w.u8(0);
    }
    w.string(String(p.account_id));
    writePublicKey(w, parsePublicKey(String(p.public_key)));
    w.u128(BigInt(p.stake as string));
  }
}

function writeChallengesResult(w: BorshWriter, h: Json): void {
  const list = (h.challenges_result ?? []) as Json[];
  w.u32(list.length);
  for (const s of list) w.string(String(s.account_id)).bool(Boolean(s.is_double_sign));
}

function writeApprovals(w: BorshWriter, h: Json): void {
  const list = (h.approvals ?? []) as (string | null)[];
  w.u32(list.length);
  for (const a of list) {
    w.option<Signature>(a === null ? null : parseSignatureText(a), writeSignature);
  }
}

export function encodeInnerRestView(
  h: Json,
  layout: HeaderLayout,
  shardSplit: ShardSplit | null = null,
): Uint8Array {
  const w = new BorshWriter(1024);
  if (layout >= HeaderLayout.V4) w.fixed(hash32(h, 'block_body_hash'));
  w.fixed(hash32(h, 'chunk_receipts_root'))
    .fixed(hash32(h, 'chunk_headers_root'))
    .fixed(hash32(h, 'chunk_tx_root'));
  if (layout === HeaderLayout.V1) w.u64(u64(h, 'chunks_included'));
  if (layout < HeaderLayout.V6) w.fixed(hash32(h, 'challenges_root'));
  w.fixed(hash32(h, 'random_value'));
  writeProposals(w, h, layout >= HeaderLayout.V3);
  const mask = (h.chunk_mask ?? []) as boolean[];
  w.vec(mask, (w, b) => w.bool(b));
  w.u128(u128(h, 'gas_price')).u128(u128(h, 'total_supply'));
  if (layout < HeaderLayout.V6) writeChallengesResult(w, h);
  w.fixed(hash32(h, 'last_final_block')).fixed(hash32(h, 'last_ds_final_block'));
  if (layout >= HeaderLayout.V3) {
    w.u64(u64(h, 'block_ordinal')).u64(u64(h, 'prev_height'));
    const esd = h.epoch_sync_data_hash;
    w.option(esd === null || esd === undefined ? null : hash32(h, 'epoch_sync_data_hash'), (w, v) =>
      w.fixed(v),
    );
  }
  writeApprovals(w, h);
  w.u32(Number(h.latest_protocol_version));
  if (layout >= HeaderLayout.V5) {
    const endorsements = (h.chunk_endorsements ?? []) as number[][];
    w.vec(endorsements, (w, e) => w.bytes(Uint8Array.from(e)));
  }
  if (layout === HeaderLayout.V6) {
    w.option(shardSplit, (w, s) => w.u64(s.shardId).string(s.boundaryAccount));
  }
  return w.toBytes();
}

export function computeHeaderHash(
  h: Json,
  layout: HeaderLayout,
  shardSplit: ShardSplit | null = null,
): Uint8Array {
  const inner = combineHash(
    sha256(encodeInnerLiteView(h)),
    sha256(encodeInnerRestView(h, layout, shardSplit)),
  );
  return combineHash(inner, hash32(h, 'prev_hash'));
}

/**
 * The splits a V6 header may carry: the one its view shows (`shard_split`, `[shard_id, account]`),
 * or, when the view has no such field, none and then each chunk's proposed split.
 */
export function shardSplitCandidates(h: Json, chunks: readonly Json[] = []): (ShardSplit | null)[] {
  const shown = h.shard_split;
  if (shown !== undefined) {
    if (shown === null) return [null];
    if (!Array.isArray(shown) || shown.length !== 2 || typeof shown[1] !== 'string') {
      throw new HeaderViewError('header field shard_split is not null or [shard_id, account_id]');
    }
    return [{ shardId: BigInt(shown[0] as number | string), boundaryAccount: shown[1] }];
  }
  const out: (ShardSplit | null)[] = [null];
  for (const c of chunks) {
    const split = c.proposed_split as Json | null | undefined;
    if (split && typeof split.boundary_account === 'string' && c.shard_id !== undefined) {
      out.push({ shardId: BigInt(c.shard_id as number), boundaryAccount: split.boundary_account });
    }
  }
  return out;
}

/** Layouts to try, most likely first. */
export function candidateLayouts(h: Json): HeaderLayout[] {
  const v = Number(h.latest_protocol_version);
  const hasBody = typeof h.block_body_hash === 'string';
  const hasOrdinal = h.block_ordinal !== undefined && h.block_ordinal !== null && h.prev_height != null;
  let first: HeaderLayout;
  if (v <= 29) first = HeaderLayout.V1;
  else if (v < V3_FROM) first = HeaderLayout.V2;
  else if (v < V4_FROM) first = HeaderLayout.V3;
  else if (v < V5_FROM) first = HeaderLayout.V4;
  else if (v < V6_FROM) first = HeaderLayout.V5;
  else first = HeaderLayout.V6;
  const all: HeaderLayout[] = [first];
  for (const l of [
    HeaderLayout.V6,
    HeaderLayout.V5,
    HeaderLayout.V4,
    HeaderLayout.V3,
    HeaderLayout.V2,
    HeaderLayout.V1,
  ]) {
    if (l !== first) all.push(l);
  }
  return all.filter((l) => (l < HeaderLayout.V4 || hasBody) && (l < HeaderLayout.V3 || hasOrdinal));
}

/**
 * The layout under which the view's `hash` verifies, or null when none does. `chunks`, the block's
 * chunk headers, name the splits a V6 header may carry when its view does not show one.
 */
export function verifiedHeaderLayout(h: Json, chunks?: readonly Json[]): HeaderLayout | null {
  const expected = hash32(h, 'hash');
  for (const layout of candidateLayouts(h)) {
    const splits = layout === HeaderLayout.V6 ? shardSplitCandidates(h, chunks) : [null];
    for (const split of splits) {
      let got: Uint8Array;
      try {
        got = computeHeaderHash(h, layout, split);
      } catch (err) {
        if (err instanceof HeaderViewError) continue;
        throw err;
      }
      if (bytesEqual(got, expected)) return layout;
    }
  }
  return null;
}
