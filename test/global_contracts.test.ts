// Global contracts on a real 4-shard node through near-api-js 7: a real contract deployed globally
// from one shard, used by accounts on other shards (by code hash and by account id), and nearcore's
// view_account / view_code answers for them. With the node's default layout the boundaries are
// g0, n0, t0: alpha.* is on shard 0, hotel.* on shard 1, oscar.* on shard 2, test.near on shard 3.
import { createHash } from 'node:crypto';
import { base58Decode, base58Encode, receiptIdFromReceipt } from '@nearlite/primitives';
import { Account, KeyPair, KeyPairSigner } from 'near-api-js';
import t from 'tap';
import { localChain } from './helpers/chain.js';
import { contract } from './helpers/contracts.js';
import { waitForHeight } from './helpers/node.js';

const NEAR = 10n ** 24n;
/** nearcore's global_contract_storage_amount_per_byte (runtime_configs/77.yaml): 0.0001 NEAR. */
const GLOBAL_STORAGE_PER_BYTE = 10n ** 20n;
/** An account with one full-access ed25519 key: 100 + (33 + 9 + 40). */
const ONE_KEY_STORAGE = 182;

interface AccountView {
  amount: string;
  code_hash: string;
  storage_usage: number;
  global_contract_hash?: string;
  global_contract_account_id?: string;
}

