// Conformance with nearcore at the protocol version nearlite reports. Every expected number comes
// from nearcore's parameter snapshot for that version (fixtures/…__86.json.snap) combined with
// nearcore's fee formulas (runtime/runtime/src/config.rs, lib.rs), never from nearlite's tables.
import { type Action, decodeReceipt, KeyType } from '@nearlite/primitives';
import { DEFAULT_RUNTIME_CONFIG_VIEW, execFee, PROTOCOL_VERSION, txCost } from '@nearlite/runtime';
import t from 'tap';
import { config, GAS_PRICE, keyFromSeed, NEAR, signTx, TestChain } from './helpers.js';
import { ACCOUNT_CREATION_CHARGE, FEES, type Fee, MIN_GAS_PURCHASE_PRICE, SNAPSHOT } from './snapshot.js';

const alice = keyFromSeed(1);
const carol = keyFromSeed(3);
const send = (f: Fee, sir: boolean) => (sir ? f.sendSir : f.sendNotSir);

t.test('the runtime config is nearcore’s snapshot for the reported protocol version', async (t) => {
  t.equal(PROTOCOL_VERSION, 86, 'nearcore’s STABLE_PROTOCOL_VERSION, the snapshot’s version');
  const view = structuredClone(DEFAULT_RUNTIME_CONFIG_VIEW) as unknown as typeof SNAPSHOT;
  // The snapshot redacts the VM kind; every other field must match exactly.
  t.equal(view.wasm_config.vm_kind, 'Wasmtime');
  (view.wasm_config as Record<string, unknown>).vm_kind = '<REDACTED>';
  t.same(view, SNAPSHOT);
  t.strictSame(Object.keys(view), Object.keys(SNAPSHOT), 'no field added or missing');
  t.equal(config.minGasPurchasePrice, 1_000_000_000n);
  t.equal(config.accountCreationCharge, 7n * 10n ** 21n, '0.007 NEAR');
});

const code = new Uint8Array(1000).fill(7);
const fnKey = {
  nonce: 0n,
  permission: { kind: 'FunctionCall', allowance: null, receiverId: 'x.near', methodNames: ['ab', 'cde'] },
} as const;
const cases: { name: string; action: Action; fee: (sir: boolean) => bigint; exec: bigint }[] = [
  {
    name: 'CreateAccount',
    action: { type: 'CreateAccount' },
    fee: (sir) => send(FEES.createAccount, sir),
    exec: FEES.createAccount.exec,
  },
  {
    name: 'DeployContract of 1000 bytes',
    action: { type: 'DeployContract', code },
    fee: (sir) => send(FEES.deployBase, sir) + 1000n * send(FEES.deployByte, sir),
    exec: FEES.deployBase.exec + 1000n * FEES.deployByte.exec,
  },
  {
    name: 'FunctionCall (method 4 bytes, args 10 bytes)',
    action: { type: 'FunctionCall', methodName: 'ping', args: new Uint8Array(10), gas: 5n, deposit: 0n },
    fee: (sir) => send(FEES.functionCallBase, sir) + 14n * send(FEES.functionCallByte, sir),
    exec: FEES.functionCallBase.exec + 14n * FEES.functionCallByte.exec,
  },
  {
    name: 'Transfer to a named account',
    action: { type: 'Transfer', deposit: 1n },
    fee: (sir) => send(FEES.transfer, sir),
    exec: FEES.transfer.exec,
  },
  {
    name: 'Stake',
    action: { type: 'Stake', stake: 1n, publicKey: alice.publicKey },
    fee: (sir) => send(FEES.stake, sir),
    exec: FEES.stake.exec,
  },
  {
    name: 'AddKey (full access)',
    action: {
      type: 'AddKey',
      publicKey: carol.publicKey,
      accessKey: { nonce: 0n, permission: { kind: 'FullAccess' } },
    },
    fee: (sir) => send(FEES.addFullKey, sir),
    exec: FEES.addFullKey.exec,
  },
  {
    // nearcore counts a terminator per method name: 3 + 4 bytes.
    name: 'AddKey (function call, methods ab and cde)',
    action: { type: 'AddKey', publicKey: carol.publicKey, accessKey: fnKey },
    fee: (sir) => send(FEES.addFnKeyBase, sir) + 7n * send(FEES.addFnKeyByte, sir),
    exec: FEES.addFnKeyBase.exec + 7n * FEES.addFnKeyByte.exec,
  },
  {
    name: 'DeleteKey',
    action: { type: 'DeleteKey', publicKey: carol.publicKey },
    fee: (sir) => send(FEES.deleteKey, sir),
    exec: FEES.deleteKey.exec,
  },
  {
    name: 'DeleteAccount',
    action: { type: 'DeleteAccount', beneficiaryId: 'bob.near' },
    fee: (sir) => send(FEES.deleteAccount, sir),
    exec: FEES.deleteAccount.exec,
  },
];

