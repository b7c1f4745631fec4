// The reward calculation against nearcore's own unit tests: chain/epoch-manager/src/reward_calculator.rs
// (mod tests) and chain/epoch-manager/src/validator_stats.rs (mod test), with their inputs and numbers.
import { Store, StoreUpdate } from '@nearlite/store';
import t from 'tap';
import { EpochRewards, epochStakes } from '../src/epoch_rewards.js';
import type { GenesisConfig } from '../src/genesis/config.js';
import {
  type BlockChunkValidatorStats,
  calculateReward,
  getValidatorOnlineRatio,
  NUM_SECONDS_IN_A_YEAR,
  type RewardCalculator,
  type ValidatorOnlineThresholds,
  type ValidatorStats,
} from '../src/reward_calculator.js';

const NS = 1_000_000_000n;
const NEAR = 10n ** 24n;
const NONE: ValidatorStats = { produced: 0n, expected: 0n };

const s = (produced: number, expected: number): ValidatorStats => ({
  produced: BigInt(produced),
  expected: BigInt(expected),
});

function stats(block: ValidatorStats, production = NONE, endorsement = NONE): BlockChunkValidatorStats {
  return { blockStats: block, chunkStats: { production, endorsement } };
}

/** The calculator nearcore's tests build: num_seconds_per_year 1000, treasury `near`, rate 0/10. */
const calc1000: RewardCalculator = {
  protocolRewardRate: [0, 10],
  protocolTreasuryAccount: 'near',
  numSecondsPerYear: 1000n,
  genesisProtocolVersion: 86,
};
const equalStakes = (n: number) =>
  new Map(Array.from({ length: n }, (_, i) => [`test${i + 1}`, 500_000n] as const));
const thresholds = { onlineMinThreshold: [9, 10], onlineMaxThreshold: [99, 100] } as const;

/** nearcore's reward tests' common case: equal stakes, a supply of 10⁹, 1000 s, inflation 1/100. */
function rewardOfEqualStakes(
  stats: [string, BlockChunkValidatorStats][],
  online: ValidatorOnlineThresholds = thresholds,
) {
  return calculateReward(
    calc1000,
    new Map(stats),
    equalStakes(stats.length),
    1_000_000_000n,
    1000n * NS,
    online,
    [1, 100],
  );
}

t.test('test_zero_produced_and_expected', async (t) => {
  const r = calculateReward(
    { ...calc1000, protocolRewardRate: [0, 1], numSecondsPerYear: 1_000_000n },
    new Map([
      ['test1', stats(s(0, 0))],
      ['test2', stats(s(0, 1), s(0, 1))],
    ]),
    new Map([
      ['test1', 100n],
      ['test2', 100n],
    ]),
    1_000_000_000_000n,
    1n * NS,
    { onlineMinThreshold: [9, 10], onlineMaxThreshold: [1, 1] },
    [0, 1],
  );
  t.same(
    r.validatorReward,
    new Map([
      ['near', 0n],
      ['test1', 0n],
      ['test2', 0n],
    ]),
  );
});

t.test('a validator set whose stakes are all zero is paid nothing (no division by zero)', async (t) => {
  const r = calculateReward(
    calc1000,
    new Map([['test1', stats(s(5, 5))]]),
    new Map([['test1', 0n]]),
    1_000_000_000_000n,
    1n * NS,
    thresholds,
    [1, 100],
  );
  t.same(
    r.validatorReward,
    new Map([
      ['near', 0n],
      ['test1', 0n],
    ]),
  );
});

t.test('test_reward_validator_different_online', async (t) => {
  const r = rewardOfEqualStakes([
    ['test1', stats(s(945, 1000), s(945, 1000))],
    ['test2', stats(s(999, 1000), s(999, 1000))],
    ['test3', stats(s(850, 1000), s(850, 1000))],
  ]);
  // nearcore: 10_000_000 in all, 3_333_333 per equal stake; 94.5% online earns half of it.
  t.same(
    r.validatorReward,
    new Map([
      ['near', 0n],
      ['test1', 1_666_666n],
      ['test2', 3_333_333n],
      ['test3', 0n],
    ]),
  );
  t.equal(r.mintedAmount, 4_999_999n);
});

