// Chunks: one per shard per block. As in nearcore, the header of the chunk in block H carries the
// results of applying the previous chunk of its shard (prev_state_root, outcome_root, gas_used,
// balance_burnt, outgoing_receipts_root); the chunk's own transactions are applied when block H is.
import {
  BorshReader,
  BorshWriter,
  type CryptoHash,
  combineHash,
  readSignature,
  type Signature,
  sha256,
  writeSignature,
} from '@nearlite/primitives';
import { merklizeLeaves } from './merkle.js';
import { readValidatorStake, type ValidatorStake, writeValidatorStake } from './validator_stake.js';

export interface CongestionInfo {
  readonly delayedReceiptsGas: bigint;
  readonly bufferedReceiptsGas: bigint;
  readonly receiptBytes: bigint;
  readonly allowedShard: number;
}

export interface ChunkHeaderInner {
  readonly prevBlockHash: CryptoHash;
  readonly prevStateRoot: CryptoHash;
  readonly prevOutcomeRoot: CryptoHash;
  readonly encodedMerkleRoot: CryptoHash;
  readonly encodedLength: number;
  readonly heightCreated: number;
  readonly shardId: number;
  readonly prevGasUsed: bigint;
  readonly gasLimit: bigint;
  readonly prevBalanceBurnt: bigint;
  readonly prevOutgoingReceiptsRoot: CryptoHash;
  readonly txRoot: CryptoHash;
  readonly prevValidatorProposals: readonly ValidatorStake[];
  readonly congestionInfo: CongestionInfo;
}

export interface ChunkHeader {
  readonly chunkHash: CryptoHash;
  readonly inner: ChunkHeaderInner;
  readonly heightIncluded: number;
  readonly signature: Signature;
}

export function encodeChunkHeaderInner(c: ChunkHeaderInner): Uint8Array {
  return writeInner(c, null);
}

/** BandwidthRequest: a shard and its 40-bit bitmap of requested values. */
export interface BandwidthRequest {
  readonly toShard: number;
  readonly bitmap: Uint8Array;
}

/** nearcore's TrieSplit (core/primitives/src/trie_split.rs), a V5 chunk's proposed split. */
export interface TrieSplit {
  readonly boundaryAccount: string;
  readonly leftMemory: bigint;
  readonly rightMemory: bigint;
}

/**
 * A chunk header's inner as any version of nearcore's holds it: no congestion info before V3, no
 * bandwidth requests before V4, no proposed split before V5. The node's own chunks have no requests
 * and no split.
 */
export type ShardChunkHeaderInnerFields = Omit<ChunkHeaderInner, 'congestionInfo'> & {
  readonly congestionInfo: CongestionInfo | null;
  readonly bandwidthRequests?: readonly BandwidthRequest[] | null;
  readonly proposedSplit?: TrieSplit | null;
};

/** ShardChunkHeaderInner's versions a hash is taken over (borsh tag = version − 1). */
export type ShardChunkHeaderInnerVersion = 2 | 3 | 4 | 5;

/**
 * borsh(ShardChunkHeaderInner) as nearcore writes it: V5 (tag 4) from protocol 85
 * (DynamicResharding), V4 from 74, V3 from 68, V2 from 41; null when the fields do not fit the
 * version (congestion info before V3, say).
 */
export function encodeShardChunkHeaderInner(
  c: ShardChunkHeaderInnerFields,
  version: ShardChunkHeaderInnerVersion = 5,
): Uint8Array | null {
  const fits =
    (c.congestionInfo !== null) === version >= 3 &&
    (version >= 4 || (c.bandwidthRequests ?? null) === null) &&
    (version === 5 || (c.proposedSplit ?? null) === null);
  return fits ? writeInner(c, version) : null;
}

/**
 * The fields in nearcore's order. The stored form (`version` null) leaves out the enum tags
 * nearcore's borsh writes (the inner's version, the congestion info's and the bandwidth requests');
 * the hash commits to them.
 */
function writeInner(
  c: ShardChunkHeaderInnerFields,
  version: ShardChunkHeaderInnerVersion | null,
): Uint8Array {
  const tagged = version !== null;
  const w = new BorshWriter(512);
  if (tagged) w.u8(version - 1);
  w.fixed(c.prevBlockHash)
    .fixed(c.prevStateRoot)
    .fixed(c.prevOutcomeRoot)
    .fixed(c.encodedMerkleRoot)
    .u64(c.encodedLength)
    .u64(c.heightCreated)
    .u64(c.shardId)
    .u64(c.prevGasUsed)
    .u64(c.gasLimit)
    .u128(c.prevBalanceBurnt)
    .fixed(c.prevOutgoingReceiptsRoot)
    .fixed(c.txRoot)
    .vec(c.prevValidatorProposals, writeValidatorStake);
  const ci = c.congestionInfo;
  if (ci) {
    if (tagged) w.u8(0); // CongestionInfo::V1
    w.u128(ci.delayedReceiptsGas).u128(ci.bufferedReceiptsGas).u64(ci.receiptBytes).u16(ci.allowedShard);
  }
  if (!tagged || version >= 4) {
    if (tagged) w.u8(0); // BandwidthRequests::V1
    w.vec(c.bandwidthRequests ?? [], (w, r) => w.u16(r.toShard).fixed(r.bitmap));
  }
  if (version === 5) {
    const split = c.proposedSplit;
    if (split) w.u8(1).string(split.boundaryAccount).u64(split.leftMemory).u64(split.rightMemory);
    else w.u8(0);
  }
  return w.toBytes();
}

