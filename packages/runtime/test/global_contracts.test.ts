// Global contracts as nearcore applies them (runtime/runtime/src/global_contracts.rs, actions.rs,
// config.rs). Expected fees come from nearcore's parameter files (fixtures/), storage and encodings
// from nearcore's rules (AccountV2 borsh, GlobalContractIdentifier::len, the trie key layout).
import {
  type Action,
  accountView,
  base58Encode,
  decodeReceipt,
  encodeAccount,
  KeyType,
  receiptIdFromReceipt,
  sha256,
  toHex,
  utf8,
} from '@nearlite/primitives';
import {
  DEFAULT_RUNTIME_CONFIG_VIEW,
  execFee,
  parseRuntimeConfig,
  txCost,
  validateActions,
} from '@nearlite/runtime';
import {
  trieKeyAccount,
  trieKeyContractCode,
  trieKeyContractData,
  trieKeyGlobalContractCode,
  trieKeyGlobalContractNonce,
} from '@nearlite/trie';
import t from 'tap';
import {
  alice,
  bob,
  byAlice,
  byHash,
  CODE,
  CODE_HASH,
  call,
  LEN,
  send,
  stateGet,
  view,
  vmChain,
  wat,
} from './global_fixtures.js';
import { GLOBAL } from './global_params.js';
import { config, GAS_PRICE, NEAR, ONE_KEY_STORAGE, signTx } from './helpers.js';
import { FEES, MIN_GAS_PURCHASE_PRICE } from './snapshot.js';

t.test('fees: nearcore’s deploy and use parameters, per code byte and per identifier byte', async (t) => {
  t.equal(GLOBAL.storagePerByte, 10n ** 20n, '0.0001 NEAR per byte');
  t.equal(config.globalContractStorageAmountPerByte, GLOBAL.storagePerByte);
  const deploy: Action = { type: 'DeployGlobalContract', code: new Uint8Array(1000), deployMode: 0 };
  const useHash: Action = { type: 'UseGlobalContract', identifier: byHash };
  const useAccount: Action = { type: 'UseGlobalContract', identifier: byAlice };
  const cases = [
    { action: deploy, base: GLOBAL.deployBase, byte: GLOBAL.deployByte, bytes: 1000n },
    { action: useHash, base: GLOBAL.useBase, byte: GLOBAL.useByte, bytes: 32n },
    // GlobalContractIdentifier::len of an account id is its length: "alice.near" is 10 bytes.
    { action: useAccount, base: GLOBAL.useBase, byte: GLOBAL.useByte, bytes: 10n },
  ];
  for (const c of cases) {
    for (const sir of [true, false]) {
      const receiver = sir ? 'alice.near' : 'bob.near';
      const cost = txCost(config, 'alice.near', KeyType.ED25519, receiver, [c.action], GAS_PRICE);
      t.equal(cost.gasBurnt, send(FEES.receipt, sir) + send(c.base, sir) + c.bytes * send(c.byte, sir));
      t.equal(cost.gasRemaining, FEES.receipt.exec + c.base.exec + c.bytes * c.byte.exec);
      t.equal(cost.receiptGasPrice, MIN_GAS_PURCHASE_PRICE);
    }
    t.equal(execFee(config, c.action, 'bob.near'), c.base.exec + c.bytes * c.byte.exec);
  }
  const deployMode1: Action = { ...deploy, deployMode: 1 };
  t.equal(execFee(config, deployMode1, 'x'), execFee(config, deploy, 'x'), 'both deploy modes cost the same');
});

