// Conformance with nearcore at the protocol version nearlite reports. Every expected number comes
// from nearcore's parameter snapshot for that version (fixtures/…__86.json.snap) combined with
// nearcore's fee formulas (runtime/runtime/src/config.rs, lib.rs), never from nearlite's tables.
import { readFileSync } from 'node:fs';
import { type Action, base58Decode, decodeReceipt, encodeReceipt, KeyType, utf8 } from '@nearlite/primitives';
import {
  DEFAULT_RUNTIME_CONFIG_VIEW,
  execFee,
  PROTOCOL_VERSION,
  RuntimeExt,
  txCost,
  viewCall,
} from '@nearlite/runtime';
import { TrieUpdate, trieKeyContractCode, trieKeyContractData } from '@nearlite/trie';
import { runFunction } from '@nearlite/vm';
import t from 'tap';
import {
  config,
  GAS_PRICE,
  keyFromSeed,
  NEAR,
  selfCallContext,
  signTx,
  TestChain,
  trieOf,
  wat,
} from './helpers.js';
import {
  ACCOUNT_CREATION_CHARGE,
  ext,
  FEES,
  type Fee,
  MIN_GAS_PURCHASE_PRICE,
  ML_DSA_65_VERIFICATION_COST,
  SNAPSHOT,
} from './snapshot.js';

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
      const cost = txCost(config, 'alice.near', KeyType.ED25519, receiver, [c.action], GAS_PRICE);
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
  const cost = txCost(config, 'alice.near', KeyType.ED25519, implicit, [transfer], GAS_PRICE);
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
    txCost(config, 'alice.near', KeyType.ED25519, 'bob.near', [transfer], 2n * MIN_GAS_PURCHASE_PRICE)
      .receiptGasPrice,
    2n * MIN_GAS_PURCHASE_PRICE,
  );
});