function readChunkHeaderInner(r: BorshReader): ChunkHeaderInner {
  const inner: ChunkHeaderInner = {
    prevBlockHash: r.fixed(32),
    prevStateRoot: r.fixed(32),
    prevOutcomeRoot: r.fixed(32),
    encodedMerkleRoot: r.fixed(32),
    encodedLength: Number(r.u64()),
    heightCreated: Number(r.u64()),
    shardId: Number(r.u64()),
    prevGasUsed: r.u64(),
    gasLimit: r.u64(),
    prevBalanceBurnt: r.u128(),
    prevOutgoingReceiptsRoot: r.fixed(32),
    txRoot: r.fixed(32),
    prevValidatorProposals: r.vec(readValidatorStake),
    congestionInfo: {
      delayedReceiptsGas: r.u128(),
      bufferedReceiptsGas: r.u128(),
      receiptBytes: r.u64(),
      allowedShard: r.u16(),
    },
  };
  r.u32();
  return inner;
}

/** nearcore's ShardChunkHeaderV3::compute_hash: combine(sha256(borsh(inner)), encoded_merkle_root). */
export function computeChunkHash(inner: ChunkHeaderInner): CryptoHash {
  return combineHash(sha256(encodeShardChunkHeaderInner(inner)!), inner.encodedMerkleRoot);
}

/** Block::compute_chunk_headers_root: the merkle root of each chunk's ChunkHashHeight. */
export function chunkHeadersRoot(
  headers: readonly { readonly chunkHash: CryptoHash; readonly heightIncluded: number }[],
): CryptoHash {
  return merklizeLeaves(
    headers.map((c) => sha256(new BorshWriter(40).fixed(c.chunkHash).u64(c.heightIncluded).toBytes())),
  ).root;
}

export function writeChunkHeader(w: BorshWriter, h: ChunkHeader): void {
  w.fixed(h.chunkHash).bytes(encodeChunkHeaderInner(h.inner)).u64(h.heightIncluded);
  writeSignature(w, h.signature);
}

export function readChunkHeader(r: BorshReader): ChunkHeader {
  const chunkHash = r.fixed(32);
  const inner = readChunkHeaderInner(new BorshReader(r.bytes()));
  return { chunkHash, inner, heightIncluded: Number(r.u64()), signature: readSignature(r) };
}

/** A stored chunk: its header, the raw borsh of its transactions and of the receipts it carries. */
export interface Chunk {
  readonly header: ChunkHeader;
  readonly transactions: readonly Uint8Array[];
  readonly prevOutgoingReceipts: readonly Uint8Array[];
}

export function encodeChunk(c: Chunk): Uint8Array {
  const w = new BorshWriter(1024);
  writeChunkHeader(w, c.header);
  w.vec(c.transactions, (w, t) => w.bytes(t));
  w.vec(c.prevOutgoingReceipts, (w, t) => w.bytes(t));
  return w.toBytes();
}

export function decodeChunk(bytes: Uint8Array): Chunk {
  const r = new BorshReader(bytes);
  const header = readChunkHeader(r);
  const transactions = r.vec((r) => r.bytes());
  const prevOutgoingReceipts = r.vec((r) => r.bytes());
  r.end();
  return { header, transactions, prevOutgoingReceipts };
}

/** The chunk header list of a block, stored as the block body. */
export function encodeChunkHeaders(headers: readonly ChunkHeader[]): Uint8Array {
  const w = new BorshWriter(512 * headers.length + 4);
  w.vec(headers, writeChunkHeader);
  return w.toBytes();
}

export function decodeChunkHeaders(bytes: Uint8Array): ChunkHeader[] {
  const r = new BorshReader(bytes);
  const out = r.vec(readChunkHeader);
  r.end();
  return out;
}

/** The result of applying a chunk: the state and outcomes the next chunk of the shard reports. */
export interface ChunkExtra {
  readonly stateRoot: CryptoHash;
  readonly outcomeRoot: CryptoHash;
  readonly gasUsed: bigint;
  readonly gasLimit: bigint;
  readonly balanceBurnt: bigint;
  readonly outgoingReceiptsRoot: CryptoHash;
  readonly validatorProposals: readonly ValidatorStake[];
  /**
   * The shard's congestion info after the chunk, which the next chunk's header reports. Absent for
   * the genesis chunks and in extras stored before it was kept: the header's zeros then.
   */
  readonly congestionInfo?: CongestionInfo;
}

export function encodeChunkExtra(e: ChunkExtra): Uint8Array {
  const w = new BorshWriter(256)
    .fixed(e.stateRoot)
    .fixed(e.outcomeRoot)
    .u64(e.gasUsed)
    .u64(e.gasLimit)
    .u128(e.balanceBurnt)
    .fixed(e.outgoingReceiptsRoot)
    .vec(e.validatorProposals, writeValidatorStake);
  const c = e.congestionInfo;
  if (c) w.u128(c.delayedReceiptsGas).u128(c.bufferedReceiptsGas).u64(c.receiptBytes).u16(c.allowedShard);
  return w.toBytes();
}

export function decodeChunkExtra(bytes: Uint8Array): ChunkExtra {
  const r = new BorshReader(bytes);
  const e = {
    stateRoot: r.fixed(32),
    outcomeRoot: r.fixed(32),
    gasUsed: r.u64(),
    gasLimit: r.u64(),
    balanceBurnt: r.u128(),
    outgoingReceiptsRoot: r.fixed(32),
    validatorProposals: r.vec(readValidatorStake),
  };
  if (r.remaining === 0) return e;
  const congestionInfo = {
    delayedReceiptsGas: r.u128(),
    bufferedReceiptsGas: r.u128(),
    receiptBytes: r.u64(),
    allowedShard: r.u16(),
  };
  r.end();
  return { ...e, congestionInfo };
}
