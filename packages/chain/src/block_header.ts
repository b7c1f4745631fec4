// Block headers: the lite part (what light clients hash), the rest, and the stored record.
// hash = combine(combine(sha256(borsh(inner_lite)), sha256(borsh(inner_rest))), prev_hash), as in
// nearcore's BlockHeader::compute_hash, so a light client can recompute it from `block_header_lite`.
// inner_rest is nearcore's BlockHeaderInnerRestV5 before protocol 85 and BlockHeaderInnerRestV6 from
// it (DynamicResharding): V5's fields less the retired challenges_root and challenges_result, then a
// `shard_split` option. nearlite's shard layout is static, so its split is always None.
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
import { readValidatorStake, type ValidatorStake, writeValidatorStake } from './validator_stake.js';

export interface BlockHeaderInnerLite {
  readonly height: number;
  readonly epochId: CryptoHash;
  readonly nextEpochId: CryptoHash;
  readonly prevStateRoot: CryptoHash;
  readonly prevOutcomeRoot: CryptoHash;
  readonly timestamp: bigint;
  readonly nextBpHash: CryptoHash;
  readonly blockMerkleRoot: CryptoHash;
}

export interface BlockHeaderInnerRest {
  readonly blockBodyHash: CryptoHash;
  readonly chunkReceiptsRoot: CryptoHash;
  readonly chunkHeadersRoot: CryptoHash;
  readonly chunkTxRoot: CryptoHash;
  readonly challengesRoot: CryptoHash;
  readonly randomValue: CryptoHash;
  readonly validatorProposals: readonly ValidatorStake[];
  readonly chunkMask: readonly boolean[];
  readonly nextGasPrice: bigint;
  readonly totalSupply: bigint;
  readonly lastFinalBlock: CryptoHash;
  readonly lastDsFinalBlock: CryptoHash;
  readonly blockOrdinal: number;
  readonly prevHeight: number;
  readonly approvals: readonly (Signature | null)[];
  readonly latestProtocolVersion: number;
  readonly chunkEndorsements: readonly Uint8Array[];
  /** Which BlockHeaderInnerRest the hash was taken over; blocks stored before V6 keep V5. */
  readonly layout: InnerRestLayout;
}

export type InnerRestLayout = 5 | 6;

/** First protocol version whose headers hash BlockHeaderInnerRestV6 (DynamicResharding). */
export const INNER_REST_V6_FROM = 85;

export function innerRestLayout(protocolVersion: number): InnerRestLayout {
  return protocolVersion >= INNER_REST_V6_FROM ? 6 : 5;
}

export interface BlockHeader {
  readonly hash: CryptoHash;
  readonly prevHash: CryptoHash;
  readonly lite: BlockHeaderInnerLite;
  readonly rest: BlockHeaderInnerRest;
  readonly signature: Signature;
}

export function encodeInnerLite(l: BlockHeaderInnerLite): Uint8Array {
  return new BorshWriter(208)
    .u64(l.height)
    .fixed(l.epochId)
    .fixed(l.nextEpochId)
    .fixed(l.prevStateRoot)
    .fixed(l.prevOutcomeRoot)
    .u64(l.timestamp)
    .fixed(l.nextBpHash)
    .fixed(l.blockMerkleRoot)
    .toBytes();
}

function readInnerLite(r: BorshReader): BlockHeaderInnerLite {
  return {
    height: Number(r.u64()),
    epochId: r.fixed(32),
    nextEpochId: r.fixed(32),
    prevStateRoot: r.fixed(32),
    prevOutcomeRoot: r.fixed(32),
    timestamp: r.u64(),
    nextBpHash: r.fixed(32),
    blockMerkleRoot: r.fixed(32),
  };
}

export function encodeInnerRest(x: BlockHeaderInnerRest): Uint8Array {
  const w = new BorshWriter(512);
  writeInnerRest(w, x, x.layout);
  return w.toBytes();
}