t.test('every action’s send (sir and not sir) and exec fee', async (t) => {
  for (const c of cases) {
    for (const sir of [true, false]) {
      const receiver = sir ? 'alice.near' : 'bob.near';
      const cost = txCost(config, 'alice.near', receiver, [c.action], GAS_PRICE);
      t.equal(cost.gasBurnt, send(FEES.receipt, sir) + c.fee(sir), `${c.name}: send, sir=${sir}`);
      const prepaid = c.action.type === 'FunctionCall' ? c.action.gas : 0n;
      t.equal(cost.gasRemaining, FEES.receipt.exec + c.exec + prepaid, `${c.name}: exec prepaid, sir=${sir}`);
      t.equal(cost.receiptGasPrice, MIN_GAS_PURCHASE_PRICE, `${c.name}: bought at the floor`);
    }
    t.equal(execFee(config, c.action, 'bob.near'), c.exec, `${c.name}: exec`);
  }
  // A transfer to an implicit account pays for the account and its key as well.
  const implicit = '0'.repeat(64);
  const transfer: Action = { type: 'Transfer', deposit: 1n };
  const cost = txCost(config, 'alice.near', implicit, [transfer], GAS_PRICE);
  t.equal(
    cost.gasBurnt,
    FEES.receipt.sendNotSir +
      FEES.transfer.sendNotSir +
      FEES.createAccount.sendNotSir +
      FEES.addFullKey.sendNotSir,
  );
  t.equal(cost.gasBurnt, 824_947_687_500n, 'issue 12’s measurement on nearcore');
  t.equal(
    execFee(config, transfer, implicit),
    FEES.transfer.exec + FEES.createAccount.exec + FEES.addFullKey.exec,
  );
  // Above the floor the chunk's own price is the purchase price.
  t.equal(
    txCost(config, 'alice.near', 'bob.near', [transfer], 2n * MIN_GAS_PURCHASE_PRICE).receiptGasPrice,
    2n * MIN_GAS_PURCHASE_PRICE,
  );
});

t.test('account creation: the charge, the refund to the yocto, nothing created or lost', async (t) => {
  const c = new TestChain();
  c.addAccount('alice.near', 100n * NEAR, alice);
  const actions: Action[] = [
    { type: 'CreateAccount' },
    { type: 'Transfer', deposit: NEAR },
    {
      type: 'AddKey',
      publicKey: carol.publicKey,
      accessKey: { nonce: 0n, permission: { kind: 'FullAccess' } },
    },
  ];
  const tx = signTx(alice, 'alice.near', 'carol.alice.near', 1n, actions);
  const sendGas =
    FEES.receipt.sendNotSir +
    FEES.createAccount.sendNotSir +
    FEES.transfer.sendNotSir +
    FEES.addFullKey.sendNotSir;
  const execGas = FEES.receipt.exec + FEES.createAccount.exec + FEES.transfer.exec + FEES.addFullKey.exec;
  const b1 = c.block([tx.bytes]);
  t.equal(b1.outcomes[0]!.gasBurnt, 824_947_687_500n);
  t.equal(b1.outcomes[0]!.tokensBurnt, sendGas * GAS_PRICE);
  const receipt = decodeReceipt(b1.res.outgoingReceipts[0]!.bytes);
  t.equal(
    (receipt.receipt as { gasPrice: bigint }).gasPrice,
    1_000_000_000n,
    'receipts carry the purchase price',
  );
  t.equal(
    c.account('alice.near')!.amount,
    99n * NEAR - sendGas * GAS_PRICE - execGas * MIN_GAS_PURCHASE_PRICE,
  );

  const b2 = c.block();
  const o = b2.outcomes[0]!;
  // nearcore: charge = account_creation_charge - burn price x create_account exec, taken from the
  // surplus (purchase - burn price) x gas burnt; the rest of the surplus is the gas refund.
  const charge = ACCOUNT_CREATION_CHARGE - GAS_PRICE * FEES.createAccount.exec;
  const surplus = (MIN_GAS_PURCHASE_PRICE - GAS_PRICE) * execGas;
  t.equal(o.gasBurnt, execGas);
  t.equal(o.tokensBurnt, execGas * GAS_PRICE + charge);
  const refund = decodeReceipt(b2.res.outgoingReceipts[0]!.bytes);
  t.same(refund.receipt, {
    kind: 'Action',
    signerId: 'alice.near',
    signerPublicKey: alice.publicKey,
    gasPrice: 0n,
    outputDataReceivers: [],
    inputDataIds: [],
    actions: [{ type: 'Transfer', deposit: surplus - charge }],
  });
  c.settle();
  t.equal(c.account('alice.near')!.amount, 99n * NEAR - (sendGas + execGas) * GAS_PRICE - charge);
  t.equal(c.totalBalance() + c.burnt, 100n * NEAR);
});

t.test('a transfer creating an implicit account pays the charge too', async (t) => {
  const c = new TestChain();
  c.addAccount('alice.near', 100n * NEAR, alice);
  const id = Buffer.from(carol.publicKey.data).toString('hex');
  c.block([signTx(alice, 'alice.near', id, 1n, [{ type: 'Transfer', deposit: NEAR }]).bytes]);
  const o = c.block().outcomes[0]!;
  const execGas = FEES.receipt.exec + FEES.transfer.exec + FEES.createAccount.exec + FEES.addFullKey.exec;
  t.equal(o.tokensBurnt, execGas * GAS_PRICE + ACCOUNT_CREATION_CHARGE - GAS_PRICE * FEES.createAccount.exec);
  c.settle();
  t.same(c.accessKey(id, { keyType: KeyType.ED25519, data: carol.publicKey.data })?.permission, {
    kind: 'FullAccess',
  });
  t.equal(c.totalBalance() + c.burnt, 100n * NEAR);
});

t.test('when the chunk price is at the purchase price there is no surplus and no refund', async (t) => {
  const c = new TestChain();
  c.gasPrice = MIN_GAS_PURCHASE_PRICE;
  c.addAccount('alice.near', 100n * NEAR, alice);
  c.addAccount('bob.near', NEAR);
  c.block([signTx(alice, 'alice.near', 'bob.near', 1n, [{ type: 'Transfer', deposit: 1n }]).bytes]);
  const o = c.block().outcomes[0]!;
  t.same(o.receiptIds, []);
  t.equal(o.tokensBurnt, (FEES.receipt.exec + FEES.transfer.exec) * MIN_GAS_PURCHASE_PRICE);
});