t.test('a global contract deployed on one shard runs on accounts of other shards', async (t) => {
  const { node, provider, root } = await localChain(t, { shards: 4 });
  const code = contract('main.wasm');
  const hashBytes = new Uint8Array(createHash('sha256').update(code).digest());
  const hash = base58Encode(hashBytes);
  const make = async (id: string, balance: bigint) => {
    const kp = KeyPair.fromRandom('ed25519');
    await root.createAccount({ newAccountId: id, publicKey: kp.getPublicKey(), nearToTransfer: balance });
    return new Account(id, provider, new KeyPairSigner(kp));
  };
  const viewAccount = async (id: string) =>
    (
      await node.rpc<AccountView>('query', {
        request_type: 'view_account',
        finality: 'optimistic',
        account_id: id,
      })
    ).body;
  const head = async () =>
    (await node.rpc<{ header: { height: number } }>('block', { finality: 'optimistic' })).body.result!.header
      .height;
  // The distribution travels one shard per block; a few blocks take it everywhere.
  const settle = async () => waitForHeight(node, (await head()) + 6);

  const alpha = await make('alpha.test.near', 50n * NEAR);
  const before = BigInt((await viewAccount('alpha.test.near')).result!.amount);
  const deploy = await alpha.deployGlobalContract(code, 'codeHash');
  t.same(
    (deploy.transaction as { actions: unknown[] }).actions,
    [{ DeployGlobalContract: { code: createHash('sha256').update(code).digest('base64') } }],
    'nearcore’s action view: base64 of the code hash',
  );
  const receipt = deploy.receipts_outcome[0]!;
  t.same(receipt.outcome.status, { SuccessValue: '' });
  const { body: block } = await node.rpc<{ header: { gas_price: string } }>('block', {
    block_id: receipt.block_hash,
  });
  const gasPrice = BigInt(block.result!.header.gas_price);
  // The distribution receipt is the deploy receipt's first new receipt: nearcore's id for it, its view.
  const { body: header } = await node.rpc<{ header: { height: number } }>('block', {
    block_id: receipt.block_hash,
  });
  const distributionId = receiptIdFromReceipt(base58Decode(receipt.id), header.result!.header.height, 0);
  const { body: distribution } = await node.rpc<{ receipt: unknown; predecessor_id: string }>(
    'EXPERIMENTAL_receipt',
    { receipt_id: base58Encode(distributionId) },
  );
  t.equal(distribution.result?.predecessor_id, 'alpha.test.near');
  t.same(distribution.result?.receipt, {
    GlobalContractDistribution: {
      id: { hash },
      target_shard: 0,
      already_delivered_shards: [],
      // The view names the code by its hash (nearcore's ReceiptView).
      code: createHash('sha256').update(code).digest('base64'),
      nonce: 1,
    },
  });
  t.notOk(receipt.outcome.receipt_ids.includes(base58Encode(distributionId)), 'not in the outcome');
  const storage = BigInt(code.length) * GLOBAL_STORAGE_PER_BYTE;
  t.equal(
    BigInt(receipt.outcome.tokens_burnt) - BigInt(receipt.outcome.gas_burnt) * gasPrice,
    storage,
    'the outcome burns the code’s storage on top of the gas',
  );
  await settle();
  const after = BigInt((await viewAccount('alpha.test.near')).result!.amount);
  t.ok(before - after > storage, 'the deployer paid for the storage');
  t.same(
    Object.keys((await viewAccount('alpha.test.near')).result!).sort(),
    ['amount', 'block_hash', 'block_height', 'code_hash', 'locked', 'storage_paid_at', 'storage_usage'],
    'the deployer itself uses no contract',
  );

  await t.test('used by code hash from another shard', async (t) => {
    const oscar = await make('oscar.test.near', 10n * NEAR);
    const use = await oscar.useGlobalContract({ codeHash: hashBytes });
    t.same((use.transaction as { actions: unknown[] }).actions, [{ UseGlobalContract: { code_hash: hash } }]);
    t.same(use.receipts_outcome[0]!.outcome.status, { SuccessValue: '' });
    const view = (await viewAccount('oscar.test.near')).result!;
    t.equal(view.code_hash, '11111111111111111111111111111111', 'no local code');
    t.equal(view.global_contract_hash, hash);
    t.notOk('global_contract_account_id' in view);
    t.equal(view.storage_usage, ONE_KEY_STORAGE + 32, 'the reference costs 32 bytes');
    const codeView = await node.rpc<{ code_base64: string; hash: string }>('query', {
      request_type: 'view_code',
      finality: 'optimistic',
      account_id: 'oscar.test.near',
    });
    t.equal(codeView.body.result?.code_base64, Buffer.from(code).toString('base64'));
    t.equal(codeView.body.result?.hash, hash);

    t.equal(
      await provider.callFunction({ contractId: 'oscar.test.near', method: 'hello', args: { name: 'trex' } }),
      'hello trex',
    );
    await root.callFunction({
      contractId: 'oscar.test.near',
      methodName: 'setValue',
      args: { value: 'foo' },
    });
    t.equal(
      await provider.callFunction({ contractId: 'oscar.test.near', method: 'getValue', args: {} }),
      'foo',
    );
    const state = await provider.viewContractState({ contractId: 'oscar.test.near', prefix: '' });
    t.ok(state.values.length > 0, 'the state is the user’s');
    t.equal(
      (await provider.viewContractState({ contractId: 'alpha.test.near', prefix: '' })).values.length,
      0,
      'not the deployer’s',
    );
  });

  await t.test('deployed and used by account id', async (t) => {
    await alpha.deployGlobalContract(code, 'accountId');
    await settle();
    const hotel = await make('hotel.test.near', 10n * NEAR);
    await hotel.useGlobalContract({ accountId: 'alpha.test.near' });
    const view = (await viewAccount('hotel.test.near')).result!;
    t.equal(view.global_contract_account_id, 'alpha.test.near');
    t.notOk('global_contract_hash' in view);
    t.equal(view.storage_usage, ONE_KEY_STORAGE + 'alpha.test.near'.length);
    t.equal(
      await provider.callFunction({ contractId: 'hotel.test.near', method: 'hello', args: { name: 'h' } }),
      'hello h',
    );
    const codeView = await node.rpc<{ hash: string }>('query', {
      request_type: 'view_code',
      finality: 'optimistic',
      account_id: 'hotel.test.near',
    });
    t.equal(codeView.body.result?.hash, hash, 'the code is the one alpha deployed');
  });

  await t.test('used as soon as its deploy has executed, as on nearcore', async (t) => {
    // Both accounts are on shard 0. The deploy's block H sends the distribution, which stores the
    // code there in H+1; a transaction sent once the deploy has executed reaches the node after H,
    // so it lands in H+2, as nearcore's chunk of H+1 was made when H was accepted.
    const publisher = await make('apex.test.near', 50n * NEAR);
    const user = await make('amber.test.near', 10n * NEAR);
    await publisher.deployGlobalContract(code, 'accountId');
    const used = await user.useGlobalContract({ accountId: 'apex.test.near' });
    t.same(used.status, { SuccessValue: '' }, 'the code had reached the shard');
    t.equal(
      await provider.callFunction({ contractId: 'amber.test.near', method: 'hello', args: { name: 'a' } }),
      'hello a',
    );
  });

  await t.test('view_global_contract_code by hash and by account id', async (t) => {
    const byHash = await node.rpc<{ code_base64: string; hash: string }>('query', {
      request_type: 'view_global_contract_code',
      finality: 'optimistic',
      code_hash: hash,
    });
    t.equal(byHash.body.result?.code_base64, Buffer.from(code).toString('base64'));
    t.equal(byHash.body.result?.hash, hash);
    const byAccount = await node.rpc<{ hash: string }>('query', {
      request_type: 'view_global_contract_code_by_account_id',
      finality: 'optimistic',
      account_id: 'alpha.test.near',
    });
    t.equal(byAccount.body.result?.hash, hash);
    // near-api-js's own helper (a base58 code hash passes through as nearcore expects it).
    const viaClient = await provider.viewGlobalContractCode({ identifier: { codeHash: hash } });
    t.same(new Uint8Array(viaClient.code), code);
    const viaClientByAccount = await provider.viewGlobalContractCode({
      identifier: { accountId: 'alpha.test.near' },
    });
    t.same(new Uint8Array(viaClientByAccount.code), code);
    const missing = await node.rpc('query', {
      request_type: 'view_global_contract_code_by_account_id',
      finality: 'optimistic',
      account_id: 'hotel.test.near',
    });
    const error = missing.body.error as { cause: { name: string; info: { identifier: unknown } } };
    t.equal(error.cause.name, 'NO_GLOBAL_CONTRACT_CODE');
    t.same(error.cause.info.identifier, { account_id: 'hotel.test.near' });
  });

  await t.test('a global contract that does not exist', async (t) => {
    const victor = await make('victor.test.near', 5n * NEAR);
    const err = await victor
      .useGlobalContract({ codeHash: new Uint8Array(32).fill(7) })
      .catch((e: unknown) => e);
    t.match(JSON.stringify(err), /GlobalContractDoesNotExist/);
    const view = (await viewAccount('victor.test.near')).result!;
    t.notOk('global_contract_hash' in view, 'nothing changed');
  });
});
