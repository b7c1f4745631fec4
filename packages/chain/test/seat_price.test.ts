// nearcore's seat price and minimum stake (chain/epoch-manager validator_selection.rs select_validators
// and proposals_to_epoch_info; lib.rs EpochManager::minimum_stake = seat_price / minimum_stake_divisor).
import t from 'tap';
import { minimumStake, seatPrice, validatorSelectionConfig } from '../src/epoch.js';

const NEAR = 10n ** 24n;

t.test("test_validator_assignment_ratio_condition's threshold", async (t) => {
  // 100 block producer, 300 chunk producer and validator seats, ratio 1/10: 200 is under a tenth of
  // the 3000 above it, so no seat is filled and the threshold is ceil(3000 · (1/10) / (9/10)) = 334.
  const c = {
    numBlockProducerSeats: 100,
    numChunkProducerSeats: 300,
    numChunkValidatorSeats: 300,
    minimumStakeRatio: [1, 10] as const,
    minimumStakeDivisor: 10n,
  };
  t.equal(seatPrice([1000n, 1000n, 1000n, 200n, 100n, 50n], c), 334n);
});

t.test('all seats filled: one above the smallest stake taken', async (t) => {
  const c = {
    numBlockProducerSeats: 2,
    numChunkProducerSeats: 2,
    numChunkValidatorSeats: 2,
    minimumStakeRatio: [1, 6250] as const,
    minimumStakeDivisor: 10n,
  };
  t.equal(seatPrice([800n, 1000n, 900n], c), 901n);
  // With a role's seats not all filled, its ratio bound ceil(2700 / 6249) = 1 is the lowest.
  t.equal(seatPrice([800n, 1000n, 900n], { ...c, numChunkValidatorSeats: 300 }), 1n);
});

t.test('one genesis validator: its stake · ratio / (1 − ratio), over the divisor', async (t) => {
  // localnet's epoch config: 50 / 100 / 300 seats, ratio 1/6250, divisor 10.
  const raw = {
    num_block_producer_seats: 50,
    num_chunk_producer_seats: 100,
    num_chunk_validator_seats: 300,
    minimum_stake_ratio: [1, 6250],
    minimum_stake_divisor: 10,
  };
  const stake = 50_000n * NEAR;
  const price = (stake + 6248n) / 6249n; // ceil(stake / 6249)
  t.equal(seatPrice([stake], validatorSelectionConfig(raw, 1)), price);
  t.equal(minimumStake([stake], validatorSelectionConfig(raw, 1)), price / 10n);
  // Genesis defaults (genesis_config.rs): ratio 160/1_000_000, divisor 10.
  const d = validatorSelectionConfig({}, 1);
  t.same(d.minimumStakeRatio, [160, 1_000_000]);
  t.equal(minimumStake([stake], d), (160n * stake + 999_840n - 1n) / 999_840n / 10n);
});
