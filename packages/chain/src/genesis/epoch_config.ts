// The epoch config a chain runs under, as nearcore's EpochManager::new_arc_handle picks it when the
// home has no epoch_configs directory: mainnet and testnet read their stored configs; a chain id that
// starts with `test-chain-` (what `init` makes up) takes the genesis fields (EpochConfig::from); any
// other id gets Genesis::test_epoch_config, nearcore's test defaults around the genesis's seats,
// shard layout and epoch length. The protocol config view and the reward read these fields.
import type { GenesisConfig } from './config.js';

export type EpochConfigSource = 'stored' | 'genesis' | 'test';

export function epochConfigSource(chainId: string): EpochConfigSource {
  if (chainId === 'mainnet' || chainId === 'testnet') return 'stored';
  return chainId.startsWith('test-chain-') ? 'genesis' : 'test';
}

/**
 * EpochConfig::genesis_test with nearcore's constants (chain-configs lib.rs), by the genesis config's
 * field names; `Rational32::new` reduces its fractions, so 90/100 is written 9/10.
 */
const TEST_EPOCH_CONFIG: Readonly<Record<string, unknown>> = {
  block_producer_kickout_threshold: 90,
  chunk_producer_kickout_threshold: 90,
  chunk_validator_only_kickout_threshold: 80,
  target_validator_mandates_per_shard: 68,
  max_kickout_stake_perc: 100,
  online_min_threshold: [9, 10],
  online_max_threshold: [99, 100],
  fishermen_threshold: '10000000000000000000000000',
  minimum_stake_divisor: 10,
  protocol_upgrade_stake_threshold: [4, 5],
  num_chunk_producer_seats: 100,
  num_chunk_validator_seats: 300,
  minimum_validators_per_shard: 1,
  minimum_stake_ratio: [1, 6250],
  shuffle_shard_assignment_for_chunk_producers: false,
  max_inflation_rate: [1, 40],
};

/**
 * The genesis config's fields with those of the epoch config in force put over them, as
 * NightshadeRuntime::get_protocol_config does. For a stored config (mainnet, testnet) the genesis
 * fields stand: a nearlite chain with those ids runs its genesis protocol.
 */
export function epochConfigFields(cfg: GenesisConfig): Readonly<Record<string, unknown>> {
  return epochConfigSource(cfg.chainId) === 'test' ? { ...cfg.raw, ...TEST_EPOCH_CONFIG } : cfg.raw;
}
