import { base58Encode, type CryptoHash, formatSignature, stringifyJson, u64View } from '@nearlite/primitives';
import type { BlockHeader } from '../block_header.js';
import type { ChunkHeader } from '../chunk.js';
import { validatorStakeView } from '../validator_stake.js';

const b58 = (h: CryptoHash) => base58Encode(h);

export function blockHeaderView(h: BlockHeader): Record<string, unknown> {
  const { lite, rest } = h;
  return {
    height: lite.height,
    prev_height: rest.prevHeight,
    epoch_id: b58(lite.epochId),
    next_epoch_id: b58(lite.nextEpochId),
    hash: b58(h.hash),
    prev_hash: b58(h.prevHash),
    prev_state_root: b58(lite.prevStateRoot),
    block_body_hash: b58(rest.blockBodyHash),
    chunk_receipts_root: b58(rest.chunkReceiptsRoot),
    chunk_headers_root: b58(rest.chunkHeadersRoot),
    chunk_tx_root: b58(rest.chunkTxRoot),
    outcome_root: b58(lite.prevOutcomeRoot),
    chunks_included: rest.chunkMask.filter(Boolean).length,
    challenges_root: b58(rest.challengesRoot),
    timestamp: lite.timestamp,
    timestamp_nanosec: lite.timestamp.toString(),
    random_value: b58(rest.randomValue),
    validator_proposals: rest.validatorProposals.map(validatorStakeView),
    chunk_mask: rest.chunkMask,
    gas_price: rest.nextGasPrice.toString(),
    block_ordinal: rest.blockOrdinal,
    rent_paid: '0',
    validator_reward: '0',
    total_supply: rest.totalSupply.toString(),
    challenges_result: [],
    last_final_block: b58(rest.lastFinalBlock),
    last_ds_final_block: b58(rest.lastDsFinalBlock),
    next_bp_hash: b58(lite.nextBpHash),
    block_merkle_root: b58(lite.blockMerkleRoot),
    epoch_sync_data_hash: null,
    approvals: rest.approvals.map((a) => (a ? formatSignature(a) : null)),
    signature: formatSignature(h.signature),
    latest_protocol_version: rest.latestProtocolVersion,
    chunk_endorsements: rest.chunkEndorsements.length > 0 ? rest.chunkEndorsements.map((e) => [...e]) : null,
    shard_split: null,
  };
}

export function chunkHeaderView(c: ChunkHeader): Record<string, unknown> {
  const i = c.inner;
  return {
    chunk_hash: b58(c.chunkHash),
    prev_block_hash: b58(i.prevBlockHash),
    outcome_root: b58(i.prevOutcomeRoot),
    prev_state_root: b58(i.prevStateRoot),
    encoded_merkle_root: b58(i.encodedMerkleRoot),
    encoded_length: i.encodedLength,
    height_created: i.heightCreated,
    height_included: c.heightIncluded,
    shard_id: i.shardId,
    gas_used: u64View(i.prevGasUsed),
    gas_limit: u64View(i.gasLimit),
    rent_paid: '0',
    validator_reward: '0',
    balance_burnt: i.prevBalanceBurnt.toString(),
    outgoing_receipts_root: b58(i.prevOutgoingReceiptsRoot),
    tx_root: b58(i.txRoot),
    validator_proposals: i.prevValidatorProposals.map(validatorStakeView),
    congestion_info: {
      delayed_receipts_gas: i.congestionInfo.delayedReceiptsGas.toString(),
      buffered_receipts_gas: i.congestionInfo.bufferedReceiptsGas.toString(),
      receipt_bytes: u64View(i.congestionInfo.receiptBytes),
      allowed_shard: i.congestionInfo.allowedShard,
    },
    bandwidth_requests: { V1: { requests: [] } },
    signature: formatSignature(c.signature),
  };
}

/** The block's author in views: the producer, which on this single-validator chain is the first genesis validator. */
export function blockAuthor(config: {
  readonly validators: readonly { readonly accountId: string }[];
}): string {
  return config.validators[0]?.accountId ?? '';
}

export function blockView(
  author: string,
  h: BlockHeader,
  chunks: readonly ChunkHeader[],
): Record<string, unknown> {
  return { author, header: blockHeaderView(h), chunks: chunks.map(chunkHeaderView) };
}

/** The `block` result as JSON text: built once, when the block is produced, and stored with it. */
export function blockViewJson(author: string, h: BlockHeader, chunks: readonly ChunkHeader[]): string {
  return stringifyJson(blockView(author, h, chunks));
}
