// genesis_config and EXPERIMENTAL_protocol_config: the genesis file's config, and the protocol
// parameters in force (genesis config fields, those of the epoch config in force over them, plus the
// runtime parameters).
import { formatRfc3339Ns, type GenesisConfig } from '../genesis/config.js';
import { epochConfigFields } from '../genesis/epoch_config.js';

const PROTOCOL_CONFIG_FIELDS = [
  'protocol_version',
  'genesis_time',
  'chain_id',
  'genesis_height',
  'num_block_producer_seats',
  'num_block_producer_seats_per_shard',
  'avg_hidden_validator_seats_per_shard',
  'dynamic_resharding',
  'protocol_upgrade_stake_threshold',
  'epoch_length',
  'gas_limit',
  'min_gas_price',
  'max_gas_price',
  'block_producer_kickout_threshold',
  'chunk_producer_kickout_threshold',
  'chunk_validator_only_kickout_threshold',
  'target_validator_mandates_per_shard',
  'online_min_threshold',
  'online_max_threshold',
  'gas_price_adjustment_rate',
  'runtime_config',
  'transaction_validity_period',
  'protocol_reward_rate',
  'max_inflation_rate',
  'num_blocks_per_year',
  'protocol_treasury_account',
  'fishermen_threshold',
  'minimum_stake_divisor',
  'max_kickout_stake_perc',
  'minimum_stake_ratio',
  'shuffle_shard_assignment_for_chunk_producers',
  'minimum_validators_per_shard',
  'shard_layout',
] as const;

/** Defaults for fields older genesis files (e.g. mainnet's 2020 file) do not carry. */
const DEFAULTS: Record<string, unknown> = {
  chunk_validator_only_kickout_threshold: 80,
  target_validator_mandates_per_shard: 68,
  max_kickout_stake_perc: 100,
  minimum_stake_ratio: [1, 6250],
  shuffle_shard_assignment_for_chunk_producers: false,
  minimum_validators_per_shard: 1,
  protocol_upgrade_stake_threshold: [4, 5],
};

/** genesis_time as nearcore's GenesisConfig gives it back: the instant, in UTC, nine fraction digits. */
export function genesisConfigView(config: GenesisConfig): object {
  return { ...config.raw, genesis_time: formatRfc3339Ns(config.genesisTimeNs) };
}

export function protocolConfigView(config: GenesisConfig, runtimeConfigView: object): object {
  const raw = epochConfigFields(config);
  const out: Record<string, unknown> = {};
  for (const f of PROTOCOL_CONFIG_FIELDS) {
    if (f === 'runtime_config') out[f] = runtimeConfigView;
    else if (f === 'shard_layout') out[f] = config.shardLayout;
    else if (f === 'max_gas_price') out[f] = config.maxGasPrice.toString();
    else if (f === 'genesis_time') out[f] = formatRfc3339Ns(config.genesisTimeNs);
    else out[f] = raw[f] ?? DEFAULTS[f] ?? null;
  }
  return out;
}
