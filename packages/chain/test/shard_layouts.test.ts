// The same transactions on a chain of one shard, on a chain of four, on a chain of four whose epochs
// last six blocks, and on one that fast-forwards (sandbox_fast_forward) right after each wave is
// sent, so that its receipts run in blocks that skipped heights. nearcore's fees, refunds and burns
// depend neither on which shard an account lives on, nor on where epochs end, nor on the heights
// between blocks: a receipt that crosses shards runs a block later, nothing more. So once each wave
// of transactions (commuting_waves.ts) has run to the end, every account, access key and contract
// is the same on all four chains, and the total supply, which counts every yocto burnt, is the same
// on the two whose epochs do not end (an epoch's end mints rewards to the validator, the one account
// left out of the comparison with the last two). A difference names a path that charges, refunds or
// routes by shard, by epoch or by height. The contracts touch no storage: nearcore charges a storage
// access by the trie nodes on its key's path (touching_trie_node, read_cached_trie_node), which the
// other keys of the shard shape, so there the gas does depend on the layout.
import { toHex } from '@nearlite/primitives';
import { Store } from '@nearlite/store';
import t from 'tap';
import { openProtocol86Chain } from '../../../test/helpers/protocol86_chain.js';
import {
  accountState,
  ChainTwin,
  commutingWaves,
  send,
  settle,
  stateDifferences,
} from './commuting_waves.js';
import { deployToUsers, USERS, withUsers } from './four_shards.js';
import { relay } from './relay_contract.js';

const WAVES = Number(process.env.LAYOUT_WAVES ?? 16);
const DEFAULT_SEED = 20261205;
/** The chains' validator, and their protocol treasury. */
const VALIDATOR = 'test.near';

class LayoutTwin extends ChainTwin {
  /** Whether epochs end during the run, minting rewards to the validator. */
  epochs = false;
  /** Whether each wave starts with a sandbox fast-forward past skipped heights. */
  fastForward = false;
}

t.test('one shard, four, short epochs: the same transactions leave the same accounts', (t) =>
  sameAccounts(t, 'return'),
);

// With relays that write their records, the gas of the writes differs (see above), and so do the
// balances; what the writes leave must not: the records, and every account's storage usage.
t.test('and, with contracts that write storage, the same records and storage usage', (t) =>
  sameAccounts(t, 'write'),
);

