// Minting and validator rewards across epoch boundaries of a produced chain, against nearcore's
// formula written out here (reward_calculator.rs calculate_reward with one fully online validator:
// total = ⌊max_inflation_rate · supply · duration / (NUM_SECONDS_IN_A_YEAR · 10⁹)⌋, treasury share
// ⌊total · protocol_reward_rate⌋, the rest to the validator), with the supply and the timestamps
// read from the chain's own blocks (finalize_epoch: the last block of the epoch and the last block of
// the epoch before, genesis for the first). The first block of the next epoch mints it (block.rs:
// prev + minted − burnt) and its chunk adds the validator's share to `locked` (runtime lib.rs
// update_validator_accounts, cause ValidatorAccountsUpdate).
import { type Chain, ChainStore, decodeStateChangeRecords } from '@nearlite/chain';
import { concatBytes, decodeAccount } from '@nearlite/primitives';
import { DBCol, type Store } from '@nearlite/store';
import { trieKeyAccount } from '@nearlite/trie';
import t from 'tap';
import { openLocalChain } from './local_chain.js';

const SECONDS_PER_YEAR = 31_536_000n;
const EPOCH_LENGTH = 5;

async function setup(tweak: (raw: Record<string, unknown>) => void = () => {}, existing?: Store) {
  const { chain, store } = await openLocalChain({
    chainId: 'test-chain-rwd01',
    epochLength: EPOCH_LENGTH,
    tweak,
    ...(existing ? { store: existing } : {}),
  });
  return { chain, store };
}

interface AccountAt {
  readonly amount: bigint;
  readonly locked: bigint;
}

function reader(chain: Chain) {
  const cs = new ChainStore(chain.store);
  const headerAt = (h: number) => cs.blockHeader(cs.blockHashByHeight(h)!)!;
  const account = (h: number, id: string): AccountAt => {
    const raw = chain.stateTrie(headerAt(h).hash, 0)!.get(trieKeyAccount(id))!;
    return decodeAccount(raw);
  };
  const changeCauses = (h: number, id: string): string[] => {
    const row = chain.store.get(DBCol.StateChanges, concatBytes(headerAt(h).hash, trieKeyAccount(id)));
    return row ? decodeStateChangeRecords(row).map((c) => c.cause.type) : [];
  };
  return { headerAt, account, changeCauses };
}

/** nearcore's epoch total reward for localnet's max_inflation_rate 1/20. */
function epochTotalReward(supply: bigint, durationNs: bigint): bigint {
  return (1n * supply * durationNs) / (SECONDS_PER_YEAR * 20n * 1_000_000_000n);
}

t.test('the validator that is also the treasury: supply gains all, locked the validator share', async (t) => {
  const { chain } = await setup();
  // A second a block, so the reward is well above rounding.
  await chain.produceBlocks(3 * EPOCH_LENGTH + 2, 1_000_000_000n);
  const { headerAt, account, changeCauses } = reader(chain);
  for (const epoch of [0, 1, 2]) {
    const last = (epoch + 1) * EPOCH_LENGTH;
    const end = headerAt(last);
    const total = epochTotalReward(
      end.rest.totalSupply,
      end.lite.timestamp - headerAt(last - EPOCH_LENGTH).lite.timestamp,
    );
    const treasury = total / 10n;
    t.ok(total > 0n, `epoch ${epoch} mints`);
    // No transactions, so nothing is burnt: the supply moves by the minted amount only.
    t.equal(
      headerAt(last + 1).rest.totalSupply,
      end.rest.totalSupply + total,
      `epoch ${epoch}: supply + minted`,
    );
    t.equal(headerAt(last - 1).rest.totalSupply, end.rest.totalSupply, 'no minting inside an epoch');
    const before = account(last, 'test.near');
    const after = account(last + 1, 'test.near');
    // The treasury's entry is overwritten by its validator reward, so its share is paid to no one.
    t.equal(after.locked, before.locked + (total - treasury), `epoch ${epoch}: locked + validator share`);
    t.equal(after.amount, before.amount, 'amount unchanged');
    t.same(changeCauses(last + 1, 'test.near'), ['validator_accounts_update']);
    t.same(changeCauses(last + 2, 'test.near'), [], 'nothing in the next block');
  }
  t.same(changeCauses(1, 'test.near'), ['validator_accounts_update'], 'the first block writes it unchanged');
  t.equal(account(1, 'test.near').locked, account(0, 'test.near').locked);
  t.equal(headerAt(1).rest.totalSupply, headerAt(0).rest.totalSupply);
});