t.test('test_reward_chunk_only_producer', async (t) => {
  const r = rewardOfEqualStakes([
    ['test1', stats(s(945, 1000), s(945, 1000))],
    ['test2', stats(s(0, 0), s(999, 1000))],
    ['test3', stats(s(945, 1000))],
    ['test4', stats(s(0, 0))],
  ]);
  t.same(
    r.validatorReward,
    new Map([
      ['near', 0n],
      ['test1', 1_250_000n],
      ['test2', 2_500_000n],
      ['test3', 1_250_000n],
      ['test4', 0n],
    ]),
  );
  t.equal(r.mintedAmount, 5_000_000n);
});

t.test('test_reward_stateless_validation', async (t) => {
  const r = rewardOfEqualStakes([
    ['test1', stats(s(945, 1000), s(944, 1000), s(946, 1000))],
    ['test2', stats(s(0, 0), s(998, 1000), s(1000, 1000))],
    ['test3', stats(s(940, 1000), NONE, s(950, 1000))],
    ['test4', stats(s(0, 0), NONE, s(1000, 1000))],
  ]);
  t.same(
    r.validatorReward,
    new Map([
      ['near', 0n],
      ['test1', 1_250_000n],
      ['test2', 2_500_000n],
      ['test3', 1_250_000n],
      ['test4', 2_500_000n],
    ]),
  );
  t.equal(r.mintedAmount, 7_500_000n);
});

t.test('test_reward_stateless_validation_with_endorsement_cutoff', async (t) => {
  const r = rewardOfEqualStakes(
    [
      ['test1', stats(s(945, 1000), s(944, 1000), s(946, 1000))],
      ['test2', stats(s(945, 1000), s(944, 1000), s(446, 1000))],
      ['test3', stats(s(0, 0), NONE, s(946, 1000))],
      ['test4', stats(s(0, 0), NONE, s(446, 1000))],
    ],
    { ...thresholds, endorsementCutoffThreshold: 50 },
  );
  t.same(
    r.validatorReward,
    new Map([
      ['near', 0n],
      ['test1', 1_750_000n],
      ['test2', 0n],
      ['test3', 2_500_000n],
      ['test4', 0n],
    ]),
  );
  t.equal(r.mintedAmount, 4_250_000n);
});

t.test('test_adjust_max_inflation: genesis version 29 takes a tenth for the treasury', async (t) => {
  const calc: RewardCalculator = {
    protocolRewardRate: [0, 1],
    protocolTreasuryAccount: 'near',
    numSecondsPerYear: 1_000_000n,
    genesisProtocolVersion: 29,
  };
  // nearcore: 50 NEAR before the inflation reduction (max_inflation_rate 1/20), 25 NEAR after (1/40).
  for (const [rate, total] of [
    [[1, 20], 50n * NEAR],
    [[1, 40], 25n * NEAR],
  ] as const) {
    const r = calculateReward(
      calc,
      new Map([['test1', stats(s(1, 1))]]),
      new Map([['test1', 100n * NEAR]]),
      1_000_000_000n * NEAR,
      1n * NS,
      thresholds,
      rate,
    );
    t.equal(r.mintedAmount, total);
    t.equal(r.validatorReward.get('near'), total / 10n);
    t.equal(r.validatorReward.get('test1'), total - total / 10n);
  }
});

t.test('test_reward_no_overflow: a 100b supply over half a day', async (t) => {
  const halfDay = 60n * 60n * 12n;
  const r = calculateReward(
    { ...calc1000, protocolRewardRate: [1, 10], numSecondsPerYear: NUM_SECONDS_IN_A_YEAR },
    new Map([['test', stats(s(43200, 43200), s(345600, 345600), s(345600, 345600))]]),
    new Map([['test', 500_000n * NEAR]]),
    100_000_000_000n * NEAR,
    halfDay * NS,
    { onlineMinThreshold: [9, 10], onlineMaxThreshold: [1, 1] },
    [1, 40],
  );
  // nearcore's test only checks that it does not overflow; the amount is 100b · 1/40 · 1/730.
  const total = (100_000_000_000n * NEAR * halfDay) / (NUM_SECONDS_IN_A_YEAR * 40n);
  t.equal(r.mintedAmount, total);
});