t.test('deploy by code hash: storage burnt, the code distributed, nonce 1, no outcome for it', async (t) => {
  const c = vmChain();
  const tx = signTx(alice, 'alice.near', 'alice.near', 1n, [
    { type: 'DeployGlobalContract', code: CODE, deployMode: 0 },
  ]);
  const b1 = c.block([tx.bytes]);
  const [txOutcome, receiptOutcome] = b1.outcomes;
  const sendGas = FEES.receipt.sendSir + GLOBAL.deployBase.sendSir + LEN * GLOBAL.deployByte.sendSir;
  const execGas = FEES.receipt.exec + GLOBAL.deployBase.exec + LEN * GLOBAL.deployByte.exec;
  const storage = LEN * GLOBAL.storagePerByte;
  t.equal(txOutcome!.gasBurnt, sendGas);
  t.equal(receiptOutcome!.status.kind, 'SuccessValue');
  t.equal(receiptOutcome!.gasBurnt, execGas);
  // IncludeDeployGlobalContractOutcomeBurntStorage (83): the outcome counts the storage it burnt.
  t.equal(receiptOutcome!.tokensBurnt, execGas * GAS_PRICE + storage);
  const sent = b1.res.outgoingReceipts.map((r) => decodeReceipt(r.bytes));
  const distribution = sent.find((r) => r.receipt.kind === 'GlobalContractDistribution')!;
  t.same(distribution.receipt, {
    kind: 'GlobalContractDistribution',
    id: byHash,
    targetShard: 0n,
    alreadyDeliveredShards: [],
    code: CODE,
    nonce: 1n,
  });
  t.equal(distribution.predecessorId, 'alice.near');
  t.equal(distribution.receiverId, 'system');
  t.same(
    receiptOutcome!.receiptIds.map(toHex),
    sent.filter((r) => r.receipt.kind === 'Action').map((r) => toHex(r.receiptId)),
    'only action receipts are listed in the outcome',
  );
  t.ok(
    receiptOutcome!.receiptIds.every((id) => toHex(id) !== toHex(distribution.receiptId)),
    'the distribution receipt is not among them',
  );
  t.equal(toHex(distribution.receiptId), toHex(receiptIdFromReceipt(receiptOutcome!.id, c.height, 0)));
  t.notOk(stateGet(c, trieKeyGlobalContractCode(byHash)), 'not stored before the receipt arrives');
  t.same(stateGet(c, trieKeyGlobalContractNonce(byHash)), Uint8Array.of(1, 0, 0, 0, 0, 0, 0, 0));

  const b2 = c.block();
  t.same(
    b2.outcomes.map((o) => toHex(o.id)),
    [toHex(receiptOutcome!.receiptIds[0]!)],
    'only the gas refund has an outcome: applying a distribution records none',
  );
  t.same(stateGet(c, trieKeyGlobalContractCode(byHash)), CODE);
  c.settle();
  const a = c.account('alice.near')!;
  t.equal(a.amount, 1000n * NEAR - (sendGas + execGas) * GAS_PRICE - storage);
  t.equal(a.storageUsage, ONE_KEY_STORAGE, 'the deployer’s own storage does not change');
  t.equal(a.v2, undefined, 'the deployer stays a V1 account');
  t.equal(c.totalBalance() + c.burnt, 1100n * NEAR, 'nothing created or lost');
});

t.test('use by code hash, then call and view the global code on the user’s own state', async (t) => {
  const c = vmChain();
  c.block([
    signTx(alice, 'alice.near', 'alice.near', 1n, [
      { type: 'DeployGlobalContract', code: CODE, deployMode: 0 },
    ]).bytes,
  ]);
  c.settle();
  const before = c.account('bob.near')!;
  c.block([
    signTx(bob, 'bob.near', 'bob.near', 1n, [{ type: 'UseGlobalContract', identifier: byHash }]).bytes,
  ]);
  const b = c.account('bob.near')!;
  t.equal(b.storageUsage, ONE_KEY_STORAGE + 32n, 'the reference costs 32 bytes of storage');
  t.same(b.v2, { contract: { kind: 'Global', hash: CODE_HASH } });
  t.same(b.codeHash, new Uint8Array(32), 'no local code');
  const sendGas = FEES.receipt.sendSir + GLOBAL.useBase.sendSir + 32n * GLOBAL.useByte.sendSir;
  const execGas = FEES.receipt.exec + GLOBAL.useBase.exec + 32n * GLOBAL.useByte.exec;
  c.settle();
  t.equal(c.account('bob.near')!.amount, before.amount - (sendGas + execGas) * GAS_PRICE);
  // nearcore's AccountV2 borsh: u128::MAX, version tag 0, amount, locked, storage_usage, then
  // AccountContract::Global (tag 2) and the hash.
  const bytes = encodeAccount(c.account('bob.near')!);
  t.equal(bytes.length, 16 + 1 + 16 + 16 + 8 + 1 + 32);
  t.same(bytes.subarray(0, 17), Uint8Array.of(...new Array(16).fill(0xff), 0));
  t.equal(bytes[16 + 1 + 16 + 16 + 8], 2);
  t.same(bytes.subarray(58), CODE_HASH);
  t.same(accountView(c.account('bob.near')!), {
    amount: c.account('bob.near')!.amount.toString(),
    locked: '0',
    code_hash: '11111111111111111111111111111111',
    storage_usage: Number(ONE_KEY_STORAGE + 32n),
    storage_paid_at: 0,
    global_contract_hash: base58Encode(CODE_HASH),
  });

  c.block([signTx(alice, 'alice.near', 'bob.near', 2n, [call('set', utf8('hello'))]).bytes]);
  const outcomes = c.settle();
  t.equal(outcomes[0]!.status.kind, 'SuccessValue', 'the call ran the global code');
  t.same(stateGet(c, trieKeyContractData('bob.near', utf8('k'))), utf8('hello'), 'bob’s storage');
  t.notOk(stateGet(c, trieKeyContractData('alice.near', utf8('k'))), 'not the deployer’s');
  t.equal(c.account('bob.near')!.storageUsage, ONE_KEY_STORAGE + 32n + 40n + 1n + 5n);
  t.equal(view(c, 'bob.near', 'get'), 'hello');
  t.equal(view(c, 'bob.near', 'whoami'), 'bob.near');
});

