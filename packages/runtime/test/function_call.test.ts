// FunctionCall actions against nearcore at protocol 86: only the receipt's last action is given
// its output_data_receivers (runtime/runtime/src/function_call.rs, `is_last_action`), so only there
// does value_return burn new_data_receipt_byte (near-vm-runner logic.rs value_return: per receiver,
// (send_fee(sir) + exec_fee) * bytes); and a contract's new receipt with more deploy actions than
// max_deploy_actions_per_receipt fails the call with NewReceiptValidationError (lib.rs apply_action
// → validate_receipt in NewReceipt mode → action_validation.rs validate_number_of_deploy_actions).
import { type Action, encodeAccount, encodeReceipt } from '@nearlite/primitives';
import { trieKeyAccount } from '@nearlite/trie';
import t from 'tap';
import { config, contractChain, keyFromSeed, NEAR, signTx, type TestChain, wat } from './helpers.js';
import { FEES, SNAPSHOT } from './snapshot.js';

const RETURNED = 1000n;
// ret: returns RETURNED bytes. noop: nothing. deploys: a batch on itself with N (the input's first
// byte) deploy actions of an 8-byte code.
const CONTRACT = wat(`(module
  (import "env" "value_return" (func $ret (param i64 i64)))
  (import "env" "current_account_id" (func $me (param i64)))
  (import "env" "register_len" (func $rlen (param i64) (result i64)))
  (import "env" "read_register" (func $rread (param i64 i64)))
  (import "env" "input" (func $input (param i64)))
  (import "env" "promise_batch_create" (func $create (param i64 i64) (result i64)))
  (import "env" "promise_batch_action_deploy_contract" (func $deploy (param i64 i64 i64)))
  (memory 1)
  (data (i32.const 100) "\\00asm\\01\\00\\00\\00")
  (func (export "ret") (call $ret (i64.const ${RETURNED}) (i64.const 1000)))
  (func (export "noop"))
  (func (export "deploys") (local $len i64) (local $p i64) (local $n i32)
    (call $input (i64.const 1))
    (call $rread (i64.const 1) (i64.const 50))
    (local.set $n (i32.load8_u (i32.const 50)))
    (call $me (i64.const 0))
    (local.set $len (call $rlen (i64.const 0)))
    (call $rread (i64.const 0) (i64.const 0))
    (local.set $p (call $create (local.get $len) (i64.const 0)))
    (block $done (loop $next
      (br_if $done (i32.eqz (local.get $n)))
      (call $deploy (local.get $p) (i64.const 8) (i64.const 100))
      (local.set $n (i32.sub (local.get $n) (i32.const 1)))
      (br $next)))))`);

const alice = keyFromSeed(1);
const bob = keyFromSeed(2);

const chain = (): TestChain => contractChain(CONTRACT);

const call = (methodName: string, args = new Uint8Array(0)): Action => ({
  type: 'FunctionCall',
  methodName,
  args,
  gas: 10_000_000_000_000n,
  deposit: 0n,
});

let nextId = 1;
/** The gas one incoming receipt of `methods` on alice.near burns, with or without a receiver of its result. */
function burnt(c: TestChain, methods: string[], withReceiver: boolean): bigint {
  const id = nextId++;
  c.pending = [
    encodeReceipt({
      predecessorId: 'alice.near',
      receiverId: 'alice.near',
      receiptId: new Uint8Array(32).fill(id),
      receipt: {
        kind: 'Action',
        signerId: 'alice.near',
        signerPublicKey: alice.publicKey,
        gasPrice: 1_000_000_000n,
        outputDataReceivers: withReceiver
          ? [{ dataId: new Uint8Array(32).fill(200 + id), receiverId: 'alice.near' }]
          : [],
        inputDataIds: [],
        actions: methods.map((m) => call(m)),
      },
    }),
  ];
  const { outcomes } = c.block();
  const o = outcomes[0]!;
  if (o.status.kind === 'Failure') throw new Error(`receipt failed: ${JSON.stringify(o.status)}`);
  return o.gasBurnt;
}

t.test('output_data_receivers reach only the last action of the receipt', async (t) => {
  const c = chain();
  // value_return before the last action: no receiver, so no data-receipt bytes.
  t.equal(burnt(c, ['ret', 'noop'], true), burnt(c, ['ret', 'noop'], false));
  // value_return in the last action: one receiver on the same account (sir).
  const perReceiver = (FEES.dataByte.sendSir + FEES.dataByte.exec) * RETURNED;
  t.equal(burnt(c, ['noop', 'ret'], true) - burnt(c, ['noop', 'ret'], false), perReceiver);
});