t.test('a treasury that is not a validator: its share goes to its amount', async (t) => {
  const { chain } = await setup((raw) => {
    raw.protocol_treasury_account = 'near';
  });
  await chain.produceBlocks(EPOCH_LENGTH + 1, 1_000_000_000n);
  const { headerAt, account, changeCauses } = reader(chain);
  const end = headerAt(EPOCH_LENGTH);
  const total = epochTotalReward(end.rest.totalSupply, end.lite.timestamp - headerAt(0).lite.timestamp);
  const treasury = total / 10n;
  t.equal(headerAt(EPOCH_LENGTH + 1).rest.totalSupply, end.rest.totalSupply + total);
  const v = [account(EPOCH_LENGTH, 'test.near'), account(EPOCH_LENGTH + 1, 'test.near')] as const;
  const n = [account(EPOCH_LENGTH, 'near'), account(EPOCH_LENGTH + 1, 'near')] as const;
  t.equal(v[1].locked - v[0].locked, total - treasury);
  t.equal(n[1].amount - n[0].amount, treasury);
  t.equal(n[1].locked, n[0].locked);
  t.same(changeCauses(EPOCH_LENGTH + 1, 'near'), ['validator_accounts_update']);
  // Everything minted is paid: the balances still add up to the supply.
  const sum = (h: number) =>
    ['test.near', 'near'].reduce((acc, id) => acc + account(h, id).amount + account(h, id).locked, 0n);
  t.equal(sum(EPOCH_LENGTH + 1), headerAt(EPOCH_LENGTH + 1).rest.totalSupply);
});

t.test(
  'stakes carry rewards two epochs on and split the next rewards; a reopened chain goes on alike',
  async (t) => {
    const NEAR = 10n ** 24n;
    const nearStake = 10_000_000n * NEAR;
    // A second validator, `near`, staking part of its balance (the total supply is unchanged).
    const tweak = (raw: Record<string, unknown>) => {
      const validators = raw.validators as { account_id: string; public_key: string; amount: string }[];
      validators.push({
        account_id: 'near',
        public_key: validators[0]!.public_key,
        amount: nearStake.toString(),
      });
      for (const r of raw.records as {
        Account?: { account_id: string; account: Record<string, string> };
      }[]) {
        if (r.Account?.account_id !== 'near') continue;
        r.Account.account.amount = (BigInt(r.Account.account.amount!) - nearStake).toString();
        r.Account.account.locked = nearStake.toString();
      }
    };
    const first = await setup(tweak);
    await first.chain.produceBlocks(2 * EPOCH_LENGTH + 2, 1_000_000_000n);
    // The same store reopened, as after a restart: what the first chain worked out is read back.
    const { chain } = await setup(tweak, first.store);
    await chain.produceBlocks(2 * EPOCH_LENGTH, 1_000_000_000n);
    const { headerAt, account } = reader(chain);
    const genesis = new Map([
      ['test.near', account(0, 'test.near').locked],
      ['near', nearStake],
    ]);
    const paid: Map<string, bigint>[] = [];
    for (const epoch of [0, 1, 2, 3]) {
      // Epoch info stakes: genesis in epochs 0 and 1, then plus the rewards of the epoch two before.
      const stakes = new Map(genesis);
      for (const p of paid.slice(0, Math.max(0, epoch - 1)))
        for (const [id, r] of p) stakes.set(id, stakes.get(id)! + r);
      const totalStake = [...stakes.values()].reduce((a, b) => a + b, 0n);
      const last = (epoch + 1) * EPOCH_LENGTH;
      const end = headerAt(last);
      const total = epochTotalReward(
        end.rest.totalSupply,
        end.lite.timestamp - headerAt(last - EPOCH_LENGTH).lite.timestamp,
      );
      const validators = total - total / 10n;
      const rewards = new Map([...stakes].map(([id, s]) => [id, (validators * s) / totalStake] as const));
      paid.push(rewards);
      const minted = total / 10n + rewards.get('test.near')! + rewards.get('near')!;
      t.equal(headerAt(last + 1).rest.totalSupply, end.rest.totalSupply + minted, `epoch ${epoch}: minted`);
      for (const id of ['test.near', 'near'])
        t.equal(
          account(last + 1, id).locked - account(last, id).locked,
          rewards.get(id),
          `epoch ${epoch}: ${id}'s reward by its stake`,
        );
    }
  },
);
