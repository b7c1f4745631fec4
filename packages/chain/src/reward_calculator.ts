// The reward of one epoch, as nearcore's RewardCalculator::calculate_reward computes it
// (chain/epoch-manager reward_calculator.rs, and validator_stats.rs for the online ratio), and the
// genesis and epoch-config fields it reads.
import type { GenesisConfig, Rational } from './genesis/config.js';
import { epochConfigFields, epochConfigSource } from './genesis/epoch_config.js';

const NUM_NS_IN_SECOND = 1_000_000_000n;
/** nearcore's NUM_SECONDS_IN_A_YEAR: RewardCalculator::new takes it, not genesis num_blocks_per_year. */
export const NUM_SECONDS_IN_A_YEAR = 24n * 60n * 60n * 365n;
/** Under this genesis version nearcore ignores protocol_reward_rate and uses 1/10. */
const PROD_GENESIS_PROTOCOL_VERSION = 29;

export interface ValidatorStats {
  readonly produced: bigint;
  readonly expected: bigint;
}

export interface BlockChunkValidatorStats {
  readonly blockStats: ValidatorStats;
  readonly chunkStats: { readonly production: ValidatorStats; readonly endorsement: ValidatorStats };
}

export interface ValidatorOnlineThresholds {
  readonly onlineMinThreshold: Rational;
  readonly onlineMaxThreshold: Rational;
  /** Percent: an endorsement ratio below it counts as 0, otherwise as 1; absent: the ratio as is. */
  readonly endorsementCutoffThreshold?: number;
}

export interface RewardCalculator {
  readonly protocolRewardRate: Rational;
  readonly protocolTreasuryAccount: string;
  readonly numSecondsPerYear: bigint;
  readonly genesisProtocolVersion: number;
}

export interface EpochReward {
  /** Per account; the treasury's entry is replaced by its validator reward when it is a validator. */
  readonly validatorReward: ReadonlyMap<string, bigint>;
  /** What the epoch mints: the treasury's share plus every validator reward. */
  readonly mintedAmount: bigint;
}

/** ValidatorStats::less_than: produced/expected below `threshold` percent. */
function lessThan(s: ValidatorStats, threshold: number): boolean {
  return s.produced * 100n < BigInt(threshold) * s.expected;
}

function endorsementRatio(s: ValidatorStats, cutoff: number | undefined): [bigint, bigint] {
  if (s.expected === 0n) return [0n, 0n];
  if (cutoff !== undefined) return lessThan(s, cutoff) ? [0n, 1n] : [1n, 1n];
  return [s.produced, s.expected];
}

/**
 * nearcore's get_validator_online_ratio: the mean of the block, chunk and endorsement ratios the
 * validator was expected to keep, as an unreduced [numerator, denominator].
 */
export function getValidatorOnlineRatio(
  stats: BlockChunkValidatorStats,
  endorsementCutoffThreshold?: number,
): [bigint, bigint] {
  const eb = stats.blockStats.expected;
  const ec = stats.chunkStats.production.expected;
  const [pe, ee] = endorsementRatio(stats.chunkStats.endorsement, endorsementCutoffThreshold);
  const pb = stats.blockStats.produced;
  const pc = stats.chunkStats.production.produced;
  if (eb === 0n && ec === 0n && ee === 0n) return [0n, 1n];
  if (eb === 0n && ec === 0n) return [pe, ee];
  if (eb === 0n && ee === 0n) return [pc, ec];
  if (ec === 0n && ee === 0n) return [pb, eb];
  if (ee === 0n) return [pb * ec + pc * eb, 2n * ec * eb];
  if (eb === 0n) return [pe * ec + pc * ee, 2n * ec * ee];
  if (ec === 0n) return [pe * eb + pb * ee, 2n * eb * ee];
  return [pb * ec * ee + pc * eb * ee + pe * eb * ec, 3n * ec * eb * ee];
}

/**
 * nearcore's RewardCalculator::calculate_reward. `epochDuration` is in nanoseconds. Integer division
 * truncates at the same steps as nearcore's U256/U512 arithmetic.
 */