t.test("a contract's batch over max_deploy_actions_per_receipt fails the call", async (t) => {
  const c = chain();
  const limit = SNAPSHOT.wasm_config.limit_config.max_deploy_actions_per_receipt!;
  let nonce = 10n;
  const run = (n: number) => {
    const tx = signTx(bob, 'bob.near', 'alice.near', nonce++, [call('deploys', new Uint8Array([n]))]);
    c.block([tx.bytes]);
    return c.settle().find((o) => o.executorId === 'alice.near')!.status;
  };
  t.same(run(limit + 1), {
    kind: 'Failure',
    error: {
      ActionError: {
        index: 0,
        kind: {
          NewReceiptValidationError: {
            ActionsValidation: {
              TotalNumberOfDeployActionsExceeded: { number_of_deploy_actions: limit + 1, limit },
            },
          },
        },
      },
    },
  });
  t.not(run(limit).kind, 'Failure');
});

// nearcore's VMLogic starts a call's balance at the account's amount plus the attached deposit
// (logic.rs: current_account_balance = context.account_balance + context.attached_deposit), where
// the runtime passes the account's amount as it is, before the deposit (actions.rs
// action_function_call: account_balance: account.amount()); the outcome's balance becomes the
// account's. So the deposit reaches the receiver once, and the contract sees it once.
const BALANCE = wat(`(module
  (import "env" "account_balance" (func $balance (param i64)))
  (import "env" "value_return" (func $ret (param i64 i64)))
  (memory 1)
  (func (export "balance") (call $balance (i64.const 0)) (call $ret (i64.const 16) (i64.const 0))))`);

t.test('an attached deposit reaches the receiver once, and its contract sees it once', async (t) => {
  const c = contractChain(BALANCE);
  const start = c.totalBalance() + c.burnt;
  const before = c.account('alice.near')!.amount;
  const deposit = 5n * NEAR;
  const tx = signTx(bob, 'bob.near', 'alice.near', 10n, [{ ...call('balance'), deposit }]);
  c.block([tx.bytes]);
  const outcomes = c.settle();
  const ran = outcomes.find((o) => o.executorId === 'alice.near')!;
  t.equal(ran.status.kind, 'SuccessValue');
  const seen = ran.status.kind === 'SuccessValue' ? Buffer.from(ran.status.value).readBigUInt64LE(0) : 0n;
  const seenHigh = ran.status.kind === 'SuccessValue' ? Buffer.from(ran.status.value).readBigUInt64LE(8) : 0n;
  t.equal(
    seen + (seenHigh << 64n),
    before + deposit,
    'account_balance: the amount before the call plus the deposit',
  );
  // What alice gains beyond the deposit is her share of the call's burnt gas (burnt_gas_reward).
  const reward = c.account('alice.near')!.amount - before - deposit;
  t.ok(
    reward >= 0n && reward < ran.tokensBurnt,
    `beyond the deposit, a reward under the gas burnt (${reward})`,
  );
  t.equal(c.totalBalance() + c.burnt, start, 'balances + burnt are what they were: no money made');

  // A call that fails keeps nothing of the deposit: it goes back to bob in a refund.
  const aliceBefore = c.account('alice.near')!.amount;
  const failing = signTx(bob, 'bob.near', 'alice.near', 11n, [{ ...call('missing'), deposit }]);
  c.block([failing.bytes]);
  const failed = c.settle().find((o) => o.executorId === 'alice.near')!;
  t.equal(failed.status.kind, 'Failure');
  t.equal(c.account('alice.near')!.amount, aliceBefore, 'a failed call leaves the receiver as it was');
  t.equal(c.totalBalance() + c.burnt, start, 'and makes no money either');
});

// Writes a value of 1,000 bytes under the one-byte key "k".
const WRITER = wat(`(module
  (import "env" "storage_write" (func $write (param i64 i64 i64 i64 i64) (result i64)))
  (memory 1)
  (data (i32.const 0) "k")
  (func (export "write") (drop (call $write (i64.const 1) (i64.const 0) (i64.const 1000) (i64.const 100) (i64.const 0)))))`);

