import t from 'tap';
import { call, contract, fees, freshHash, MockExternal, returned, text } from './helpers.js';

// Memory layout: 100 "bob.near", 120 "carol.near", 140 "contract.near", 200 method "go", 210 args "{}",
// 300 u128 amount 10, 320 u128 zero, 400 borsh ed25519 public key (33 bytes), 500 "m1,m2".
const code = await contract(`
  (data (i32.const 100) "bob.near")
  (data (i32.const 120) "carol.near")
  (data (i32.const 140) "contract.near")
  (data (i32.const 200) "go")
  (data (i32.const 210) "{}")
  (data (i32.const 300) "\\0a")
  (data (i32.const 400) "\\00\\01\\02\\03\\04\\05\\06\\07\\08\\09\\0a\\0b\\0c\\0d\\0e\\0f\\10\\11\\12\\13\\14\\15\\16\\17\\18\\19\\1a\\1b\\1c\\1d\\1e\\1f\\20")
  (data (i32.const 500) "m1,m2")
  (data (i32.const 600) "null")
  (func (export "batch") (local $p i64) (local $q i64)
    (local.set $p (call $promise_batch_create (i64.const 8) (i64.const 100)))
    (call $promise_batch_action_create_account (local.get $p))
    (call $promise_batch_action_transfer (local.get $p) (i64.const 300))
    (call $promise_batch_action_add_key_with_full_access (local.get $p) (i64.const 33) (i64.const 400) (i64.const 0))
    (call $promise_batch_action_add_key_with_function_call (local.get $p) (i64.const 33) (i64.const 400) (i64.const 1)
      (i64.const 320) (i64.const 10) (i64.const 120) (i64.const 5) (i64.const 500))
    (call $promise_batch_action_function_call (local.get $p) (i64.const 2) (i64.const 200) (i64.const 2) (i64.const 210)
      (i64.const 320) (i64.const 5000000000000))
    (local.set $q (call $promise_then (local.get $p) (i64.const 13) (i64.const 140) (i64.const 2) (i64.const 200)
      (i64.const 2) (i64.const 210) (i64.const 320) (i64.const 3000000000000)))
    (call $value_return (i64.const 4) (i64.const 600))
    (call $promise_return (local.get $q)))
  (func (export "joint") (local $a i64) (local $b i64)
    (local.set $a (call $promise_create (i64.const 8) (i64.const 100) (i64.const 2) (i64.const 200) (i64.const 2)
      (i64.const 210) (i64.const 320) (i64.const 1000000000000)))
    (local.set $b (call $promise_batch_create (i64.const 10) (i64.const 120)))
    (i64.store (i32.const 0) (local.get $a))
    (i64.store (i32.const 8) (local.get $b))
    (i64.store (i32.const 16) (call $promise_and (i64.const 0) (i64.const 2)))
    (drop (call $promise_batch_then (i64.load (i32.const 16)) (i64.const 13) (i64.const 140)))
    (call $promise_batch_action_delete_account (i64.load (i32.const 16)) (i64.const 8) (i64.const 100)))
  (func (export "return_joint")
    (i64.store (i32.const 0) (call $promise_batch_create (i64.const 8) (i64.const 100)))
    (call $promise_return (call $promise_and (i64.const 0) (i64.const 1))))
  (func (export "bad_index") (call $promise_batch_action_create_account (i64.const 42)))
  (func (export "value_wins")
    (call $promise_return (call $promise_batch_create (i64.const 8) (i64.const 100)))
    (call $value_return (i64.const 4) (i64.const 600)))
  (func (export "overspend")
    (drop (call $promise_batch_create (i64.const 8) (i64.const 100)))
    (i64.store (i32.const 300) (i64.const -1))
    (call $promise_batch_action_transfer (i64.const 0) (i64.const 300)))
  (func (export "results")
    (i64.store8 (i32.const 0) (call $promise_results_count))
    (i64.store8 (i32.const 1) (call $promise_result (i64.const 0) (i64.const 5)))
    (i64.store8 (i32.const 2) (call $promise_result (i64.const 1) (i64.const 6)))
    (call $read_register (i64.const 5) (i64.const 3))
    (call $value_return (i64.const 5) (i64.const 0)))
  (func (export "bad_result") (drop (call $promise_result (i64.const 9) (i64.const 0))))
  (func (export "yield") (local $p i64)
    (local.set $p (call $promise_yield_create (i64.const 2) (i64.const 200) (i64.const 2) (i64.const 210)
      (i64.const 1000000000000) (i64.const 1) (i64.const 0)))
    (call $read_register (i64.const 0) (i64.const 700))
    (drop (call $promise_yield_resume (i64.const 32) (i64.const 700) (i64.const 2) (i64.const 210))))
`);
const hash = freshHash();