export function calculateReward(
  calc: RewardCalculator,
  validatorBlockChunkStats: ReadonlyMap<string, BlockChunkValidatorStats>,
  validatorStake: ReadonlyMap<string, bigint>,
  totalSupply: bigint,
  epochDuration: bigint,
  onlineThresholds: ValidatorOnlineThresholds,
  maxInflationRate: Rational,
): EpochReward {
  const res = new Map<string, bigint>();
  const [rateNum, rateDen] =
    calc.genesisProtocolVersion === PROD_GENESIS_PROTOCOL_VERSION
      ? [1n, 10n]
      : calc.protocolRewardRate.map(BigInt);
  const epochTotalReward =
    (BigInt(maxInflationRate[0]) * totalSupply * epochDuration) /
    (calc.numSecondsPerYear * BigInt(maxInflationRate[1]) * NUM_NS_IN_SECOND);
  const epochProtocolTreasury = (epochTotalReward * rateNum!) / rateDen!;
  res.set(calc.protocolTreasuryAccount, epochProtocolTreasury);
  if (validatorBlockChunkStats.size === 0) return { validatorReward: res, mintedAmount: 0n };
  const epochValidatorReward = epochTotalReward - epochProtocolTreasury;
  let epochActualReward = epochProtocolTreasury;
  let totalStake = 0n;
  for (const s of validatorStake.values()) totalStake += s;
  const minNum = BigInt(onlineThresholds.onlineMinThreshold[0]);
  const minDen = BigInt(onlineThresholds.onlineMinThreshold[1]);
  const maxNum = BigInt(onlineThresholds.onlineMaxThreshold[0]);
  const maxDen = BigInt(onlineThresholds.onlineMaxThreshold[1]);
  for (const [accountId, stats] of validatorBlockChunkStats) {
    const [producedNum, producedDen] = getValidatorOnlineRatio(
      stats,
      onlineThresholds.endorsementCutoffThreshold,
    );
    const nothingExpected =
      stats.blockStats.expected === 0n &&
      stats.chunkStats.production.expected === 0n &&
      stats.chunkStats.endorsement.expected === 0n;
    let reward = 0n;
    // nearcore never has a validator set without stake (selection needs the seat price); here a
    // genesis validator that unstaked stays, so a zero total pays nothing rather than dividing by it.
    if (!(producedNum * minDen < minNum * producedDen || nothingExpected || totalStake === 0n)) {
      const stake = validatorStake.get(accountId);
      if (stake === undefined) throw new Error(`${accountId} is not a validator`);
      // Linear from nothing at the min threshold to the full share at the max one.
      const onlineNum = maxNum * minDen - minNum * maxDen;
      let uptimeNum = (producedNum * minDen - minNum * producedDen) * maxDen;
      const uptimeDen = onlineNum * producedDen;
      if (uptimeNum > uptimeDen) uptimeNum = uptimeDen;
      reward = (epochValidatorReward * uptimeNum * stake) / uptimeDen / totalStake;
    }
    res.set(accountId, reward);
    epochActualReward += reward;
  }
  return { validatorReward: res, mintedAmount: epochActualReward };
}

/** The EpochConfig fields the reward reads: max_inflation_rate and the online thresholds. */
export interface RewardEpochConfig {
  readonly maxInflationRate: Rational;
  readonly onlineThresholds: ValidatorOnlineThresholds;
}

function rational(v: unknown, fallback: Rational): Rational {
  return Array.isArray(v) && v.length === 2 ? [Number(v[0]), Number(v[1])] : fallback;
}

/**
 * The reward fields of the epoch config in force (genesis/epoch_config.ts). finalize_epoch uses
 * chunk_validator_only_kickout_threshold as the endorsement cutoff; mainnet's and testnet's stored
 * configs have the same reward fields at protocol 85 and on.
 */
export function rewardEpochConfig(cfg: GenesisConfig): RewardEpochConfig {
  if (epochConfigSource(cfg.chainId) === 'stored')
    return {
      maxInflationRate: [1, 40],
      onlineThresholds: {
        onlineMinThreshold: [90, 100],
        onlineMaxThreshold: [99, 100],
        endorsementCutoffThreshold: 70,
      },
    };
  const raw = epochConfigFields(cfg);
  const cutoff = raw.chunk_validator_only_kickout_threshold;
  return {
    maxInflationRate: rational(raw.max_inflation_rate, [1, 40]),
    onlineThresholds: {
      onlineMinThreshold: rational(raw.online_min_threshold, [90, 100]),
      onlineMaxThreshold: rational(raw.online_max_threshold, [99, 100]),
      endorsementCutoffThreshold: typeof cutoff === 'number' ? cutoff : 80,
    },
  };
}

export function rewardCalculatorOf(cfg: GenesisConfig): RewardCalculator {
  return {
    protocolRewardRate: rational(cfg.raw.protocol_reward_rate, [0, 1]),
    protocolTreasuryAccount: cfg.protocolTreasuryAccount,
    numSecondsPerYear: NUM_SECONDS_IN_A_YEAR,
    genesisProtocolVersion: cfg.protocolVersion,
  };
}