t.test('deploy and use by account id; a redeploy updates every user', async (t) => {
  const c = vmChain();
  c.block([
    signTx(alice, 'alice.near', 'alice.near', 1n, [
      { type: 'DeployGlobalContract', code: CODE, deployMode: 1 },
    ]).bytes,
  ]);
  c.settle();
  t.same(stateGet(c, trieKeyGlobalContractCode(byAlice)), CODE);
  c.block([
    signTx(bob, 'bob.near', 'bob.near', 1n, [{ type: 'UseGlobalContract', identifier: byAlice }]).bytes,
  ]);
  c.settle();
  const b = c.account('bob.near')!;
  t.equal(b.storageUsage, ONE_KEY_STORAGE + 10n, '"alice.near" costs its 10 bytes');
  t.same(b.v2, { contract: { kind: 'GlobalByAccount', accountId: 'alice.near' } });
  const bytes = encodeAccount(b);
  t.equal(bytes[57], 3, 'AccountContract::GlobalByAccount');
  t.same(bytes.subarray(58), Uint8Array.of(10, 0, 0, 0, ...utf8('alice.near')));
  t.equal(accountView(b).global_contract_account_id, 'alice.near');
  t.equal(accountView(b).global_contract_hash, undefined);
  t.equal(view(c, 'bob.near', 'whoami'), 'bob.near');

  // The owner redeploys other code under its account id: users run the new code.
  const newCode = wat('(module (func (export "whoami")))');
  c.block([
    signTx(alice, 'alice.near', 'alice.near', 2n, [
      { type: 'DeployGlobalContract', code: newCode, deployMode: 1 },
    ]).bytes,
  ]);
  c.settle();
  t.same(stateGet(c, trieKeyGlobalContractNonce(byAlice)), Uint8Array.of(2, 0, 0, 0, 0, 0, 0, 0));
  t.same(stateGet(c, trieKeyGlobalContractCode(byAlice)), newCode);
  t.equal(view(c, 'bob.near', 'whoami'), '', 'the new code returns nothing');
  t.equal(c.totalBalance() + c.burnt, 1100n * NEAR);
});

t.test('errors: a missing global contract, a deployer who cannot pay its storage', async (t) => {
  const c2 = vmChain();
  const b1 = c2.block([
    signTx(bob, 'bob.near', 'bob.near', 1n, [{ type: 'UseGlobalContract', identifier: byHash }]).bytes,
  ]);
  t.same(b1.outcomes[1]!.status, {
    kind: 'Failure',
    error: {
      ActionError: {
        index: 0,
        kind: { GlobalContractDoesNotExist: { identifier: { hash: base58Encode(CODE_HASH) } } },
      },
    },
  });
  const b2 = c2.block([
    signTx(bob, 'bob.near', 'bob.near', 2n, [{ type: 'UseGlobalContract', identifier: byAlice }]).bytes,
  ]);
  t.same((b2.outcomes[1]!.status as { error: { ActionError: { kind: unknown } } }).error.ActionError.kind, {
    GlobalContractDoesNotExist: { identifier: { account_id: 'alice.near' } },
  });
  t.equal(c2.account('bob.near')!.v2, undefined, 'the account is unchanged');

  // 10 NEAR cannot pay for a 200,000-byte contract at 0.0001 NEAR a byte (20 NEAR).
  c2.addAccount('poor.near', 10n * NEAR, alice);
  const big = new Uint8Array(200_000);
  const b3 = c2.block([
    signTx(alice, 'poor.near', 'poor.near', 1n, [{ type: 'DeployGlobalContract', code: big, deployMode: 1 }])
      .bytes,
  ]);
  t.same((b3.outcomes[1]!.status as { error: { ActionError: { kind: unknown } } }).error.ActionError.kind, {
    LackBalanceForState: { account_id: 'poor.near', amount: (200_000n * GLOBAL.storagePerByte).toString() },
  });
  t.notOk(
    b3.res.outgoingReceipts.some((r) => decodeReceipt(r.bytes).receipt.kind === 'GlobalContractDistribution'),
  );
  t.notOk(stateGet(c2, trieKeyGlobalContractNonce({ kind: 'AccountId', accountId: 'poor.near' })));
  // Calling an account whose global contract has not reached its shard: no code.
  c2.addAccount('carol.near', NEAR);
  const withGlobal = {
    ...c2.account('carol.near')!,
    v2: { contract: { kind: 'Global', hash: CODE_HASH } },
  } as const;
  c2.state.set(toHex(trieKeyAccount('carol.near')), encodeAccount(withGlobal));
  c2.block([signTx(bob, 'bob.near', 'carol.near', 3n, [call('get')]).bytes]);
  const failed = c2.settle()[0]!;
  t.same(failed.status, {
    kind: 'Failure',
    error: {
      ActionError: {
        index: 0,
        kind: { FunctionCallError: { CompilationError: { CodeDoesNotExist: { account_id: 'carol.near' } } } },
      },
    },
  });
});

