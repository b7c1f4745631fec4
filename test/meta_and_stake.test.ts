// Meta transactions (Delegate) relayed by another account, staking, and the wait timeout.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  actions as A,
  Account,
  JsonRpcProvider,
  KeyPair,
  KeyPairSigner,
  type KeyPairString,
} from 'near-api-js';
import t from 'tap';
import { initHome, readKeyFile, startNode, waitForHeight } from './helpers/node.js';
import { tempDir } from './helpers/tmp.js';

const NEAR = 10n ** 24n;

t.test('a relayer pays for a meta transaction; staking locks balance; waits time out with 408', async (t) => {
  const home = tempDir(t);
  initHome(home);
  // A short polling timeout so the wait below ends quickly.
  const cfgPath = join(home, 'config.json');
  const cfg = JSON.parse(readFileSync(cfgPath, 'utf8'));
  cfg.rpc.polling_config.polling_timeout = { secs: 1, nanos: 0 };
  writeFileSync(cfgPath, JSON.stringify(cfg));
  const key = readKeyFile(home);
  const node = await startNode(home, ['--block-time', '50']);
  t.teardown(() => node.stop());
  await waitForHeight(node, 3);
  const provider = new JsonRpcProvider({ url: node.url });
  const relayer = new Account('test.near', provider, key.secret_key as KeyPairString);
  const userKey = KeyPair.fromRandom('ed25519');
  const created = await relayer.createAccount({
    newAccountId: 'user.test.near',
    publicKey: userKey.getPublicKey(),
    nearToTransfer: 1000n * NEAR,
  });
  // Receipts buy gas at min_gas_purchase_price; the surplus comes back in a gas refund, which
  // EXECUTED_OPTIMISTIC does not wait for. Balances are compared once refunds have landed (FINAL).
  const settled = (hash: string) =>
    node.rpc('tx', { tx_hash: hash, sender_account_id: 'test.near', wait_until: 'FINAL' });
  await settled(created.transaction_outcome.id);
  const user = new Account('user.test.near', provider, new KeyPairSigner(userKey));

  const userBefore = (await provider.viewAccount({ accountId: 'user.test.near' })).amount;
  const relayerBefore = (await provider.viewAccount({ accountId: 'test.near' })).amount;
  const nearBefore = (await provider.viewAccount({ accountId: 'near' })).amount;
  const { signedDelegate } = await user.createSignedMetaTransaction({
    receiverId: 'near',
    actions: [A.transfer(NEAR)],
  });
  const relayed = await relayer.relayMetaTransaction(signedDelegate);
  t.same(relayed.status, { SuccessValue: '' });
  await settled(relayed.transaction_outcome.id);
  t.equal(
    (await provider.viewAccount({ accountId: 'user.test.near' })).amount,
    userBefore,
    'the user paid nothing',
  );
  t.equal(
    (await provider.viewAccount({ accountId: 'near' })).amount,
    nearBefore + NEAR,
    'the receiver got the deposit',
  );
  t.ok(
    (await provider.viewAccount({ accountId: 'test.near' })).amount < relayerBefore - NEAR,
    'the relayer paid deposit and gas',
  );
  const replay = await relayer.relayMetaTransaction(signedDelegate).catch((e: Error) => e);
  t.match(
    JSON.stringify(replay instanceof Error ? replay.message : replay),
    /DelegateActionInvalidNonce|nonce/i,
    'a delegate action runs once',
  );

  // nearcore's EpochManager::minimum_stake: the seat price of the one 50M NEAR validator under
  // ratio 1/6250, ceil(50M NEAR / 6249), over minimum_stake_divisor 10 — about 800.13 NEAR.
  const minimumStake = (50_000_000n * NEAR + 6248n) / 6249n / 10n;
  const tooLittle = await user
    .signAndSendTransaction({
      receiverId: 'user.test.near',
      actions: [A.stake(2n * NEAR, userKey.getPublicKey())],
    })
    .catch((e: Error & { minimumStake?: bigint }) => e);
  t.equal((tooLittle as { minimumStake?: bigint }).minimumStake, minimumStake, 'InsufficientStake');
  await user.signAndSendTransaction({
    receiverId: 'user.test.near',
    actions: [A.stake(900n * NEAR, userKey.getPublicKey())],
  });
  const staked = await provider.viewAccount({ accountId: 'user.test.near' });
  t.equal(staked.locked, 900n * NEAR);
  const tooMuch = await user
    .signAndSendTransaction({
      receiverId: 'user.test.near',
      actions: [A.stake(2000n * NEAR, userKey.getPublicKey())],
    })
    .catch((e: Error) => e);
  t.match(String((tooMuch as Error).message), /stake/i);

  const timeout = await node.rpc('tx', {
    tx_hash: '11111111111111111111111111111111',
    sender_account_id: 'test.near',
  });
  t.equal(timeout.status, 408);
  t.same(timeout.body.error?.cause, { name: 'TIMEOUT_ERROR' });
});
