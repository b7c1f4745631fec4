// The genesis `nearlite init` writes: nearcore's localnet defaults (neard init) with one validator.
import { defaultShardLayoutView } from '../shard_layout.js';
import { formatRfc3339Ns } from './config.js';

const NEAR = 10n ** 24n;

export interface LocalnetOptions {
  readonly chainId: string;
  readonly numShards: number;
  readonly epochLength: number;
  readonly validatorAccountId: string;
  readonly validatorPublicKey: string;
  readonly protocolVersion: number;
  readonly genesisTimeNs?: bigint;
}

export function makeLocalnetGenesis(o: LocalnetOptions): Record<string, unknown> {
  const validatorBalance = 1_000_000_000n * NEAR;
  const validatorStake = 50_000_000n * NEAR;
  const nearBalance = 1_000_000_000n * NEAR;
  const totalSupply = validatorBalance + validatorStake + nearBalance;
  const genesisTimeNs = o.genesisTimeNs ?? BigInt(Date.now()) * 1_000_000n;
  const shards = o.numShards;
  const fullAccess = { nonce: 0, permission: 'FullAccess' };
  const account = (amount: bigint, locked: bigint) => ({
    amount: amount.toString(),
    locked: locked.toString(),
    code_hash: '11111111111111111111111111111111',
    storage_usage: 182,
    version: 'V1',
  });
  return {
    protocol_version: o.protocolVersion,
    genesis_time: formatRfc3339Ns(genesisTimeNs),
    chain_id: o.chainId,
    genesis_height: 0,
    num_block_producer_seats: 50,
    num_block_producer_seats_per_shard: Array(shards).fill(50),
    avg_hidden_validator_seats_per_shard: Array(shards).fill(0),
    dynamic_resharding: false,
    protocol_upgrade_stake_threshold: [4, 5],
    epoch_length: o.epochLength,
    gas_limit: 1_000_000_000_000_000,
    min_gas_price: '100000000',
    max_gas_price: '10000000000000000000000',
    block_producer_kickout_threshold: 90,
    chunk_producer_kickout_threshold: 90,
    chunk_validator_only_kickout_threshold: 80,
    online_min_threshold: [90, 100],
    online_max_threshold: [99, 100],
    gas_price_adjustment_rate: [1, 100],
    validators: [
      {
        account_id: o.validatorAccountId,
        public_key: o.validatorPublicKey,
        amount: validatorStake.toString(),
      },
    ],
    transaction_validity_period: 100,
    protocol_reward_rate: [1, 10],
    max_inflation_rate: [1, 20],
    total_supply: totalSupply.toString(),
    num_blocks_per_year: 31_536_000,
    protocol_treasury_account: o.validatorAccountId,
    fishermen_threshold: '10000000000000000000000000',
    minimum_stake_divisor: 10,
    shard_layout: defaultShardLayoutView(shards),
    num_chunk_only_producer_seats: 300,
    minimum_validators_per_shard: 1,
    max_kickout_stake_perc: 100,
    minimum_stake_ratio: [1, 6250],
    use_production_config: false,
    num_chunk_producer_seats: 100,
    num_chunk_validator_seats: 300,
    chunk_producer_assignment_changes_limit: 5,
    shuffle_shard_assignment_for_chunk_producers: false,
    target_validator_mandates_per_shard: 68,
    records: [
      { Account: { account_id: o.validatorAccountId, account: account(validatorBalance, validatorStake) } },
      {
        AccessKey: {
          account_id: o.validatorAccountId,
          public_key: o.validatorPublicKey,
          access_key: fullAccess,
        },
      },
      { Account: { account_id: 'near', account: account(nearBalance, 0n) } },
      { AccessKey: { account_id: 'near', public_key: o.validatorPublicKey, access_key: fullAccess } },
    ],
  };
}
