// The `validators` view of this chain's epochs: every epoch has the genesis validators
// (chain/src/epoch.ts), each producing every block and chunk, so the counts follow from the height.

import { epochHeightOf, epochOf } from '../epoch.js';
import type { GenesisConfig } from '../genesis/config.js';

export function validatorsView(cfg: GenesisConfig, shardIds: readonly number[], height: number): object {
  const epoch = epochOf(height, cfg.genesisHeight, cfg.epochLength);
  const produced = Math.max(0, height - epoch.startHeight + 1);
  const shards = shardIds;
  return {
    current_validators: cfg.validators.map((v) => ({
      account_id: v.accountId,
      public_key: v.publicKeyText,
      is_slashed: false,
      stake: v.amount.toString(),
      shards: [...shards],
      num_produced_blocks: produced,
      num_expected_blocks: produced,
      num_produced_chunks: produced * shards.length,
      num_expected_chunks: produced * shards.length,
      num_produced_chunks_per_shard: shards.map(() => produced),
      num_expected_chunks_per_shard: shards.map(() => produced),
      num_produced_endorsements: produced * shards.length,
      num_expected_endorsements: produced * shards.length,
      num_produced_endorsements_per_shard: shards.map(() => produced),
      num_expected_endorsements_per_shard: shards.map(() => produced),
      shards_endorsed: [...shards],
    })),
    next_validators: cfg.validators.map((v) => ({
      account_id: v.accountId,
      public_key: v.publicKeyText,
      stake: v.amount.toString(),
      shards: [...shards],
    })),
    current_fishermen: [],
    next_fishermen: [],
    current_proposals: [],
    prev_epoch_kickout: [],
    epoch_start_height: epoch.startHeight,
    epoch_height: epochHeightOf(height, cfg.genesisHeight, cfg.epochLength),
  };
}

/** EXPERIMENTAL_validators_ordered: the epoch's block producers, each once, in settlement order. */
export function validatorsOrderedView(cfg: GenesisConfig): object[] {
  const seen = new Set<string>();
  return cfg.validators
    .filter((v) => !seen.has(v.accountId) && seen.add(v.accountId))
    .map((v) => ({
      validator_stake_struct_version: 'V1',
      account_id: v.accountId,
      public_key: v.publicKeyText,
      stake: v.amount.toString(),
    }));
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
