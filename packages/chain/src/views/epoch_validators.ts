// What the `validators` views read of an epoch besides the genesis: the stakes its epoch info holds
// (kept by the producer with each epoch's end, epoch_rewards.ts) and the proposals of its blocks.
import type { BlockHeader } from '../block_header.js';
import type { ChainHandle } from '../chain_handle.js';
import { epochOf } from '../epoch.js';
import { epochStakes } from '../epoch_rewards.js';
import type { ValidatorStake } from '../validator_stake.js';
import type { EpochValidatorFacts } from './validators_view.js';

/**
 * The facts of the epoch of `header`, its proposals counted up to `header` (nearcore's aggregator for
 * the head's epoch; the epoch summary, which holds all of them, for an ended epoch's last block).
 */
export function epochValidatorFacts(chain: ChainHandle, header: BlockHeader): EpochValidatorFacts {
  const cfg = chain.genesis.config;
  const cs = chain.chainStore;
  const byAccount = new Map<string, ValidatorStake>();
  const start = epochOf(header.lite.height, cfg.genesisHeight, cfg.epochLength).startHeight;
  for (let h = Math.max(start, cfg.genesisHeight + 1); h <= header.lite.height; h++) {
    const hash = cs.blockHashByHeight(h);
    const b = hash && cs.blockHeader(hash);
    for (const p of b ? b.rest.validatorProposals : []) byAccount.set(p.accountId, p);
  }
  // nearcore's all_proposals is a BTreeMap: by account id.
  const proposals = [...byAccount.values()].sort((a, b) =>
    a.accountId < b.accountId ? -1 : a.accountId > b.accountId ? 1 : 0,
  );
  return {
    stakes: epochStakes(chain.store, cfg, header.lite.epochId).stakes,
    nextStakes: epochStakes(chain.store, cfg, header.lite.nextEpochId).stakes,
    proposals,
  };
}