t.test('an ML-DSA-65 signature burns ml_dsa_65_verification_cost at conversion, per signature', async (t) => {
  const transfer: Action = { type: 'Transfer', deposit: 1n };
  const classic = txCost(config, 'alice.near', KeyType.ED25519, 'bob.near', [transfer], GAS_PRICE);
  const pq = txCost(config, 'alice.near', KeyType.MLDSA65, 'bob.near', [transfer], GAS_PRICE);
  t.equal(pq.gasBurnt, classic.gasBurnt + ML_DSA_65_VERIFICATION_COST);
  t.equal(pq.burntAmount, pq.gasBurnt * GAS_PRICE);
  // Burnt, not attached: the receipt gets the same gas either way.
  t.equal(pq.gasRemaining, classic.gasRemaining);
  t.equal(pq.totalCost, classic.totalCost + ML_DSA_65_VERIFICATION_COST * GAS_PRICE);
  t.equal(
    txCost(config, 'alice.near', KeyType.SECP256K1, 'bob.near', [transfer], GAS_PRICE).gasBurnt,
    classic.gasBurnt,
  );

  // A Delegate's inner signer is a second signature: each ML-DSA-65 one is charged.
  const delegate = (keyType: KeyType): Action => ({
    type: 'Delegate',
    delegateAction: {
      senderId: 'carol.near',
      receiverId: 'bob.near',
      actions: [transfer],
      nonce: 1n,
      maxBlockHeight: 100n,
      publicKey: { keyType, data: new Uint8Array(keyType === KeyType.MLDSA65 ? 1952 : 32) },
    },
    signature: { keyType, data: new Uint8Array(keyType === KeyType.MLDSA65 ? 3309 : 64) },
  });
  const relayedClassic = txCost(
    config,
    'alice.near',
    KeyType.ED25519,
    'carol.near',
    [delegate(KeyType.ED25519)],
    GAS_PRICE,
  );
  const relayedPq = txCost(
    config,
    'alice.near',
    KeyType.ED25519,
    'carol.near',
    [delegate(KeyType.MLDSA65)],
    GAS_PRICE,
  );
  const both = txCost(
    config,
    'alice.near',
    KeyType.MLDSA65,
    'carol.near',
    [delegate(KeyType.MLDSA65)],
    GAS_PRICE,
  );
  t.equal(relayedPq.gasBurnt, relayedClassic.gasBurnt + ML_DSA_65_VERIFICATION_COST);
  t.equal(both.gasBurnt, relayedClassic.gasBurnt + 2n * ML_DSA_65_VERIFICATION_COST);
  t.equal(relayedPq.gasRemaining, relayedClassic.gasRemaining);
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

t.test('a failed account creation is not charged', async (t) => {
  const c = new TestChain();
  c.addAccount('alice.near', 100n * NEAR, alice);
  // nearcore charges when account_did_not_exist && account.is_some() && result.is_ok(): alice may
  // not create a sub-account of bob.near, so the receipt fails and nothing is created.
  c.block([signTx(alice, 'alice.near', 'x.bob.near', 1n, [{ type: 'CreateAccount' }]).bytes]);
  const o = c.block().outcomes[0]!;
  t.equal(o.status.kind, 'Failure');
  t.equal(o.tokensBurnt, (FEES.receipt.exec + FEES.createAccount.exec) * GAS_PRICE);
  c.settle();
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

// Storage gas (nearcore's logic.rs storage_write / storage_remove over ext.rs): a contract writes or
// removes one key of alice.near's storage, whose pre-state trie holds keys "a" and "b" (so a lookup
// of "a" touches the extension, the branch and the leaf, then the value). Expected gas is nearcore's
// formula over the snapshot's costs: loading + metered ops + the host function's charges.

const VALUE_AT = 1024;
/** A contract whose "go" runs `calls` (each a host call with i64 constant arguments, dropped). */
function contract(calls: string[], valueLen: number): { code: Uint8Array; ops: bigint } {
  const body = calls.map((c) => `(drop (call ${c}))`).join(' ');
  const code = wat(`(module
    (import "env" "storage_write" (func $write (param i64 i64 i64 i64 i64) (result i64)))
    (import "env" "storage_remove" (func $remove (param i64 i64 i64) (result i64)))
    (memory 1)
    (data (i32.const 0) "acz")
    (data (i32.const ${VALUE_AT}) "${'v'.repeat(valueLen)}")
    (func (export "go") ${body}))`);
  // The function entry (ceil(64-byte frame / 8) = 8 ops), then each call is its i64.const arguments,
  // the call and the drop (`end` is free).
  const ops = calls.reduce((s, c) => s + BigInt(c.split('i64.const').length - 1) + 2n, 8n);
  return { code, ops };
}
const write = (keyPtr: number, len: number) =>
  `$write (i64.const 1) (i64.const ${keyPtr}) (i64.const ${len}) (i64.const ${VALUE_AT}) (i64.const 0)`;
const remove = (keyPtr: number) => `$remove (i64.const 1) (i64.const ${keyPtr}) (i64.const 0)`;
const KEY_A = 0;
const KEY_C = 1;
const KEY_Z = 2;

function storageState(oldLen: number): TrieUpdate {
  const trie = trieOf([
    { key: trieKeyContractData('alice.near', utf8('a')), value: new Uint8Array(oldLen).fill(1) },
    { key: trieKeyContractData('alice.near', utf8('b')), value: new Uint8Array(3) },
  ]);
  return new TrieUpdate({ get: (k) => trie.get(k), touchedNodes: (k, a) => trie.touchedNodes(k, a) });
}

let codeHashes = 0;
function run(state: TrieUpdate, code: Uint8Array): bigint {
  const codeHash = new Uint8Array(32).fill(0xc0);
  new DataView(codeHash.buffer).setUint32(0, ++codeHashes);
  const ext = new RuntimeExt(state, 'alice.near', new Uint8Array(32), 10, new Map());
  const out = runFunction({
    code,
    codeHash,
    methodName: 'go',
    context: selfCallContext('alice.near'),
    config: config.wasm,
    fees: config.fees,
    external: ext,
  });
  if (out.aborted)
    throw new Error(JSON.stringify(out.aborted, (_k, v) => (typeof v === 'bigint' ? `${v}` : v)));
  return out.burnt_gas;
}

const TTN = ext('touching_trie_node');
const loading = (code: Uint8Array) =>
  ext('contract_loading_base') + ext('contract_loading_bytes') * BigInt(code.length);
const readMemory = (n: number) => ext('read_memory_base') + ext('read_memory_byte') * BigInt(n);
const register = (n: number) => ext('write_register_base') + ext('write_register_byte') * BigInt(n);
/** storage_write of a 1-byte key and an n-byte value that evicts `old` bytes, touching `ttn` nodes. */
function writeGas(n: number, old: number | null, ttn: bigint): bigint {
  return (
    ext('base') +
    ext('storage_write_base') +
    readMemory(1) +
    readMemory(n) +
    ext('storage_write_key_byte') +
    ext('storage_write_value_byte') * BigInt(n) +
    (old === null ? 0n : ext('storage_write_evicted_byte') * BigInt(old) + register(old)) +
    ttn * TTN
  );
}
/** storage_remove of a 1-byte key holding `old` bytes, touching `ttn` nodes. */
function removeGas(old: number | null, ttn: bigint): bigint {
  return (
    ext('base') +
    ext('storage_remove_base') +
    readMemory(1) +
    ext('storage_remove_key_byte') +
    (old === null ? 0n : ext('storage_remove_ret_value_byte') * BigInt(old) + register(old)) +
    ttn * TTN
  );
}
const opsGas = (ops: bigint) => ops * BigInt(SNAPSHOT.wasm_config.regular_op_cost);

t.test('storage_write of a new key pays for the trie path it touched', async (t) => {
  const c = contract([write(KEY_C, 10)], 10);
  // "c" branches off where "a" and "b" do: the extension and the branch, no value.
  t.equal(run(storageState(10), c.code), loading(c.code) + opsGas(c.ops) + writeGas(10, null, 2n));
});

for (const old of [10, 1001, 5000]) {
  t.test(`overwriting a ${old}-byte value pays for the evicted bytes and path + value`, async (t) => {
    const c = contract([write(KEY_A, 100)], 100);
    const gas = run(storageState(old), c.code);
    t.equal(gas, loading(c.code) + opsGas(c.ops) + writeGas(100, old, 4n));
    if (old === 1001) {
      // Issue 12 measured about 32 Ggas missing here: the evicted bytes alone.
      t.equal(ext('storage_write_evicted_byte') * 1001n, 32_149_424_307n);
    }
  });

  t.test(`removing a ${old}-byte value pays for the removed bytes and path + value`, async (t) => {
    const c = contract([remove(KEY_A)], 0);
    t.equal(run(storageState(old), c.code), loading(c.code) + opsGas(c.ops) + removeGas(old, 4n));
    if (old === 1001) t.equal(ext('storage_remove_ret_value_byte') * 1001n, 11_543_087_556n);
  });
}

t.test('a key the chunk already wrote is served from the overlay: no trie node is charged', async (t) => {
  const twice = contract([write(KEY_A, 50), write(KEY_A, 70)], 70);
  t.equal(
    run(storageState(1001), twice.code),
    loading(twice.code) + opsGas(twice.ops) + writeGas(50, 1001, 4n) + writeGas(70, 50, 0n),
  );
  // Removed by an earlier receipt of the same chunk (committed, not yet in the trie).
  const state = storageState(1001);
  const rm = contract([remove(KEY_A)], 0);
  run(state, rm.code);
  state.commit({ type: 'receipt_processing', receiptHash: new Uint8Array(32) });
  const again = contract([write(KEY_A, 20)], 20);
  t.equal(run(state, again.code), loading(again.code) + opsGas(again.ops) + writeGas(20, null, 0n));
});

t.test('removing a key whose path leaves the trie early touches one node', async (t) => {
  // "z" (nibbles 7, a) leaves the shared extension, which ends in "a"'s and "b"'s nibble 6.
  const c = contract([remove(KEY_Z)], 0);
  t.equal(run(storageState(10), c.code), loading(c.code) + opsGas(c.ops) + removeGas(null, 1n));
});

t.test('a view call sees its block’s epoch height, as a receipt in that block does', async (t) => {
  const code = wat(`(module
    (import "env" "epoch_height" (func $epoch_height (result i64)))
    (import "env" "value_return" (func $ret (param i64 i64)))
    (memory 1)
    (func (export "epoch") (i64.store (i32.const 0) (call $epoch_height)) (call $ret (i64.const 8) (i64.const 0))))`);
  const codeHash = new Uint8Array(32).fill(0xe0);
  const account = { amount: NEAR, locked: 0n, codeHash, storageUsage: 500n };
  const r = viewCall({
    config,
    state: { get: (k) => (k.length === trieKeyContractCode('alice.near').length ? code : undefined) },
    accountId: 'alice.near',
    account,
    methodName: 'epoch',
    args: new Uint8Array(0),
    blockHeight: 95,
    blockHash: 'x',
    blockTimestamp: 0n,
    epochHeight: 5,
    chainId: 'test',
    stateRoot: new Uint8Array(32),
    validators: new Map(),
  });
  t.same(r.result, [5, 0, 0, 0, 0, 0, 0, 0]);
});

// Real mainnet outcomes: block 61321189 (protocol 51). The runtime implements protocol 86 only, but a
// Transfer to a named account costs the same there (receipt 108,059,500,000 + transfer
// 115,123,062,500 exec gas), so those receipts must burn what mainnet burnt. Transfers to implicit
// accounts are left out: their create_account exec fee changed at 85.
const mainnet = JSON.parse(
  readFileSync(new URL('./fixtures/mainnet_61321189_transfers.json', import.meta.url), 'utf8'),
) as {
  gas_price: string;
  transfer_receipts: {
    receipt_id: string;
    predecessor_id: string;
    receiver_id: string;
    signer_id: string;
    gas_price: string;
    deposit: string;
    gas_burnt: number;
    tokens_burnt: string;
  }[];
};

t.test('mainnet block 61321189: Transfer receipts burn what mainnet burnt', async (t) => {
  const named = mainnet.transfer_receipts.filter((r) => !/^[0-9a-f]{64}$/.test(r.receiver_id));
  t.equal(named.length, 9);
  t.equal(mainnet.transfer_receipts.length - named.length, 2, 'two refunds to an implicit account');
  for (const m of named) {
    t.equal(m.gas_burnt, 223_182_562_500, 'the issue’s number');
    const c = new TestChain();
    c.gasPrice = BigInt(mainnet.gas_price);
    c.addAccount(m.receiver_id, NEAR);
    c.pending = [
      encodeReceipt({
        predecessorId: m.predecessor_id,
        receiverId: m.receiver_id,
        receiptId: base58Decode(m.receipt_id),
        receipt: {
          kind: 'Action',
          signerId: m.signer_id,
          signerPublicKey: alice.publicKey,
          gasPrice: BigInt(m.gas_price),
          outputDataReceivers: [],
          inputDataIds: [],
          actions: [{ type: 'Transfer', deposit: BigInt(m.deposit) }],
        },
      }),
    ];
    const o = c.block().outcomes[0]!;
    t.equal(o.gasBurnt, BigInt(m.gas_burnt), `${m.receipt_id}: gas_burnt`);
    t.equal(o.tokensBurnt, BigInt(m.tokens_burnt), `${m.receipt_id}: tokens_burnt`);
    t.same(o.status, { kind: 'SuccessValue', value: new Uint8Array(0) });
  }
});
