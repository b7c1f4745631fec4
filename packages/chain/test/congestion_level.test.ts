// nearcore's localized congestion level (CongestionInfo::localized_congestion_level) with the
// congestion-control parameters of parameter snapshot 86: incoming 4e17 gas, outgoing 1e16 gas,
// memory 1e9 bytes.
import { invalidTx } from '@nearlite/chain';
import { JsonF64, stringifyJson } from '@nearlite/primitives';
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

t.test(
  "the limits of each protocol version, from nearcore's parameter files (68.yaml, 73.yaml)",
  async (t) => {
    const { congestionLimitsOfVersion } = await import('../src/views/congestion_level.js');
    const unlimited = 9_223_372_036_854_775_807n;
    t.same(congestionLimitsOfVersion(67), {
      max_congestion_incoming_gas: unlimited,
      max_congestion_outgoing_gas: unlimited,
      max_congestion_memory_consumption: unlimited,
    });
    for (const v of [68, 72])
      t.equal(congestionLimitsOfVersion(v).max_congestion_incoming_gas, 20_000_000_000_000_000n, `${v}`);
    const at86 = congestionLimitsOfVersion(86);
    t.same(
      [
        at86.max_congestion_incoming_gas,
        at86.max_congestion_outgoing_gas,
        at86.max_congestion_memory_consumption,
      ],
      [400_000_000_000_000_000n, 10_000_000_000_000_000n, 1_000_000_000n],
      'as parameter snapshot 86 says',
    );
    t.equal(
      congestionLevel(info(10n ** 16n, 0n, 0n), congestionLimitsOfVersion(70)),
      0.5,
      '10 PGas delayed at 70',
    );
    t.equal(congestionLevel(info(10n ** 16n, 0n, 0n), at86), 0.025, 'and at 86');
  },
);

t.test('a congestion level is written as serde_json writes an f64', async (t) => {
  // RpcCongestionLevelResponse and InvalidTxError::ShardCongested hold an f64, which serde_json
  // writes with its point: an idle shard is `0.0`, a congested one `1.0`.
  t.equal(stringifyJson({ congestion_level: new JsonF64(0) }), '{"congestion_level":0.0}');
  const refused = invalidTx({ ShardCongested: { shard_id: 2, congestion_level: 1 } });
  t.equal(
    stringifyJson(refused.data),
    '{"TxExecutionError":{"InvalidTxError":{"ShardCongested":{"shard_id":2,"congestion_level":1.0}}}}',
  );
  t.equal(
    stringifyJson(invalidTx({ ShardCongested: { shard_id: 0, congestion_level: 0.8 } }).data),
    '{"TxExecutionError":{"InvalidTxError":{"ShardCongested":{"shard_id":0,"congestion_level":0.8}}}}',
  );
  t.same(
    invalidTx('Expired').data,
    { TxExecutionError: { InvalidTxError: 'Expired' } },
    'others as they are',
  );
});
