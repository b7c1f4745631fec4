// Produces block H on top of head P, nearcore's way round: the header (and so the hash) only
// depends on P and on the chunk headers, which report the results of applying P's chunks; block H's
// own chunks are applied after its hash is known.
import {
  BorshWriter,
  type CryptoHash,
  concatBytes,
  type PublicKey,
  type Signature,
  sha256,
  ZERO_HASH,
} from '@nearlite/primitives';
import type { BlockHeader } from './block_header.js';
import { computeBlockHash, innerRestHash, innerRestLayout } from './block_header.js';
import { merkleTreeRoot, type PartialMerkleTree } from './block_merkle_tree.js';
import {
  type ChunkExtra,
  type ChunkHeader,
  chunkHeadersRoot,
  computeChunkHash,
  encodeChunkHeaders,
} from './chunk.js';
import { type ChunkParts, chunkEncoding } from './chunk_encoding.js';
import { nextGasPrice } from './gas_price.js';
import type { GenesisConfig } from './genesis/config.js';
import type { Signer } from './genesis/keys.js';
import { merklizeHashes, merklizeLeaves } from './merkle.js';
import { computeBpHash } from './validators.js';

export interface ShardInput {
  readonly shardId: number;
  readonly prevExtra: ChunkExtra;
  readonly transactions: readonly Uint8Array[];
  /** Receipts produced by the previous chunk of this shard (carried for `chunk.receipts`). */
  readonly prevOutgoingReceipts: readonly Uint8Array[];
}

export interface ProduceInput {
  readonly config: GenesisConfig;
  readonly prev: BlockHeader;
  /** Above the parent's; more than one above skips heights (a sandbox fast-forward). */
  readonly height: number;
  readonly prevMerkleTree: PartialMerkleTree;
  readonly timestamp: bigint;
  readonly epochId: CryptoHash;
  readonly nextEpochId: CryptoHash;
  readonly lastFinalBlock: CryptoHash;
  readonly shards: readonly ShardInput[];
  readonly signer: Signer;
  /** How many Reed-Solomon parts a chunk is cut into (chunk_encoding.ts). */
  readonly chunkParts: ChunkParts;
  /** In the first block of an epoch: what the ended epoch minted (its rewards); otherwise 0. */
  readonly mintedAmount?: bigint;
  /** The next epoch's block producers, whose hash the header commits to; default: the genesis validators. */
  readonly nextBlockProducers?: readonly { accountId: string; publicKey: PublicKey; amount: bigint }[];
}

export interface ProducedBlock {
  readonly header: BlockHeader;
  readonly chunkHeaders: readonly ChunkHeader[];
}

/**
 * The message an approval signs (Approval::get_data_for_sig): borsh(ApprovalInner) ‖ u64 target
 * height, where the inner is Endorsement(parent hash) for the parent's next height and
 * Skip(parent height) above it.
 */
export function approvalMessage(prev: BlockHeader, targetHeight: number): Uint8Array {
  if (targetHeight === prev.lite.height + 1)
    return new BorshWriter(41).u8(0).fixed(prev.hash).u64(targetHeight).toBytes();
  return new BorshWriter(17).u8(1).u64(prev.lite.height).u64(targetHeight).toBytes();
}

/**
 * The header's approvals as nearcore's producer lists them (`get_epoch_block_approvers_ordered`): a
 * slot for each of the epoch's block producers, once each, from the list `next_bps` is made of (a
 * light client pairs the two), holding the approval of the one whose key signs here and `null` for
 * the others, who approve nothing on this node. The validator set is the genesis one in every
 * epoch, so an epoch's end brings no approver of its own. A signer that is none of them (no
 * validator's key) approves in the one slot.
 */
function approvals(
  producers: readonly { readonly accountId: string }[],
  signer: Signer,
  message: Uint8Array,
): (Signature | null)[] {
  const approvers = [...new Set(producers.map((v) => v.accountId))];
  if (!approvers.includes(signer.accountId)) return [signer.sign(message)];
  return approvers.map((id) => (id === signer.accountId ? signer.sign(message) : null));
}