async function sameAccounts(t: Tap.Test, record: 'return' | 'write'): Promise<void> {
  const seed = Number(process.env.LAYOUT_SEED ?? DEFAULT_SEED);
  t.comment(`seed ${seed} (LAYOUT_SEED reruns it)`);
  const relayCode = await relay(record);
  // What an accountState holds, its balances left out where the writes' gas moves them.
  const stateOf = (twin: ChainTwin) => {
    const state = accountState(twin);
    if (record === 'write')
      for (const [k, v] of state)
        if (k.startsWith('account ')) {
          const { amount: _, ...rest } = JSON.parse(v) as Record<string, unknown>;
          state.set(k, JSON.stringify(rest));
        }
    return state;
  };
  const twins: LayoutTwin[] = [];
  for (const [numShards, epochLength, fastForward] of [
    [1, 1000, false],
    [4, 1000, false],
    [4, 6, false],
    [4, 20, true],
  ] as const) {
    const { raw, signer } = withUsers([], numShards, epochLength);
    const chain = await openProtocol86Chain(raw, signer, await Store.memory(), { vm: true });
    const name = `${numShards} shard(s), epochs of ${epochLength}${fastForward ? ', fast-forwarded' : ''}`;
    const twin = new LayoutTwin(name, chain, signer);
    twin.epochs = epochLength < 1000;
    twin.fastForward = fastForward;
    twins.push(twin);
  }
  const [one, four, short, forwarded] = twins as [LayoutTwin, LayoutTwin, LayoutTwin, LayoutTwin];
  t.equal(one.chain.layout.shardIds.length, 1);
  t.equal(
    new Set(USERS.map((id) => four.chain.layout.accountIdToShardId(id))).size,
    4,
    'the users are spread over the four shards',
  );
  for (const twin of twins)
    t.ok(await deployToUsers(twin.chain, twin.sender, relayCode), `${twin.name}: relays deployed`);

  const waves = commutingWaves(seed, relayCode);
  const supplyOf = (twin: ChainTwin) => twin.chain.headHeader().rest.totalSupply;
  t.equal(supplyOf(one), supplyOf(four), 'the same supply to start with');
  let sent = 0;
  for (let wave = 0; wave < WAVES; wave++) {
    const ops = waves.next();
    sent += ops.length;
    for (const twin of twins) for (const op of ops) send(twin, op);
    const blocks: number[] = [];
    for (const twin of twins) {
      // The wave's transactions go into the first block; their receipts run past the skipped heights.
      if (twin.fastForward) await twin.chain.fastForward(45, 1_000_000_000n);
      blocks.push(await settle(twin));
    }
    waves.settled();
    const a = stateOf(one);
    for (const twin of [four, short, forwarded]) {
      const b = stateOf(twin);
      const differences = stateDifferences(
        a,
        b,
        [one.name, twin.name],
        (k) => !twin.epochs || !k.includes(` ${VALIDATOR}`),
      );
      const supplies = [supplyOf(one), supplyOf(twin)];
      const suppliesDiffer = record === 'return' && !twin.epochs && supplies[0] !== supplies[1];
      if (differences.length > 0 || suppliesDiffer) {
        t.same(
          differences,
          [],
          `wave ${wave}, ${twin.name}: accounts differ (after ${blocks.join(', ')} blocks)`,
        );
        t.equal(supplies[0], supplies[1], `wave ${wave}, ${twin.name}: total supply`);
        return;
      }
    }
    // The chains charge at the minimum gas price throughout, or the comparison would say nothing.
    const prices = twins.map((twin) => twin.chain.headHeader().rest.nextGasPrice);
    if (new Set(prices).size > 1) return void t.fail(`wave ${wave}: gas prices ${prices.join(', ')}`);
  }
  const final = accountState(one);
  const count = (prefix: string) => [...final.keys()].filter((k) => k.startsWith(prefix)).length;
  t.comment(
    `${sent} transactions over ${WAVES} waves: ${waves.calls} relayed calls, ${count('account ')} accounts, ${count('key ')} keys`,
  );
  const epochOf = (twin: ChainTwin) => toHex(twin.chain.headHeader().lite.epochId);
  t.not(epochOf(short), epochOf(four), 'epochs ended on the third chain');
  const forwardedHead = forwarded.chain.headHeader();
  t.ok(
    forwardedHead.lite.height > forwardedHead.rest.blockOrdinal + WAVES * 20,
    `the fourth skipped heights (head #${forwardedHead.lite.height}, block ${forwardedHead.rest.blockOrdinal})`,
  );
  // What the waves covered. The default seed covers it all; another may miss a part, which is then
  // only reported.
  const relayed = waves.relayedSenders();
  // A delegate action that ran left its nonce on the sender's key.
  const ran = relayed.filter((id) => one.keyNonce(id) === one.nonces.get(id));
  t.equal(ran.length, relayed.length, 'every meta transaction ran');
  const covered: [boolean, string][] = [
    [count('account ') > USERS.length + 4, 'the waves made accounts'],
    [waves.calls > 10, `relayed calls across shards (${waves.calls})`],
    [ran.length > 0, `meta transactions (${ran.length} senders)`],
    [
      [...final.entries()].some(([k, v]) => k.startsWith('account ') && v.includes('"contract"')),
      'an account uses the global contract',
    ],
    [waves.gasKeyMoves > 0, `money moved into gas keys and out (${waves.gasKeyMoves} times)`],
  ];
  for (const [ok, what] of covered) {
    if (seed === DEFAULT_SEED) t.ok(ok, what);
    else if (!ok) t.comment(`seed ${seed} does not cover: ${what}`);
  }
  if (record === 'write') {
    const records = [...final.keys()].filter((k) => k.startsWith('data ')).length;
    t.ok(records > 0 && records === waves.calls, `every relayed call left its record (${records})`);
  }
}
