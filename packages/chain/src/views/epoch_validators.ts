// What the `validators` views read of an epoch besides the genesis: the stakes its epoch info holds
// (kept by the producer with each epoch's end, epoch_rewards.ts) and the proposals of its blocks.
import type { BlockHeader } from '../block_header.js';
import type { ChainHandle } from '../chain_handle.js';
import { epochOf } from '../epoch.js';
import type { EpochStakesReader } from '../epoch_rewards.js';
import type { EpochProposals } from './epoch_proposals.js';
import type { EpochValidatorFacts } from './validators_view.js';

/**
 * The facts of the epoch of `header`, its proposals counted up to `header` (nearcore's aggregator for
 * the head's epoch; the epoch summary, which holds all of them, for an ended epoch's last block).
 */
export function epochValidatorFacts(
  chain: ChainHandle,
  stakes: EpochStakesReader,
  proposals: EpochProposals,
  header: BlockHeader,
): EpochValidatorFacts {
  const cfg = chain.genesis.config;
  const cs = chain.chainStore;
  // The epoch's blocks: ordinals count blocks, and the block before the epoch's first height is the
  // last of the epoch before (an epoch's last height always has its block).
  const before = cs.blockHashByHeight(
    epochOf(header.lite.height, cfg.genesisHeight, cfg.epochLength).startHeight - 1,
  );
  const beforeHeader = before && cs.blockHeader(before);
  const info = stakes.of(header.lite.epochId);
  return {
    ...(beforeHeader ? { blocks: header.rest.blockOrdinal - beforeHeader.rest.blockOrdinal } : {}),
    stakes: info.stakes,
    rewards: info.validatorReward,
    nextStakes: stakes.of(header.lite.nextEpochId).stakes,
    proposals: proposals.upTo(cfg, header.lite.height, (h) => {
      const hash = cs.blockHashByHeight(h);
      return hash ? cs.blockHeader(hash)?.rest.validatorProposals : undefined;
    }),
  };
}
