// Stake outside the validator set, and the validators' stakes across epochs, as nearcore's epoch
// manager keeps them: a proposal under the seat price is left out of the epoch info two epochs on
// (stake change 0), so compute_stake_return_info returns its locked balance in the first block of
// the next epoch; rewards raise each validator's stake in the epoch info of T + 2.
import bs58 from 'bs58';
import {
  actions as A,
  Account,
  JsonRpcProvider,
  KeyPair,
  KeyPairSigner,
  type KeyPairString,
} from 'near-api-js';
import t from 'tap';
import wabt from 'wabt';
import { deployedAccount, localChain } from './helpers/chain.js';
import { sha256, type ValidatorStake, validatorStakesBytes } from './helpers/light_client.js';
import {
  initHome,
  type RunningNode,
  rawRpc,
  readKeyFile,
  startFollower,
  startNode,
  waitForHeight,
} from './helpers/node.js';
import { tempDir } from './helpers/tmp.js';

const NEAR = 10n ** 24n;
const EPOCH = 12;

interface StakeView {
  account_id: string;
  public_key: string;
  stake: string;
  validator_stake_struct_version?: string;
}
interface ValidatorsView {
  current_validators: StakeView[];
  next_validators: StakeView[];
  current_proposals: StakeView[];
  epoch_start_height: number;
  validator_reward_paid_prev_epoch: Record<string, string>;
}
interface AccountChange {
  cause: { type: string };
  change: { account_id: string; amount: string; locked: string };
}

t.test('a stake under the seat price is returned when the next epoch starts', async (t) => {
  const home = tempDir(t);
  initHome(home, ['--epoch-length', String(EPOCH)]);
  const key = readKeyFile(home);
  // Archival: the follower below reads the chain from its genesis, which GC would otherwise race.
  const node = await startNode(home, ['--block-time', '100', '--archive']);
  t.teardown(() => node.stop());
  await waitForHeight(node, 2);
  const provider = new JsonRpcProvider({ url: node.url });
  const genesis = (await node.rpc<{ genesis_height: number }>('EXPERIMENTAL_genesis_config', {})).body
    .result!;
  const epochStart = (height: number) =>
    genesis.genesis_height + 1 + Math.floor((height - genesis.genesis_height - 1) / EPOCH) * EPOCH;
  const rpc = async <T>(method: string, params: unknown): Promise<T> => {
    const { body } = await node.rpc<T>(method, params);
    if (!body.result) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
    return body.result;
  };

  const root = new Account('test.near', provider, key.secret_key as KeyPairString);
  const userKey = KeyPair.fromRandom('ed25519');
  const created = await root.createAccount({
    newAccountId: 'staker.test.near',
    publicKey: userKey.getPublicKey(),
    nearToTransfer: 1000n * NEAR,
  });
  await node.rpc('tx', {
    tx_hash: created.transaction_outcome.id,
    sender_account_id: 'test.near',
    wait_until: 'FINAL',
  });
  const user = new Account('staker.test.near', provider, new KeyPairSigner(userKey));
  const staked = await user.signAndSendTransaction({
    receiverId: 'staker.test.near',
    actions: [A.stake(900n * NEAR, userKey.getPublicKey())],
  });
  t.same(staked.status, { SuccessValue: '' });
  // A Stake action to oneself runs in the chunk that takes it; its proposal is in the next header.
  const ranAt = (
    await rpc<{ header: { height: number } }>('block', { block_id: staked.transaction_outcome.block_hash })
  ).header.height;
  const proposed = await rpc<{ header: { height: number; validator_proposals: StakeView[] } }>('block', {
    block_id: ranAt + 1,
  }).catch(async () => {
    await waitForHeight(node, ranAt + 1);
    return rpc<{ header: { height: number; validator_proposals: StakeView[] } }>('block', {
      block_id: ranAt + 1,
    });
  });
  const proposal = {
    validator_stake_struct_version: 'V1',
    account_id: 'staker.test.near',
    public_key: userKey.getPublicKey().toString(),
    stake: (900n * NEAR).toString(),
  };
  t.same(proposed.header.validator_proposals, [proposal], 'the header after carries the proposal');

  const returnedAt = epochStart(ranAt + 1) + EPOCH;
  await waitForHeight(node, returnedAt + 1, 60_000);
  const before = await rpc<{ amount: string; locked: string }>('query', {
    request_type: 'view_account',
    account_id: 'staker.test.near',
    block_id: returnedAt - 1,
  });
  t.equal(before.locked, (900n * NEAR).toString(), 'locked through the epoch of the proposal');

  const last = await rpc<ValidatorsView>('validators', [returnedAt - 1]);
  t.same(last.current_proposals, [proposal], 'the ended epoch lists the proposal');
  t.same(
    last.next_validators.map((v) => v.account_id),
    ['test.near'],
    'a proposal under the seat price is not selected',
  );

  const changes = await rpc<{ changes: AccountChange[] }>('EXPERIMENTAL_changes', {
    changes_type: 'account_changes',
    account_ids: ['staker.test.near'],
    block_id: returnedAt,
  });
  const update = changes.changes.find((c) => c.cause.type === 'validator_accounts_update');
  t.ok(update, 'the first block of the next epoch updates the account');
  t.equal(update?.change.locked, '0', 'nothing stays locked');
  t.equal(
    update?.change.amount,
    (BigInt(before.amount) + 900n * NEAR).toString(),
    'the stake is back in the balance',
  );
  const after = await rpc<{ locked: string }>('query', {
    request_type: 'view_account',
    account_id: 'staker.test.near',
    block_id: returnedAt,
  });
  t.equal(after.locked, '0', 'view_account from that block on');

  // A follower works the same epoch infos out of the blocks.
  const follower = await followerOf(t, home, node.url, returnedAt + 1);
  for (const params of [[returnedAt - 1], { block_id: epochStart(ranAt + 1) - 1 }]) {
    const [a, b] = await Promise.all([
      rawRpc(node.url, 'validators', params),
      rawRpc(follower.url, 'validators', params),
    ]);
    t.equal(b.body, a.body, `the follower's validators at ${JSON.stringify(params)}`);
  }
});