t.test('validator_stats.rs: the online ratio averages blocks, chunks and endorsements', async (t) => {
  const all = stats(s(98, 100), s(76, 100), s(42, 100));
  const noEndorsement = stats(s(98, 100), s(76, 100));
  // Compared as fractions: [n, d] equals p/q when n·q = d·p.
  const same = (r: [bigint, bigint], p: bigint, q: bigint) => t.equal(r[0] * q, r[1] * p);
  same(getValidatorOnlineRatio(all), 98n + 76n + 42n, 300n);
  same(getValidatorOnlineRatio(all, 30), 98n + 76n + 100n, 300n);
  same(getValidatorOnlineRatio(all, 50), 98n + 76n + 0n, 300n);
  same(getValidatorOnlineRatio(noEndorsement, 50), 98n + 76n, 200n);
});

// Supply and a 2 s epoch chosen so that nearcore's formula gives 1000 exactly:
// 1/20 · 315_360_000_000 · 2·10⁹ / (31_536_000 · 10⁹) = 1000; the treasury takes 100.
const TWO_VALIDATORS = {
  chainId: 'test-chain-unit0',
  protocolVersion: 86,
  genesisHeight: 0,
  epochLength: 2,
  protocolTreasuryAccount: 'a',
  validators: [
    { accountId: 'a', amount: 1n },
    { accountId: 'b', amount: 2n },
  ],
  raw: {
    protocol_reward_rate: [1, 10],
    max_inflation_rate: [1, 20],
    online_min_threshold: [90, 100],
    online_max_threshold: [99, 100],
    chunk_validator_only_kickout_threshold: 80,
  },
} as unknown as GenesisConfig;

t.test(
  'EpochRewards: stakes grow by the rewards of two epochs before, and are kept in the store',
  async (t) => {
    const cfg = TWO_VALIDATORS;
    const block = (h: number) => ({
      hash: new Uint8Array(32).fill(h),
      timestamp: BigInt(h) * NS,
      totalSupply: 315_360_000_000n,
    });
    const store = await Store.memory();
    const rewards = new EpochRewards(cfg, store, 1, block);
    const e2 = rewards.of(2);
    // Epochs 0 and 1 share 900 by the genesis stakes 1:2; epoch 2 by 301:602 (plus epoch 0's reward).
    t.same(
      rewards.of(0).validatorReward,
      new Map([
        ['a', 300n],
        ['b', 600n],
      ]),
    );
    t.equal(rewards.of(0).mintedAmount, 1000n, 'the treasury share 100 and the validators 900');
    t.same(
      rewards.of(1).nextStakes,
      new Map([
        ['a', 301n],
        ['b', 602n],
      ]),
    );
    t.same(
      e2.validatorReward,
      new Map([
        ['a', 300n],
        ['b', 600n],
      ]),
    );
    t.same(
      e2.nextStakes,
      new Map([
        ['a', 601n],
        ['b', 1202n],
      ]),
    );
    const update = new StoreUpdate();
    rewards.save(update);
    await store.commit(update);

    // Reopened with the blocks below height 4 collected: epoch 2's kept row carries the stakes on.
    const later = new EpochRewards(cfg, store, 1, (h) => (h < 4 ? undefined : block(h)));
    const e3 = later.of(3);
    t.same(
      e3.validatorReward,
      new Map([
        ['a', 300n],
        ['b', 600n],
      ]),
    );
    t.same(
      e3.nextStakes,
      new Map([
        ['a', 901n],
        ['b', 1802n],
      ]),
    );
  },
);

