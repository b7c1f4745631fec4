// The `validators` view of this chain's epochs: every epoch has the genesis validators
// (chain/src/epoch.ts), each producing every block and chunk, so the counts follow from the height and
// the blocks there are.
// Their stakes are the epoch's (epoch_rewards.ts): genesis stakes grown by rewards and proposals.

import { epochHeightOf, epochOf } from '../epoch.js';
import { epochBlockProducers, genesisValidatorReward } from '../epoch_rewards.js';
import type { GenesisConfig } from '../genesis/config.js';
import { type ValidatorStake, validatorStakeView } from '../validator_stake.js';

/** What an epoch's view needs beyond the genesis: its stakes, the next epoch's, and its proposals. */
export interface EpochValidatorFacts {
  readonly stakes: ReadonlyMap<string, bigint>;
  readonly nextStakes: ReadonlyMap<string, bigint>;
  /** The reward its epoch info holds (EpochStakes.validatorReward). */
  readonly rewards?: ReadonlyMap<string, bigint>;
  /** The last of each account's proposals in the epoch so far, by account id. */
  readonly proposals: readonly ValidatorStake[];
  /**
   * Blocks of the epoch up to the height, where a sandbox fast-forward left heights without one;
   * absent: one at every height.
   */
  readonly blocks?: number;
}

/**
 * `finished`: the answer for an epoch that has ended, which nearcore reads from the epoch's stored
 * summary (epoch-manager get_validator_info, ValidatorInfoIdentifier::EpochId): per-shard chunk counts
 * are zeros and nothing is listed as endorsed.
 */
export function validatorsView(
  cfg: GenesisConfig,
  shardIds: readonly number[],
  height: number,
  finished = false,
  facts?: EpochValidatorFacts,
): object {
  const stake = (v: { accountId: string; amount: bigint }, of?: ReadonlyMap<string, bigint>) =>
    (of?.get(v.accountId) ?? v.amount).toString();
  const epoch = epochOf(height, cfg.genesisHeight, cfg.epochLength);
  // Every height expects a block (EpochInfoAggregator::update_tail counts a skipped one as missed);
  // chunks and endorsements are expected of the blocks there are.
  const expectedBlocks = Math.max(0, height - epoch.startHeight + 1);
  const produced = Math.min(expectedBlocks, facts?.blocks ?? expectedBlocks);
  const shards = shardIds;
  const endorsed = finished ? [] : shards;
  const perShard = finished ? 0 : produced;
  return {
    current_validators: cfg.validators.map((v) => ({
      account_id: v.accountId,
      public_key: v.publicKeyText,
      is_slashed: false,
      stake: stake(v, facts?.stakes),
      shards: [...shards],
      num_produced_blocks: produced,
      num_expected_blocks: expectedBlocks,
      num_produced_chunks: produced * shards.length,
      num_expected_chunks: produced * shards.length,
      num_produced_chunks_per_shard: shards.map(() => perShard),
      num_expected_chunks_per_shard: shards.map(() => perShard),
      num_produced_endorsements: produced * shards.length,
      num_expected_endorsements: produced * shards.length,
      num_produced_endorsements_per_shard: endorsed.map(() => produced),
      num_expected_endorsements_per_shard: endorsed.map(() => produced),
      shards_endorsed: [...endorsed],
    })),
    next_validators: cfg.validators.map((v) => ({
      account_id: v.accountId,
      public_key: v.publicKeyText,
      stake: stake(v, facts?.nextStakes),
      shards: [...shards],
    })),
    current_fishermen: [],
    next_fishermen: [],
    current_proposals: (facts?.proposals ?? []).map(validatorStakeView),
    prev_epoch_kickout: [],
    epoch_start_height: epoch.startHeight,
    epoch_height: epochHeightOf(height, cfg.genesisHeight, cfg.epochLength),
    // nearcore 2.12's field (a HashMap, in no order of its own: here by account id).
    validator_reward_paid_prev_epoch: Object.fromEntries(
      [...(facts?.rewards ?? genesisValidatorReward(cfg))]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([id, amount]) => [id, amount.toString()]),
    ),
  };
}

/**
 * The last height of the epoch an epoch id names, when that epoch has ended before the head's
 * (`headHeight`); null otherwise. Epoch ids follow chain/src/epoch.ts: the zero hash, then the genesis
 * hash, then the hash of the block two epochs back at `idHeight`. nearcore answers only an ended
 * epoch by id, as its summary is stored when it ends; the head's epoch is handled as `latest` before.
 */
export function endedEpochLastHeight(
  cfg: GenesisConfig,
  headHeight: number,
  id: { readonly isZero: boolean; readonly isGenesis: boolean; readonly idHeight: number | undefined },
): number | null {
  const { genesisHeight, epochLength } = cfg;
  let index: number;
  if (id.isZero) index = 0;
  else if (id.isGenesis) index = 1;
  else if (
    id.idHeight !== undefined &&
    id.idHeight > genesisHeight &&
    (id.idHeight - genesisHeight) % epochLength === 0
  ) {
    index = (id.idHeight - genesisHeight) / epochLength + 1;
  } else return null;
  if (index >= epochOf(headHeight, genesisHeight, epochLength).index) return null;
  return genesisHeight + (index + 1) * epochLength;
}

/** EXPERIMENTAL_validators_ordered (and the light client's `next_bps`): the epoch's block producers. */
export function validatorsOrderedView(cfg: GenesisConfig, stakes: ReadonlyMap<string, bigint>): object[] {
  return epochBlockProducers(cfg, stakes).map((v) =>
    validatorStakeView({ accountId: v.accountId, publicKey: v.publicKey, stake: v.amount }),
  );
}

/**
 * maintenance_windows: the runs of heights from the head to the end of its epoch at which the account
 * produces no block and no chunk, each `{start, end}` with `end` exclusive. Here every validator
 * produces every block and chunk, so a validator has none and anyone else has the rest of the epoch.
 */
export function maintenanceWindowsView(cfg: GenesisConfig, headHeight: number, accountId: string): object[] {
  const end = epochOf(headHeight, cfg.genesisHeight, cfg.epochLength).endHeight + 1;
  if (cfg.validators.some((v) => v.accountId === accountId) || headHeight >= end) return [];
  return [{ start: headHeight, end }];
}