t.test('a receipt that leaves its account short of its storage stake fails whole (index None)', async (t) => {
  // nearcore's apply_action_receipt checks the receiver's storage stake once every action has run
  // (check_storage_stake): short of it, the receipt fails with LackBalanceForState { amount: required
  // minus amount and locked } and no action index, and none of its effects stay.
  const poor = keyFromSeed(7);
  const bob = keyFromSeed(2);
  const c = contractChain(WRITER);
  c.addAccount('poor.near', 100n * NEAR, poor);
  c.block([signTx(poor, 'poor.near', 'poor.near', 1n, [{ type: 'DeployContract', code: WRITER }]).bytes]);
  c.settle();
  const deployed = c.account('poor.near')!;
  // What the account holds now covers its storage and 500 bytes more; the write adds 1,041 (the key,
  // the value and storage_num_extra_bytes_record's 40).
  const perByte = config.storageAmountPerByte;
  const amount = (deployed.storageUsage + 500n) * perByte;
  c.state.set(
    Buffer.from(trieKeyAccount('poor.near')).toString('hex'),
    encodeAccount({ ...deployed, amount }),
  );
  // bob pays for the call, so poor.near's amount is what it was when the storage is checked.
  c.block([
    signTx(bob, 'bob.near', 'poor.near', 1n, [
      { type: 'FunctionCall', methodName: 'write', args: new Uint8Array(0), gas: 10n ** 13n, deposit: 0n },
    ]).bytes,
  ]);
  const outcomes = c.settle();
  t.same(outcomes[0]!.status, {
    kind: 'Failure',
    error: {
      ActionError: {
        index: null,
        kind: { LackBalanceForState: { account_id: 'poor.near', amount: (541n * perByte).toString() } },
      },
    },
  });
  const after = c.account('poor.near')!;
  t.equal(after.storageUsage, deployed.storageUsage, 'the write did not stay');
  // nearcore pays the receiver its share of the call's gas after the rollback, failed or not.
  t.ok(after.amount > amount, 'it lost nothing, and got the gas reward');
});

// start: bob.near's middle, then alice.near's cb, whose result is the call's. middle: returns a
// promise of alice.near's leaf. leaf: returns "leaf!". cb: returns what its one promise gave.
const CHAIN = wat(`(module
  (import "env" "promise_create" (func $create (param i64 i64 i64 i64 i64 i64 i64 i64) (result i64)))
  (import "env" "promise_then" (func $then (param i64 i64 i64 i64 i64 i64 i64 i64 i64) (result i64)))
  (import "env" "promise_return" (func $return (param i64)))
  (import "env" "promise_result" (func $result (param i64 i64) (result i64)))
  (import "env" "value_return" (func $value (param i64 i64)))
  (import "env" "read_register" (func $read (param i64 i64)))
  (import "env" "register_len" (func $len (param i64) (result i64)))
  (memory 1)
  (data (i32.const 0) "alice.near")
  (data (i32.const 16) "bob.near")
  (data (i32.const 32) "middle")
  (data (i32.const 48) "leaf")
  (data (i32.const 64) "cb")
  (data (i32.const 80) "leaf!")
  (func (export "start")
    (call $return
      (call $then
        (call $create (i64.const 8) (i64.const 16) (i64.const 6) (i64.const 32) (i64.const 0) (i64.const 0)
          (i64.const 200) (i64.const 60000000000000))
        (i64.const 10) (i64.const 0) (i64.const 2) (i64.const 64) (i64.const 0) (i64.const 0) (i64.const 200)
        (i64.const 30000000000000))))
  (func (export "middle")
    (call $return
      (call $create (i64.const 10) (i64.const 0) (i64.const 4) (i64.const 48) (i64.const 0) (i64.const 0)
        (i64.const 200) (i64.const 20000000000000))))
  (func (export "leaf") (call $value (i64.const 5) (i64.const 80)))
  (func (export "cb")
    (drop (call $result (i64.const 0) (i64.const 0)))
    (call $read (i64.const 0) (i64.const 300))
    (call $value (call $len (i64.const 0)) (i64.const 300))))`);

t.test('a call that returns a promise hands the data its caller waits for to that promise', async (t) => {
  // nearcore's apply_action_receipt: a receipt whose result is ReturnData::ReceiptIndex passes its
  // output_data_receivers to that new receipt, so the callback waiting on middle gets leaf's value.
  const alice = keyFromSeed(1);
  const bob = keyFromSeed(2);
  const c = contractChain(CHAIN);
  c.block([signTx(bob, 'bob.near', 'bob.near', 1n, [{ type: 'DeployContract', code: CHAIN }]).bytes]);
  c.settle();
  c.block([
    signTx(alice, 'alice.near', 'alice.near', 10n, [
      {
        type: 'FunctionCall',
        methodName: 'start',
        args: new Uint8Array(0),
        gas: 200n * 10n ** 12n,
        deposit: 0n,
      },
    ]).bytes,
  ]);
  const outcomes = c.settle();
  const values = outcomes
    .filter((o) => o.status.kind === 'SuccessValue')
    .map((o) => Buffer.from((o.status as { value: Uint8Array }).value).toString());
  t.ok(
    outcomes.every((o) => o.status.kind !== 'Failure'),
    'nothing failed',
  );
  t.same(
    values.filter((v) => v !== ''),
    ['leaf!', 'leaf!'],
    'leaf returned it, and cb got it',
  );
});