t.test(
  'EpochRewards: proposals set stakes two epochs on; others are left out and their stake is returned',
  async (t) => {
    // 900 for the validators each epoch, split by stake, and 100 for the treasury ('a').
    const cfg = TWO_VALIDATORS;
    // Epoch 0 (heights 1–2): 'c', no validator, proposes 5. Epoch 1 (3–4): 'b' proposes 10, twice.
    const proposals: Record<number, { accountId: string; stake: bigint }[]> = {
      1: [{ accountId: 'c', stake: 5n }],
      3: [{ accountId: 'b', stake: 20n }],
      4: [{ accountId: 'b', stake: 10n }],
    };
    const block = (h: number) => ({
      hash: new Uint8Array(32).fill(h),
      timestamp: BigInt(h) * NS,
      totalSupply: 315_360_000_000n,
      proposals: proposals[h] ?? [],
    });
    const store = await Store.memory();
    const rewards = new EpochRewards(cfg, store, 1, block);
    const m = (...e: [string, bigint][]) => new Map(e);
    // apply_epoch_update_to_proposals: the info of epoch 2 takes epoch 1's stakes plus epoch 0's
    // reward; 'c' is not selected, so its stake change is 0.
    t.same(rewards.of(0).epochInfo.stakes, m(['a', 301n], ['b', 602n]));
    t.same(rewards.of(0).epochInfo.stakeChange, m(['c', 0n], ['a', 301n], ['b', 602n]));
    // Epoch 3: 'b' stakes its last proposal of epoch 1 plus its reward for epoch 1.
    t.same(rewards.of(1).epochInfo.stakes, m(['a', 601n], ['b', 610n]));
    // compute_stake_return_info: the largest stake in the infos of the ended epoch and the two after.
    t.same(rewards.stakeReturnInfo(0), m(['a', 301n], ['b', 602n], ['c', 0n]));
    t.same(
      rewards.stakeReturnInfo(1),
      m(['a', 601n], ['b', 610n], ['c', 0n]),
      'c is named while an info holds it',
    );
    // Epoch 3's reward is split by its stakes, 601 : 610 (calculate_reward, rounded down).
    t.same(rewards.of(3).validatorReward, m(['a', (900n * 601n) / 1211n], ['b', (900n * 610n) / 1211n]));
    t.equal(rewards.of(3).mintedAmount, 100n + 446n + 453n);

    // The rows are kept, and epochStakes reads an epoch's by its id (its T − 2 last block's hash).
    const update = new StoreUpdate();
    rewards.save(update);
    await store.commit(update);
    t.same(epochStakes(store, cfg, block(4).hash).stakes, m(['a', 601n], ['b', 610n]));
    t.same(epochStakes(store, cfg, new Uint8Array(32)).stakes, m(['a', 1n], ['b', 2n]), 'the genesis epochs');
  },
);

t.test(
  "EpochRewards on a producer's store: an epoch that ended under a build paying no reward keeps what its next blocks named",
  async (t) => {
    // Epoch 0 (heights 1–2) ended, and block 3 was made, by a build that kept no rows and paid
    // nothing: blocks 3 and 4 named epoch 2 (the id hash(block 2)) with the genesis stakes.
    const cfg = TWO_VALIDATORS;
    const block = (h: number) =>
      h > 4
        ? undefined
        : { hash: new Uint8Array(32).fill(h), timestamp: BigInt(h) * NS, totalSupply: 315_360_000_000n };
    const m = (...e: [string, bigint][]) => new Map(e);
    const epoch2 = new Uint8Array(32).fill(2);
    const store = await Store.memory();
    const named = epochStakes(store, cfg, epoch2).stakes;
    t.same(named, m(['a', 1n], ['b', 2n]));

    // Block 5 starts epoch 2: it pays epoch 1's reward.
    const rewards = new EpochRewards(cfg, store, 1, block, true);
    const e1 = rewards.of(1);
    const update = new StoreUpdate();
    rewards.save(update);
    await store.commit(update);
    t.same(epochStakes(store, cfg, epoch2).stakes, named, 'epoch 2 keeps the stakes blocks 3 and 4 named');
    t.equal(rewards.of(0).mintedAmount, 0n, 'epoch 0 minted nothing');
    t.same(e1.validatorReward, m(['a', 300n], ['b', 600n]), "epoch 1's reward, by the genesis stakes");
    t.same(e1.epochInfo.stakes, m(['a', 301n], ['b', 602n]), 'epoch 3: the stakes plus what block 5 pays');

    // A follower keeps no rows: it reads from the blocks what each epoch's next block minted. Block 3
    // minted nothing where 1000 was due: epoch 0 ended unpaid, and the follower keeps what the
    // producer keeps.
    const none = { get: () => undefined };
    const burnt = (h: number) => {
      const b = block(h);
      return b && { ...b, balanceBurnt: 0n };
    };
    const follower = new EpochRewards(cfg, none, 1, burnt);
    t.equal(follower.of(0).mintedAmount, 0n, 'unpaid, as block 3 shows');
    t.same(follower.of(1).epochInfo.stakes, e1.epochInfo.stakes, "the producer's epoch 3");
    // Where block 3 minted the reward, the reward stands.
    const paid = (h: number) => {
      const b = burnt(h);
      return b && h >= 3 ? { ...b, totalSupply: b.totalSupply + 1000n } : b;
    };
    t.equal(new EpochRewards(cfg, none, 1, paid).of(0).mintedAmount, 1000n, 'paid, as block 3 shows');
    t.equal(
      new EpochRewards(cfg, none, 1, block).of(0).mintedAmount,
      1000n,
      'without burnt amounts, as before',
    );
  },
);
