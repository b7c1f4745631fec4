// The epoch config a chain runs under, as nearcore's EpochManager::new_arc_handle picks it, seen in
// EXPERIMENTAL_protocol_config (NightshadeRuntime::get_protocol_config puts the epoch config's fields
// over the genesis's). Expected values: EpochConfig::genesis_test with chain-configs' constants
// (BLOCK_PRODUCER_KICKOUT_THRESHOLD 90, CHUNK_PRODUCER_KICKOUT_THRESHOLD 90,
// CHUNK_VALIDATOR_ONLY_KICKOUT_THRESHOLD 80, PROTOCOL_UPGRADE_STAKE_THRESHOLD 4/5, FISHERMEN_THRESHOLD
// 10 NEAR), its fractions reduced as Rational32::new reduces them.
import {
  epochConfigSource,
  generateKeyFile,
  makeLocalnetGenesis,
  parseGenesis,
  protocolConfigView,
  rewardEpochConfig,
} from '@nearlite/chain';
import t from 'tap';

function genesisOf(chainId: string) {
  const raw = makeLocalnetGenesis({
    chainId,
    numShards: 2,
    epochLength: 77,
    validatorAccountId: 'test.near',
    validatorPublicKey: generateKeyFile('test.near').public_key,
    protocolVersion: 86,
  });
  // Genesis fields the test epoch config replaces, set apart from its values.
  Object.assign(raw, {
    max_inflation_rate: [1, 20],
    online_min_threshold: [80, 100],
    block_producer_kickout_threshold: 50,
    chunk_producer_kickout_threshold: 60,
    chunk_validator_only_kickout_threshold: 70,
    max_kickout_stake_perc: 30,
    minimum_stake_divisor: 7,
    fishermen_threshold: '1',
    num_block_producer_seats: 33,
  });
  return parseGenesis(raw).config;
}

t.test('which epoch config a chain id gets', async (t) => {
  t.equal(epochConfigSource('mainnet'), 'stored');
  t.equal(epochConfigSource('testnet'), 'stored');
  t.equal(epochConfigSource('test-chain-jX8xP'), 'genesis');
  t.equal(epochConfigSource('test-chain'), 'test');
  t.equal(epochConfigSource('localnet'), 'test');
});

t.test('protocol_config of a chain on the test epoch config', async (t) => {
  const cfg = genesisOf('localnet');
  const view = protocolConfigView(cfg, {}) as Record<string, unknown>;
  t.match(view, {
    epoch_length: 77,
    num_block_producer_seats: 33,
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
    minimum_validators_per_shard: 1,
    minimum_stake_ratio: [1, 6250],
    shuffle_shard_assignment_for_chunk_producers: false,
    max_inflation_rate: [1, 40],
    protocol_reward_rate: cfg.raw.protocol_reward_rate,
  });
  t.same(rewardEpochConfig(cfg).maxInflationRate, [1, 40], 'the reward mints at the same rate');
});

t.test('protocol_config of a test-chain- chain: the genesis fields', async (t) => {
  const cfg = genesisOf('test-chain-jX8xP');
  const view = protocolConfigView(cfg, {}) as Record<string, unknown>;
  t.match(view, {
    block_producer_kickout_threshold: 50,
    chunk_producer_kickout_threshold: 60,
    chunk_validator_only_kickout_threshold: 70,
    max_kickout_stake_perc: 30,
    online_min_threshold: [80, 100],
    minimum_stake_divisor: 7,
    fishermen_threshold: '1',
    max_inflation_rate: [1, 20],
  });
  t.same(rewardEpochConfig(cfg).maxInflationRate, [1, 20]);
});