/** nearcore's field order; `layout` 5 as stored records keep it, whatever the block's layout. */
function writeInnerRest(w: BorshWriter, x: BlockHeaderInnerRest, layout: InnerRestLayout): void {
  w.fixed(x.blockBodyHash).fixed(x.chunkReceiptsRoot).fixed(x.chunkHeadersRoot).fixed(x.chunkTxRoot);
  if (layout === 5) w.fixed(x.challengesRoot);
  w.fixed(x.randomValue)
    .vec(x.validatorProposals, writeValidatorStake)
    .vec(x.chunkMask, (w, b) => w.bool(b))
    .u128(x.nextGasPrice)
    .u128(x.totalSupply);
  if (layout === 5) w.u32(0); // challenges_result: always empty
  w.fixed(x.lastFinalBlock)
    .fixed(x.lastDsFinalBlock)
    .u64(x.blockOrdinal)
    .u64(x.prevHeight)
    .u8(0) // epoch_sync_data_hash: None
    .vec(x.approvals, (w, s) => w.option(s, writeSignature))
    .u32(x.latestProtocolVersion)
    .vec(x.chunkEndorsements, (w, b) => w.bytes(b));
  if (layout === 6) w.u8(0); // shard_split: None
}

function readInnerRest(r: BorshReader): Omit<BlockHeaderInnerRest, 'layout'> {
  const blockBodyHash = r.fixed(32);
  const chunkReceiptsRoot = r.fixed(32);
  const chunkHeadersRoot = r.fixed(32);
  const chunkTxRoot = r.fixed(32);
  const challengesRoot = r.fixed(32);
  const randomValue = r.fixed(32);
  const validatorProposals = r.vec(readValidatorStake);
  const chunkMask = r.vec((r) => r.bool());
  const nextGasPrice = r.u128();
  const totalSupply = r.u128();
  r.u32();
  const lastFinalBlock = r.fixed(32);
  const lastDsFinalBlock = r.fixed(32);
  const blockOrdinal = Number(r.u64());
  const prevHeight = Number(r.u64());
  r.u8();
  const approvals = r.vec((r) => r.option(readSignature));
  const latestProtocolVersion = r.u32();
  const chunkEndorsements = r.vec((r) => r.bytes());
  return {
    blockBodyHash,
    chunkReceiptsRoot,
    chunkHeadersRoot,
    chunkTxRoot,
    challengesRoot,
    randomValue,
    validatorProposals,
    chunkMask,
    nextGasPrice,
    totalSupply,
    lastFinalBlock,
    lastDsFinalBlock,
    blockOrdinal,
    prevHeight,
    approvals,
    latestProtocolVersion,
    chunkEndorsements,
  };
}

export function innerRestHash(rest: BlockHeaderInnerRest): CryptoHash {
  return sha256(encodeInnerRest(rest));
}

export function computeBlockHash(
  prevHash: CryptoHash,
  lite: BlockHeaderInnerLite,
  restHash: CryptoHash,
): CryptoHash {
  return combineHash(combineHash(sha256(encodeInnerLite(lite)), restHash), prevHash);
}

/**
 * Stored form: hash ‖ prev_hash ‖ inner_lite ‖ inner_rest in V5's fields ‖ signature ‖ layout. The
 * trailing layout byte is written for V6 only, so the records stored before it still read as V5.
 */
export function encodeBlockHeader(h: BlockHeader): Uint8Array {
  const w = new BorshWriter(1024);
  w.fixed(h.hash).fixed(h.prevHash).fixed(encodeInnerLite(h.lite));
  writeInnerRest(w, h.rest, 5);
  writeSignature(w, h.signature);
  if (h.rest.layout === 6) w.u8(6);
  return w.toBytes();
}

export function decodeBlockHeader(bytes: Uint8Array): BlockHeader {
  const r = new BorshReader(bytes);
  const hash = r.fixed(32);
  const prevHash = r.fixed(32);
  const lite = readInnerLite(r);
  const fields = readInnerRest(r);
  const signature = readSignature(r);
  const layout: InnerRestLayout = r.remaining > 0 ? storedLayout(r.u8()) : 5;
  r.end();
  return { hash, prevHash, lite, rest: { ...fields, layout }, signature };
}

function storedLayout(tag: number): InnerRestLayout {
  if (tag !== 6) throw new RangeError(`unknown block header layout ${tag}`);
  return 6;
}
