// Epochs with one validator: fixed-length ranges of heights after genesis. As in nearcore, the first
// epoch's id is the zero hash, the second's is the genesis hash, and epoch e ≥ 2 takes the hash of the
// last block of epoch e − 2.
import { type CryptoHash, ZERO_HASH } from '@nearlite/primitives';

export interface EpochPosition {
  /** 0-based epoch index (nearcore's epoch_height: `epochHeightOf`). */
  readonly index: number;
  readonly startHeight: number;
  readonly endHeight: number;
}

export function epochOf(height: number, genesisHeight: number, epochLength: number): EpochPosition {
  if (height <= genesisHeight)
    return { index: 0, startHeight: genesisHeight, endHeight: genesisHeight + epochLength };
  const index = Math.floor((height - genesisHeight - 1) / epochLength);
  const startHeight = genesisHeight + 1 + index * epochLength;
  return { index, startHeight, endHeight: startHeight + epochLength - 1 };
}

/**
 * nearcore's epoch_height of the epoch holding `height`: what receipts and view calls at it see. The
 * genesis' epoch info is 1 and serves the first two epochs (record_block_info saves it again under
 * the genesis hash, the second epoch's id); each later epoch's is its predecessor's plus one.
 */
export function epochHeightOf(height: number, genesisHeight: number, epochLength: number): number {
  return Math.max(1, epochOf(height, genesisHeight, epochLength).index);
}

/**
 * Id of epoch `index`; `hashAt(h)` returns the canonical block hash at height h (those heights are
 * always below the block being produced).
 */
export function epochIdOf(
  index: number,
  genesisHeight: number,
  epochLength: number,
  genesisHash: CryptoHash,
  hashAt: (h: number) => CryptoHash,
): CryptoHash {
  if (index <= 0) return ZERO_HASH;
  if (index === 1) return genesisHash;
  return hashAt(genesisHeight + (index - 1) * epochLength);
}

/** The parts of nearcore's EpochConfig that pick an epoch's validators (genesis fields). */
export interface ValidatorSelectionConfig {
  readonly numBlockProducerSeats: number;
  readonly numChunkProducerSeats: number;
  readonly numChunkValidatorSeats: number;
  /** [numerator, denominator]: the least share of the running total a validator may hold. */
  readonly minimumStakeRatio: readonly [number, number];
  readonly minimumStakeDivisor: bigint;
}

/**
 * nearcore's select_validators, for its threshold only: take the largest stakes while each is more
 * than the ratio of the running total, up to `seats`. All seats filled: one above the smallest
 * taken; otherwise the least stake that would pass the ratio, ceil(r·total / (1 − r)).
 */
function selectionThreshold(
  sorted: readonly bigint[],
  seats: number,
  [num, den]: readonly [number, number],
): bigint {
  const n = BigInt(num);
  const d = BigInt(den);
  let total = 0n;
  let taken = 0;
  for (const stake of sorted.slice(0, seats)) {
    const withIt = total + stake;
    if (!(withIt > 0n && stake * d > n * withIt)) break;
    total = withIt;
    taken++;
  }
  if (taken === seats && taken > 0) return sorted[taken - 1]! + 1n;
  return (n * total + (d - n) - 1n) / (d - n);
}

/**
 * nearcore's EpochInfo::seat_price for an epoch of these stakes (proposals_to_epoch_info): the
 * lowest of the block producer, chunk producer and chunk validator thresholds.
 */
export function seatPrice(stakes: readonly bigint[], c: ValidatorSelectionConfig): bigint {
  const sorted = [...stakes].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0));
  const bp = selectionThreshold(sorted, c.numBlockProducerSeats, c.minimumStakeRatio);
  const cp = selectionThreshold(sorted, c.numChunkProducerSeats, c.minimumStakeRatio);
  const cv = selectionThreshold(sorted, c.numChunkValidatorSeats, c.minimumStakeRatio);
  let least = bp;
  for (const t of [cp, cv]) if (t < least) least = t;
  return least;
}

/**
 * nearcore's EpochManager::minimum_stake: the next epoch's seat price over minimum_stake_divisor. Every
 * epoch of this chain has the genesis validators at their genesis stakes, so it never changes.
 */
export function minimumStake(stakes: readonly bigint[], c: ValidatorSelectionConfig): bigint {
  return seatPrice(stakes, c) / c.minimumStakeDivisor;
}

/**
 * The selection fields of a genesis config object, with nearcore's serde defaults for the optional
 * ones (core/chain-configs genesis_config.rs); num_block_producer_seats has none, so a file without
 * it gets one seat per genesis validator, as the node's client config does.
 */
export function validatorSelectionConfig(
  raw: Readonly<Record<string, unknown>>,
  numValidators: number,
): ValidatorSelectionConfig {
  const num = (key: string, fallback: number): number =>
    typeof raw[key] === 'number' ? (raw[key] as number) : fallback;
  const ratio = raw.minimum_stake_ratio;
  return {
    numBlockProducerSeats: num('num_block_producer_seats', numValidators),
    numChunkProducerSeats: num('num_chunk_producer_seats', 100),
    numChunkValidatorSeats: num('num_chunk_validator_seats', 300),
    minimumStakeRatio:
      Array.isArray(ratio) && ratio.length === 2 ? [Number(ratio[0]), Number(ratio[1])] : [160, 1_000_000],
    minimumStakeDivisor: BigInt(num('minimum_stake_divisor', 10)),
  };
}