t.test(
  'a local deploy replaces a global reference; using a global contract removes local code',
  async (t) => {
    const c = vmChain();
    c.block([
      signTx(alice, 'alice.near', 'alice.near', 1n, [
        { type: 'DeployGlobalContract', code: CODE, deployMode: 0 },
      ]).bytes,
    ]);
    c.settle();
    c.block([
      signTx(bob, 'bob.near', 'bob.near', 1n, [{ type: 'DeployContract', code: new Uint8Array(50) }]).bytes,
    ]);
    c.settle();
    t.equal(c.account('bob.near')!.storageUsage, ONE_KEY_STORAGE + 50n);
    c.block([
      signTx(bob, 'bob.near', 'bob.near', 2n, [{ type: 'UseGlobalContract', identifier: byHash }]).bytes,
    ]);
    c.settle();
    t.equal(c.account('bob.near')!.storageUsage, ONE_KEY_STORAGE + 32n, 'the 50 code bytes go, 32 come');
    t.notOk(stateGet(c, trieKeyContractCode('bob.near')), 'the local code is removed');
    c.block([
      signTx(bob, 'bob.near', 'bob.near', 3n, [{ type: 'DeployContract', code: new Uint8Array(70) }]).bytes,
    ]);
    c.settle();
    const b = c.account('bob.near')!;
    t.equal(b.storageUsage, ONE_KEY_STORAGE + 70n, 'the reference’s 32 bytes go');
    // nearcore's set_contract keeps a V2 account V2: AccountContract::Local (tag 1).
    t.same(b.v2, { contract: { kind: 'Local', hash: sha256(new Uint8Array(70)) } });
    t.same(b.codeHash, sha256(new Uint8Array(70)));
    t.equal(encodeAccount(b)[57], 1);
    // Deleting an account that uses a global contract: the reference is not counted as state.
    c.block([
      signTx(bob, 'bob.near', 'bob.near', 4n, [{ type: 'UseGlobalContract', identifier: byHash }]).bytes,
    ]);
    c.block([
      signTx(bob, 'bob.near', 'bob.near', 5n, [{ type: 'DeleteAccount', beneficiaryId: 'alice.near' }]).bytes,
    ]);
    c.settle();
    t.equal(c.account('bob.near'), null);
    t.equal(c.totalBalance() + c.burnt, 1100n * NEAR);
  },
);

t.test('trie keys: column 18/19 and the borsh identifier', async (t) => {
  t.same(trieKeyGlobalContractCode(byHash), Uint8Array.of(18, 0, ...CODE_HASH));
  t.same(trieKeyGlobalContractNonce(byAlice), Uint8Array.of(19, 1, 10, 0, 0, 0, ...utf8('alice.near')));
});

t.test('the default config parses the global fees for the VM too', async (t) => {
  const c = parseRuntimeConfig(DEFAULT_RUNTIME_CONFIG_VIEW);
  t.same(c.fees.fees.deploy_global_contract_byte, {
    send_sir: GLOBAL.deployByte.sendSir,
    send_not_sir: GLOBAL.deployByte.sendNotSir,
    execution: GLOBAL.deployByte.exec,
  });
  t.same(c.fees.fees.use_global_contract_base, {
    send_sir: GLOBAL.useBase.sendSir,
    send_not_sir: GLOBAL.useBase.sendNotSir,
    execution: GLOBAL.useBase.exec,
  });
});

t.test('validation: a global deploy obeys max_contract_size; both actions pass otherwise', async (t) => {
  const limit = config.maxContractSize;
  t.equal(limit, 4_194_304, 'the snapshot’s max_contract_size');
  const big = new Uint8Array(limit + 1);
  t.same(validateActions(config, [{ type: 'DeployGlobalContract', code: big, deployMode: 0 }]), {
    ContractSizeExceeded: { size: limit + 1, limit },
  });
  t.equal(validateActions(config, [{ type: 'DeployGlobalContract', code: CODE, deployMode: 1 }]), null);
  t.equal(validateActions(config, [{ type: 'UseGlobalContract', identifier: byAlice }]), null);
});
