// nearcore's localized congestion level (CongestionInfo::localized_congestion_level) with the
// congestion-control parameters of parameter snapshot 86: incoming 4e17 gas, outgoing 1e16 gas,
// memory 1e9 bytes.
import t from 'tap';
import { congestionLevel, congestionLimits } from '../src/views/congestion_level.js';

const limits = {
  max_congestion_incoming_gas: 4e17,
  max_congestion_outgoing_gas: 1e16,
  max_congestion_memory_consumption: 1e9,
};
const info = (delayed: bigint, buffered: bigint, bytes: bigint) => ({
  delayedReceiptsGas: delayed,
  bufferedReceiptsGas: buffered,
  receiptBytes: bytes,
});

t.test('the largest of the three fractions', async (t) => {
  t.equal(congestionLevel(info(0n, 0n, 0n), limits), 0);
  t.equal(congestionLevel(info(10n ** 17n, 0n, 0n), limits), 0.25, 'delayed receipts: incoming gas');
  t.equal(congestionLevel(info(10n ** 17n, 5n * 10n ** 15n, 0n), limits), 0.5, 'buffered: outgoing gas');
  t.equal(congestionLevel(info(0n, 0n, 3n * 10n ** 8n), limits), 0.3, 'receipt bytes: memory');
});

t.test('a fraction stops at 1 from its limit on', async (t) => {
  t.equal(congestionLevel(info(4n * 10n ** 17n, 0n, 0n), limits), 1);
  t.equal(congestionLevel(info(0n, 10n ** 30n, 0n), limits), 1, 'far above the limit, still 1');
});

t.test("the limits come from the runtime config view's congestion_control_config", async (t) => {
  const view = { congestion_control_config: { ...limits, max_congestion_missed_chunks: 125 } };
  t.equal(congestionLimits(view).max_congestion_outgoing_gas, 1e16);
});