export function produceBlockHeader(input: ProduceInput): ProducedBlock {
  const { config, prev, signer, height } = input;
  if (!(height > prev.lite.height)) throw new Error(`block height ${height} is not above its parent's`);
  const chunkHeaders: ChunkHeader[] = input.shards.map((s) => {
    const inner = {
      prevBlockHash: prev.hash,
      prevStateRoot: s.prevExtra.stateRoot,
      prevOutcomeRoot: s.prevExtra.outcomeRoot,
      ...chunkEncoding(s.transactions, s.prevOutgoingReceipts, input.chunkParts),
      heightCreated: height,
      shardId: s.shardId,
      prevGasUsed: s.prevExtra.gasUsed,
      gasLimit: config.gasLimit,
      prevBalanceBurnt: s.prevExtra.balanceBurnt,
      prevOutgoingReceiptsRoot: s.prevExtra.outgoingReceiptsRoot,
      txRoot: merklizeLeaves(s.transactions.map((t) => sha256(t))).root,
      prevValidatorProposals: s.prevExtra.validatorProposals,
      // The genesis chunks' extras carry none: their headers' zeros, allowed shard its own.
      congestionInfo: s.prevExtra.congestionInfo ?? {
        delayedReceiptsGas: 0n,
        bufferedReceiptsGas: 0n,
        receiptBytes: 0n,
        allowedShard: s.shardId,
      },
    };
    const chunkHash = computeChunkHash(inner);
    return { chunkHash, inner, heightIncluded: height, signature: signer.sign(chunkHash) };
  });

  let gasUsed = 0n;
  let gasLimit = 0n;
  let burnt = 0n;
  for (const c of chunkHeaders) {
    gasUsed += c.inner.prevGasUsed;
    gasLimit += c.inner.gasLimit;
    burnt += c.inner.prevBalanceBurnt;
  }
  const validators = input.nextBlockProducers ?? config.validators;
  const lite = {
    height,
    epochId: input.epochId,
    nextEpochId: input.nextEpochId,
    prevStateRoot: merklizeHashes(chunkHeaders.map((c) => c.inner.prevStateRoot)),
    prevOutcomeRoot: merklizeHashes(chunkHeaders.map((c) => c.inner.prevOutcomeRoot)),
    timestamp: input.timestamp,
    nextBpHash: computeBpHash(validators),
    blockMerkleRoot: merkleTreeRoot(input.prevMerkleTree),
  };
  const heightBytes = new BorshWriter(8).u64(height).toBytes();
  const rest = {
    blockBodyHash: sha256(encodeChunkHeaders(chunkHeaders)),
    chunkReceiptsRoot: merklizeHashes(chunkHeaders.map((c) => c.inner.prevOutgoingReceiptsRoot)),
    chunkHeadersRoot: chunkHeadersRoot(chunkHeaders),
    chunkTxRoot: merklizeHashes(chunkHeaders.map((c) => c.inner.txRoot)),
    challengesRoot: ZERO_HASH,
    randomValue: sha256(concatBytes(prev.rest.randomValue, heightBytes)),
    validatorProposals: chunkHeaders.flatMap((c) => c.inner.prevValidatorProposals),
    chunkMask: chunkHeaders.map(() => true),
    nextGasPrice: nextGasPrice(
      prev.rest.nextGasPrice,
      gasUsed,
      gasLimit,
      config.gasPriceAdjustmentRate,
      config.minGasPrice,
      config.maxGasPrice,
    ),
    totalSupply: prev.rest.totalSupply + (input.mintedAmount ?? 0n) - burnt,
    lastFinalBlock: input.lastFinalBlock,
    // Doomslug finality needs consecutive heights: a block that skips inherits its parent's.
    lastDsFinalBlock: height === prev.lite.height + 1 ? prev.hash : prev.rest.lastDsFinalBlock,
    blockOrdinal: prev.rest.blockOrdinal + 1,
    prevHeight: prev.lite.height,
    approvals: approvals(validators, signer, approvalMessage(prev, height)),
    latestProtocolVersion: config.protocolVersion,
    layout: innerRestLayout(config.protocolVersion),
    chunkEndorsements: chunkHeaders.map(() => Uint8Array.of(1)),
  };
  const hash = computeBlockHash(prev.hash, lite, innerRestHash(rest));
  return { header: { hash, prevHash: prev.hash, lite, rest, signature: signer.sign(hash) }, chunkHeaders };
}
