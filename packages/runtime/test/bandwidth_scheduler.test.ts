// The bandwidth scheduler's state as nearcore's run_bandwidth_scheduler leaves it in every chunk
// (runtime/runtime/src/bandwidth_scheduler), with no bandwidth requests. Parameters from
// parameters.snap at protocol 86: max_shard_bandwidth 4_500_000, max_single_grant 4_194_304,
// max_allowance 4_500_000, max_base_bandwidth 100_000. With four shards, BandwidthSchedulerParams
// gives base_bandwidth = min((4_500_000 - 4_194_304) / 3, 100_000) = 100_000, and each height
// raises every link's allowance by max_shard_bandwidth / 4 = 1_125_000 (up to max_allowance)
// before the base grant takes 100_000 off every allowed link.
import { toHex } from '@nearlite/primitives';
import {
  baseBandwidth,
  DEFAULT_CONGESTION_INFO,
  decodeBandwidthSchedulerState,
  encodeBandwidthSchedulerState,
} from '@nearlite/runtime';
import t from 'tap';
import { FIRST_SANITY_HASH, nextSanityHash } from '../../../test/helpers/scheduler_sanity.js';
import { config, TestChain } from './helpers.js';

const STATE_KEY = '0f'; // trie_key.rs col::BANDWIDTH_SCHEDULER_STATE, alone
const SHARDS = [0, 1, 2, 3];

function fourShardChain(): TestChain {
  const c = new TestChain();
  c.ctxExtra = { shardIds: SHARDS };
  return c;
}

function stateOf(c: TestChain) {
  const raw = c.state.get(STATE_KEY);
  if (!raw) throw new Error('no scheduler state');
  return decodeBandwidthSchedulerState(raw);
}

t.test('base_bandwidth as BandwidthSchedulerParams::calculate gives it', async (t) => {
  const c = config.bandwidthScheduler;
  t.equal(baseBandwidth(c, 4), 100_000, '305_696 / 3 = 101_898, capped at max_base_bandwidth');
  t.equal(baseBandwidth(c, 1), 100_000);
  t.equal(baseBandwidth(c, 6), 61_139, '305_696 / 5');
});

t.test('allowances grow by the fair share and lose the base grant, up to max_allowance', async (t) => {
  const c = fourShardChain();
  t.equal(c.state.get(STATE_KEY), undefined, 'no state before the first chunk');
  const expected = [1_025_000, 2_050_000, 3_075_000, 4_100_000, 4_400_000, 4_400_000];
  let sanity = FIRST_SANITY_HASH;
  for (const allowance of expected) {
    c.block();
    const s = stateOf(c);
    t.same(
      s.linkAllowances,
      SHARDS.flatMap((sender) => SHARDS.map((receiver) => ({ sender, receiver, allowance }))),
      `every link at ${allowance}`,
    );
    sanity = nextSanityHash(sanity, SHARDS);
    t.equal(toHex(s.sanityCheckHash), toHex(sanity));
  }
  // BandwidthSchedulerState::V1 = 0, Vec<LinkAllowance> (u32 count, three u64 each), the hash.
  t.equal(c.state.get(STATE_KEY)!.length, 1 + 4 + 16 * 24 + 32);
  t.same(encodeBandwidthSchedulerState(stateOf(c)), c.state.get(STATE_KEY));
});

t.test('a fully congested receiver is granted base bandwidth from its allowed sender only', async (t) => {
  const c = fourShardChain();
  const congested = {
    ...DEFAULT_CONGESTION_INFO,
    // max_congestion_incoming_gas is 4e17: its congestion level is exactly 1.
    delayedReceiptsGas: 400_000_000_000_000_000n,
    allowedShard: 2,
  };
  const calm = (id: number) => ({
    congestionInfo: { ...DEFAULT_CONGESTION_INFO, allowedShard: id },
    missedChunksCount: 0,
  });
  c.ctxExtra = {
    shardIds: SHARDS,
    blockCongestion: new Map([
      [0, calm(0)],
      [1, { congestionInfo: congested, missedChunksCount: 0 }],
      [2, calm(2)],
      // Its last chunk missing: no link to or from it is granted anything.
      [3, { ...calm(3), missedChunksCount: 1 }],
    ]),
  };
  c.block();
  const granted = 1_025_000;
  const notGranted = 1_125_000;
  const allowance = (sender: number, receiver: number) => {
    if (sender === 3 || receiver === 3) return notGranted;
    if (receiver === 1) return sender === 2 ? granted : notGranted;
    return granted;
  };
  t.same(
    stateOf(c).linkAllowances,
    SHARDS.flatMap((sender) =>
      SHARDS.map((receiver) => ({ sender, receiver, allowance: allowance(sender, receiver) })),
    ),
  );
});

t.test('links of shards no longer in the layout are dropped; a new shard starts from zero', async (t) => {
  const c = fourShardChain();
  c.block();
  c.ctxExtra = { shardIds: [0, 1, 2, 3, 4] };
  c.block();
  // Five shards: fair share 900_000, base min(305_696 / 4, 100_000) = 76_424.
  const links = stateOf(c).linkAllowances;
  t.equal(links.length, 25);
  t.same(links.find((l) => l.sender === 0 && l.receiver === 1)?.allowance, 1_025_000 + 900_000 - 76_424);
  t.same(links.find((l) => l.sender === 4 && l.receiver === 0)?.allowance, 900_000 - 76_424);
  c.ctxExtra = { shardIds: [0, 1] };
  c.block();
  t.same(
    stateOf(c).linkAllowances.map((l) => [l.sender, l.receiver]),
    [
      [0, 0],
      [0, 1],
      [1, 0],
      [1, 1],
    ],
  );
});