t.test('batch actions are recorded on the receipt and paid for', async (t) => {
  const ext = new MockExternal();
  const out = call({ code, codeHash: hash, method: 'batch', external: ext });
  t.equal(out.aborted, null);
  t.same(out.return_data, { kind: 'ReceiptIndex', index: 1 }, 'promise_return after value_return wins');
  t.equal(ext.receipts.length, 2);
  t.equal(ext.receipts[0]!.receiver_id, 'bob.near');
  const pk = Buffer.from(Array.from({ length: 32 }, (_, i) => i + 1)).toString('hex');
  t.same(ext.receipts[0]!.actions, [
    { CreateAccount: {} },
    { Transfer: { deposit: 10n } },
    { AddKey: { public_key: pk, nonce: 0n, permission: 'FullAccess' } },
    {
      AddKey: {
        public_key: pk,
        nonce: 1n,
        allowance: null,
        receiver_id: 'carol.near',
        method_names: ['m1', 'm2'],
      },
    },
    { FunctionCall: { method_name: 'go', args: '{}', deposit: 0n, gas: 5_000_000_000_000n, gas_weight: 0n } },
  ]);
  t.same(ext.receipts[1], {
    receiver_id: 'contract.near',
    deps: [0],
    actions: [
      {
        FunctionCall: { method_name: 'go', args: '{}', deposit: 0n, gas: 3_000_000_000_000n, gas_weight: 0n },
      },
    ],
  });
  t.equal(out.balance, 1_000_005n - 10n, 'the transfer left the account balance');
  const reserved = out.used_gas - out.burnt_gas;
  const f = fees.fees;
  const minReserved =
    8_000_000_000_000n +
    f.new_action_receipt.execution * 2n +
    f.create_account.execution +
    f.transfer.execution;
  t.ok(reserved >= minReserved, 'execution fees and attached gas are reserved, not burnt');
});

t.test('joint promises', async (t) => {
  const ext = new MockExternal();
  const out = call({ code, codeHash: hash, method: 'joint', external: ext });
  t.same(out.aborted, { HostError: 'CannotAppendActionToJointPromise' });
  t.same(
    ext.receipts[2],
    { receiver_id: 'contract.near', deps: [0, 1], actions: [] },
    'then on a joint waits on both',
  );
  t.same(call({ code, codeHash: hash, method: 'return_joint' }).aborted, {
    HostError: 'CannotReturnJointPromise',
  });
  t.same(call({ code, codeHash: hash, method: 'bad_index' }).aborted, {
    HostError: { InvalidPromiseIndex: { promise_idx: 42n } },
  });
  t.same(call({ code, codeHash: hash, method: 'overspend' }).aborted, { HostError: 'BalanceExceeded' });
});

t.test('the last of value_return and promise_return wins', async (t) => {
  const out = call({ code, codeHash: hash, method: 'value_wins' });
  t.equal(text(returned(out)), 'null');
});

t.test('promise results', async (t) => {
  const out = call({
    code,
    codeHash: hash,
    method: 'results',
    context: {
      promise_results: [{ kind: 'Successful', data: new TextEncoder().encode('ok') }, { kind: 'Failed' }],
    },
  });
  t.same([...returned(out)], [2, 1, 2, 0x6f, 0x6b]);
  t.same(call({ code, codeHash: hash, method: 'bad_result' }).aborted, {
    HostError: { InvalidPromiseResultIndex: { result_idx: 9n } },
  });
});

t.test('yield create and resume', async (t) => {
  const ext = new MockExternal();
  const out = call({ code, codeHash: hash, method: 'yield', external: ext });
  t.equal(out.aborted, null);
  t.equal(ext.receipts[0]!.yield, true);
  t.equal(ext.resumed.length, 1);
  t.same(ext.resumed[0]!.data_id, new Uint8Array(32).fill(1));
  t.equal(text(ext.resumed[0]!.data), '{}');
});