t.test("a validator's stake grows by its reward two epochs on, and next_bp_hash commits to it", async (t) => {
  const { home, node, provider, root } = await localChain(t, {
    epochLength: EPOCH,
    blockTimeMs: 30,
    archive: true,
  });
  const rpc = async <T>(method: string, params: unknown): Promise<T> => {
    const { body } = await node.rpc<T>(method, params);
    if (!body.result) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
    return body.result;
  };
  const genesis = await rpc<{
    genesis_height: number;
    validators: { amount: string }[];
    protocol_treasury_account: string;
  }>('EXPERIMENTAL_genesis_config', {});
  const g = genesis.genesis_height;
  const genesisStake = BigInt(genesis.validators[0]!.amount);
  // Epoch index e starts at g + 1 + e·EPOCH. Epoch 0's reward is paid in epoch 1's first block.
  const start = (e: number) => g + 1 + e * EPOCH;
  const epochOf = (height: number) => Math.floor((height - g - 1) / EPOCH);
  const code = (await wabt())
    .parseWat(
      'stakes.wat',
      `(module
        (import "env" "validator_stake" (func $stake (param i64 i64 i64)))
        (import "env" "validator_total_stake" (func $total (param i64)))
        (import "env" "value_return" (func $ret (param i64 i64)))
        (memory 1)
        (data (i32.const 0) "test.near")
        (func (export "stake") (call $stake (i64.const 9) (i64.const 0) (i64.const 64)) (call $ret (i64.const 16) (i64.const 64)))
        (func (export "total") (call $total (i64.const 64)) (call $ret (i64.const 16) (i64.const 64))))`,
    )
    .toBinary({}).buffer;
  const owner = await deployedAccount({ provider, root }, 'stakes.test.near', code, 10n ** 25n);
  const u128 = (b: Uint8Array) =>
    Buffer.from(b).readBigUInt64LE(0) + (Buffer.from(b).readBigUInt64LE(8) << 64n);
  const viewStake = async (method: string, height: number) =>
    u128(
      Uint8Array.from(
        (
          await rpc<{ result: number[] }>('query', {
            request_type: 'call_function',
            account_id: 'stakes.test.near',
            method_name: method,
            args_base64: '',
            block_id: height,
          })
        ).result,
      ),
    );
  const called = await owner.callFunctionRaw({
    contractId: 'stakes.test.near',
    methodName: 'stake',
    args: {},
  });
  const calledAt = (
    await rpc<{ header: { height: number } }>('block', { block_id: called.receipts_outcome[0]!.block_hash })
  ).header.height;
  const deployedBy = (await rpc<{ header: { height: number } }>('block', { finality: 'optimistic' })).header
    .height;
  const firstViewed = Math.max(epochOf(deployedBy) + 1, 3);
  await waitForHeight(node, start(firstViewed + 2) + 1, 60_000);

  const lockedAt = async (height: number) =>
    BigInt(
      (
        await rpc<{ locked: string }>('query', {
          request_type: 'view_account',
          account_id: 'test.near',
          block_id: height,
        })
      ).locked,
    );
  /** The reward of epoch i, paid to test.near's locked balance in epoch i + 1's first block. */
  const reward = async (i: number) => (await lockedAt(start(i + 1))) - (await lockedAt(start(i + 1) - 1));
  /** nearcore's epoch info of epoch e ≥ 1: the genesis stake plus the rewards of epochs 0 … e − 2. */
  const stakeOf = async (e: number) => {
    let stake = genesisStake;
    for (let i = 0; i + 2 <= e; i++) stake += await reward(i);
    return stake;
  };
  t.ok((await reward(0)) > 0n && (await reward(1)) > 0n, 'each epoch pays the validator');

  // The localnet's treasury is its validator, whose reward replaces the treasury's share in the map.
  t.equal(genesis.protocol_treasury_account, 'test.near');
  for (const e of [0, 1, 2, firstViewed, firstViewed + 1]) {
    const v = await rpc<ValidatorsView>('validators', [start(e + 1) - 1]);
    t.same(
      { current: BigInt(v.current_validators[0]!.stake), next: BigInt(v.next_validators[0]!.stake) },
      { current: e === 0 ? genesisStake : await stakeOf(e), next: await stakeOf(e + 1) },
      `validators of epoch ${e}`,
    );
    // nearcore 2.12: the epoch info's validator_reward, paid in the first block of the epoch before
    // (epoch e − 2's reward); the genesis info's, the treasury at zero, for the first two epochs.
    t.same(
      v.validator_reward_paid_prev_epoch,
      { 'test.near': (e < 2 ? 0n : await reward(e - 2)).toString() },
      `validator_reward_paid_prev_epoch of epoch ${e}`,
    );
  }
  const ordered = await rpc<StakeView[]>('EXPERIMENTAL_validators_ordered', { block_id: start(2) });
  t.equal(BigInt(ordered[0]!.stake), await stakeOf(2), 'validators_ordered at the epoch');

  // validator_stake and validator_total_stake read the stakes of the block's epoch, in views and receipts.
  for (const e of [firstViewed, firstViewed + 1]) {
    t.equal(
      await viewStake('stake', start(e) + 1),
      await stakeOf(e),
      `validator_stake in a view, epoch ${e}`,
    );
    t.equal(await viewStake('total', start(e) + 1), await stakeOf(e), `validator_total_stake, epoch ${e}`);
  }
  const value = Buffer.from((called.status as { SuccessValue: string }).SuccessValue, 'base64');
  t.equal(
    u128(value),
    epochOf(calledAt) === 0 ? genesisStake : await stakeOf(epochOf(calledAt)),
    'validator_stake in a receipt',
  );

  // next_bp_hash is sha256 of the borsh list of the next epoch's block producers (ValidatorStake V1).
  const from = (await rpc<{ header: { hash: string } }>('block', { block_id: start(firstViewed) })).header
    .hash;
  const lc = await rpc<{ inner_lite: { height: number; next_bp_hash: string }; next_bps: ValidatorStake[] }>(
    'next_light_client_block',
    { last_block_hash: from },
  );
  const header = await rpc<{ header: { next_bp_hash: string } }>('block', { block_id: lc.inner_lite.height });
  t.equal(lc.inner_lite.next_bp_hash, header.header.next_bp_hash);
  t.equal(
    bs58.encode(sha256(validatorStakesBytes(lc.next_bps))),
    header.header.next_bp_hash,
    'the header commits to the stakes next_bps lists',
  );
  t.equal(
    BigInt(lc.next_bps[0]!.stake),
    await stakeOf(epochOf(lc.inner_lite.height) + 1),
    "next_bps: the next epoch's stakes",
  );

  // A follower works the same stakes out of the blocks, for its views and its contracts.
  const follower = await followerOf(t, home, node.url, start(firstViewed + 2));
  const compared: [string, unknown][] = [];
  for (const e of [0, 1, 2, firstViewed, firstViewed + 1]) {
    compared.push(
      ['validators', [start(e + 1) - 1]],
      ['EXPERIMENTAL_validators_ordered', { block_id: start(e) + 1 }],
    );
    if (e >= firstViewed)
      compared.push([
        'query',
        {
          request_type: 'call_function',
          account_id: 'stakes.test.near',
          method_name: 'stake',
          args_base64: '',
          block_id: start(e) + 1,
        },
      ]);
  }
  for (const [method, params] of compared) {
    const [a, b] = await Promise.all([
      rawRpc(node.url, method, params),
      rawRpc(follower.url, method, params),
    ]);
    t.equal(b.body, a.body, `the follower's ${method} ${JSON.stringify(params)}`);
  }
});

/** A follower of the producer at `url` (its home beside the producer's), once it holds `height`. */
async function followerOf(test: typeof t, home: string, url: string, height: number): Promise<RunningNode> {
  const follower = await startFollower(home, url, ['--archive']);
  test.teardown(() => follower.stop());
  await waitForHeight(follower, height, 60_000);
  return follower;
}
