// Contracts of our own, compiled from test/contracts/ at test time, driving promises through the node.
import { actions as A, Account, KeyPair, KeyPairSigner } from 'near-api-js';
import t from 'tap';
import { compileContract } from './helpers/asc.js';
import { localChain } from './helpers/chain.js';

const NEAR = 10n ** 24n;
const TGAS = 10n ** 12n;

t.test('promise batches, joins, callbacks and refused actions from our own contract', async (t) => {
  const [factoryCode, counterCode] = await Promise.all([
    compileContract('factory'),
    compileContract('counter'),
  ]);
  const { provider, root } = await localChain(t, { shards: 2 });
  const kp = KeyPair.fromRandom('ed25519');
  await root.createAccount({
    newAccountId: 'factory.test.near',
    publicKey: kp.getPublicKey(),
    // Enough to stake above the chain's minimum (keys_and_stake below).
    nearToTransfer: 1050n * NEAR,
  });
  const factory = new Account('factory.test.near', provider, new KeyPairSigner(kp));
  await factory.deployContract(factoryCode);

  // One batch: create the child, fund it, deploy to it, add both kinds of keys, call it.
  const spawned = await root.callFunctionRaw({
    contractId: 'factory.test.near',
    methodName: 'spawn',
    args: counterCode,
    gas: 200n * TGAS,
  });
  t.same(spawned.status, { SuccessValue: '' }, 'the batch and its function call succeeded');
  const kid = await provider.viewAccount({ accountId: 'kid.factory.test.near' });
  t.equal(kid.amount >= 5n * NEAR, true, 'funded');
  t.not(kid.code_hash, '11111111111111111111111111111111', 'deployed');
  const keys = await provider.viewAccessKeyList({ accountId: 'kid.factory.test.near' });
  t.same(
    keys.keys.map((k) => (k.access_key.permission === 'FullAccess' ? 'FullAccess' : 'FunctionCall')).sort(),
    ['FullAccess', 'FunctionCall'],
    'both keys were added',
  );
  t.equal(
    await provider.callFunction({ contractId: 'kid.factory.test.near', method: 'get', args: {} }),
    1,
    'the batched call ran',
  );

  // promise_and + then: the callback sees both results.
  const joined = await root.callFunctionRaw({
    contractId: 'factory.test.near',
    methodName: 'join',
    args: {},
    gas: 100n * TGAS,
  });
  t.same(joined.status, { SuccessValue: Buffer.from('1+1').toString('base64') });
  const logs = joined.receipts_outcome.flatMap((o) => o.outcome.logs);
  t.ok(logs.includes('1+1'), 'collect logged the joined results');
  const again = await root.callFunctionRaw({
    contractId: 'factory.test.near',
    methodName: 'join',
    args: {},
    gas: 100n * TGAS,
  });
  const gasOf = (r: typeof joined) => r.receipts_outcome.map((o) => o.outcome.gas_burnt);
  t.same(gasOf(again), gasOf(joined), 'the same calls burn the same gas');

  // Deleting another account's key and the account itself needs that account's permission.
  const retired = await root.signAndSendTransaction({
    receiverId: 'factory.test.near',
    actions: [A.functionCall('retire', {}, 100n * TGAS, 0n)],
    throwOnFailure: false,
  });
  t.match(JSON.stringify(retired.status), /ActorNoPermission/);
  t.ok(await provider.viewAccount({ accountId: 'kid.factory.test.near' }), 'the child is still there');

  // On its own account the contract may add and delete keys and stake.
  const before = await provider.viewAccessKeyList({ accountId: 'factory.test.near' });
  const staked = await root.callFunctionRaw({
    contractId: 'factory.test.near',
    methodName: 'keys_and_stake',
    args: {},
    gas: 100n * TGAS,
  });
  t.same(staked.status, { SuccessValue: '' });
  t.equal(
    (await provider.viewAccessKeyList({ accountId: 'factory.test.near' })).keys.length,
    before.keys.length,
    'added then deleted',
  );
  t.equal(
    (await provider.viewAccount({ accountId: 'factory.test.near' })).locked,
    1000n * NEAR,
    'staked 1000 NEAR',
  );

  // And delete itself, the balance going to the signer.
  const tempKey = KeyPair.fromRandom('ed25519');
  await root.createAccount({
    newAccountId: 'temp.test.near',
    publicKey: tempKey.getPublicKey(),
    nearToTransfer: 5n * NEAR,
  });
  await new Account('temp.test.near', provider, new KeyPairSigner(tempKey)).deployContract(factoryCode);
  const rootBefore = (await provider.viewAccount({ accountId: 'test.near' })).amount;
  await root.callFunctionRaw({ contractId: 'temp.test.near', methodName: 'bye', args: {}, gas: 100n * TGAS });
  await t.rejects(provider.viewAccount({ accountId: 'temp.test.near' }), /does not exist/);
  t.ok(
    (await provider.viewAccount({ accountId: 'test.near' })).amount > rootBefore,
    'the beneficiary got the balance',
  );
});
