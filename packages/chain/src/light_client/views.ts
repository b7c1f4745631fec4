// nearcore's light-client view shapes: BlockHeaderInnerLiteView and LightClientBlockLiteView.
import { base58Encode } from '@nearlite/primitives';
import { type BlockHeader, innerRestHash } from '../block_header.js';

export function innerLiteView(h: BlockHeader): object {
  const l = h.lite;
  return {
    height: l.height,
    epoch_id: base58Encode(l.epochId),
    next_epoch_id: base58Encode(l.nextEpochId),
    prev_state_root: base58Encode(l.prevStateRoot),
    outcome_root: base58Encode(l.prevOutcomeRoot),
    timestamp: l.timestamp,
    timestamp_nanosec: l.timestamp.toString(),
    next_bp_hash: base58Encode(l.nextBpHash),
    block_merkle_root: base58Encode(l.blockMerkleRoot),
  };
}

export function blockHeaderLiteView(h: BlockHeader): {
  prev_block_hash: string;
  inner_rest_hash: string;
  inner_lite: object;
} {
  return {
    prev_block_hash: base58Encode(h.prevHash),
    inner_rest_hash: base58Encode(innerRestHash(h.rest)),
    inner_lite: innerLiteView(h),
  };
}
