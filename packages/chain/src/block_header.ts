// Block headers: the lite part (what light clients hash), the rest, and the stored record.
// hash = combine(combine(sha256(borsh(inner_lite)), sha256(borsh(inner_rest))), prev_hash), as in
// nearcore's BlockHeader::compute_hash, so a light client can recompute it from `block_header_lite`.
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
  w.fixed(x.blockBodyHash)
    .fixed(x.chunkReceiptsRoot)
    .fixed(x.chunkHeadersRoot)
    .fixed(x.chunkTxRoot)
    .fixed(x.challengesRoot)
    .fixed(x.randomValue)
    .vec(x.validatorProposals, writeValidatorStake)
    .vec(x.chunkMask, (w, b) => w.bool(b))
    .u128(x.nextGasPrice)
    .u128(x.totalSupply)
    .u32(0) // challenges_result: always empty
    .fixed(x.lastFinalBlock)
    .fixed(x.lastDsFinalBlock)
    .u64(x.blockOrdinal)
    .u64(x.prevHeight)
    .u8(0) // epoch_sync_data_hash: None
    .vec(x.approvals, (w, s) => w.option(s, writeSignature))
    .u32(x.latestProtocolVersion)
    .vec(x.chunkEndorsements, (w, b) => w.bytes(b));
  return w.toBytes();
}

function readInnerRest(r: BorshReader): BlockHeaderInnerRest {
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

/** Stored form: hash ‖ prev_hash ‖ inner_lite ‖ inner_rest ‖ signature. */
export function encodeBlockHeader(h: BlockHeader): Uint8Array {
  const w = new BorshWriter(1024);
  w.fixed(h.hash).fixed(h.prevHash).fixed(encodeInnerLite(h.lite)).fixed(encodeInnerRest(h.rest));
  writeSignature(w, h.signature);
  return w.toBytes();
}

export function decodeBlockHeader(bytes: Uint8Array): BlockHeader {
  const r = new BorshReader(bytes);
  const hash = r.fixed(32);
  const prevHash = r.fixed(32);
  const lite = readInnerLite(r);
  const rest = readInnerRest(r);
  const signature = readSignature(r);
  r.end();
  return { hash, prevHash, lite, rest, signature };
}
