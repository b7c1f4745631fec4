// A Stake below the epoch's minimum (runtime/runtime/src/actions.rs action_stake): with the balance
// covering it, a non-zero stake under EpochInfoProvider::minimum_stake fails with InsufficientStake
// { account_id, stake, minimum_stake } and proposes nothing; a stake the balance cannot cover is
// TriesToStake first, and unstaking (zero) is never held to the minimum. The minimum arrives with the
// chunk (ApplyContext.minimumStake; the chain derives it as nearcore's EpochManager::minimum_stake).
import t from 'tap';
import { keyFromSeed, NEAR, signTx, TestChain } from './helpers.js';

const alice = keyFromSeed(1);
const MINIMUM = 3n * NEAR;

function chain(): TestChain {
  const c = new TestChain();
  c.addAccount('alice.near', 100n * NEAR, alice);
  c.minimumStake = MINIMUM;
  return c;
}

let nonce = 1n;
function stake(c: TestChain, amount: bigint) {
  const tx = signTx(alice, 'alice.near', 'alice.near', nonce++, [
    { type: 'Stake', stake: amount, publicKey: alice.publicKey },
  ]);
  // signer = receiver: the receipt runs in the same chunk.
  const { res, outcomes } = c.block([tx.bytes]);
  return { status: outcomes[1]!.status, proposals: res.validatorProposals };
}

t.test('a stake under the minimum is InsufficientStake', async (t) => {
  const c = chain();
  const below = stake(c, MINIMUM - 1n);
  t.same(below.status, {
    kind: 'Failure',
    error: {
      ActionError: {
        index: 0,
        kind: {
          InsufficientStake: {
            account_id: 'alice.near',
            stake: (MINIMUM - 1n).toString(),
            minimum_stake: MINIMUM.toString(),
          },
        },
      },
    },
  });
  t.same(below.proposals, []);
  t.equal(c.account('alice.near')!.locked, 0n);

  const at = stake(c, MINIMUM);
  t.equal(at.status.kind, 'SuccessValue');
  t.equal(at.proposals.length, 1);
  t.equal(c.account('alice.near')!.locked, MINIMUM);
  // Unstaking is not a stake below the minimum.
  t.equal(stake(c, 0n).status.kind, 'SuccessValue');
});

t.test('a stake the balance cannot cover is TriesToStake, whatever the minimum', async (t) => {
  const c = chain();
  c.minimumStake = 1000n * NEAR;
  const tooMuch = 500n * NEAR;
  const r = stake(c, tooMuch);
  const balance = c.account('alice.near')!.amount;
  t.same(r.status, {
    kind: 'Failure',
    error: {
      ActionError: {
        index: 0,
        kind: {
          TriesToStake: {
            account_id: 'alice.near',
            stake: tooMuch.toString(),
            locked: '0',
            balance: balance.toString(),
          },
        },
      },
    },
  });
});

// runtime/runtime/src/lib.rs update_validator_accounts: locked balance above both the largest stake
// of the last three epoch infos (stake_info) and the account's last proposal goes back to its amount;
// a validator's reward is added to its locked balance first.
t.test('the first chunk of an epoch returns stake no epoch info holds', async (t) => {
  const update = (
    stakeInfo: [string, bigint][],
    lastProposals: [string, bigint][] = [],
    rewards: [string, bigint][] = [],
  ) => ({
    stakeInfo: new Map(stakeInfo),
    lastProposals: new Map(lastProposals),
    validatorRewards: new Map(rewards),
    protocolTreasuryAccountId: 'treasury.near',
  });
  const c = chain();
  t.equal(stake(c, 5n * NEAR).status.kind, 'SuccessValue');
  c.block([]); // the stake's gas refund
  const amount = c.account('alice.near')!.amount;

  // A proposal the epoch info left out (stake change 0), but made in the chunk before: kept.
  c.ctxExtra = { validatorAccountsUpdate: update([['alice.near', 0n]], [['alice.near', 5n * NEAR]]) };
  c.block([]);
  t.equal(c.account('alice.near')!.locked, 5n * NEAR, 'the last proposal holds the stake');

  // A validator: its reward joins its stake, which the next epoch info holds with it.
  c.ctxExtra = {
    validatorAccountsUpdate: update([['alice.near', 5n * NEAR + 7n]], [], [['alice.near', 7n]]),
  };
  c.block([]);
  t.same(
    { amount: c.account('alice.near')!.amount, locked: c.account('alice.near')!.locked },
    { amount, locked: 5n * NEAR + 7n },
    'the reward is locked',
  );

  // The largest stake of the three epoch infos is 2 NEAR: the rest comes back.
  c.ctxExtra = { validatorAccountsUpdate: update([['alice.near', 2n * NEAR]]) };
  c.block([]);
  t.same(
    { amount: c.account('alice.near')!.amount, locked: c.account('alice.near')!.locked },
    { amount: amount + 3n * NEAR + 7n, locked: 2n * NEAR },
  );

  c.ctxExtra = { validatorAccountsUpdate: update([['alice.near', 0n]]) };
  c.block([]);
  t.same(
    { amount: c.account('alice.near')!.amount, locked: c.account('alice.near')!.locked },
    { amount: amount + 5n * NEAR + 7n, locked: 0n },
    'nothing staked: all of it',
  );
});
