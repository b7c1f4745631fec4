// NEP-616 host functions as nearcore's logic.rs charges and checks them. The fixed points come from
// nearcore's test_promise_batch_action_state_init (runtime/near-vm-runner/src/logic/tests): the same
// calls to "rick.test" with "global.near" and 110 yocto, "key"/"value" and then "key2"/"value2",
// whose per-byte action cost it pins at 576,000,000 and 1,296,000,000 gas (72,000,000 a byte sent),
// and the counts of each host cost per call. The base fee is protocol 86's.
import t from 'tap';
import { call, contract, freshHash, MockExternal, rawConfig, u64le } from './helpers.js';

const ext = (name: string): bigint =>
  BigInt((rawConfig.wasm_config.ext_costs as Record<string, number>)[name]!);

// 100 "rick.test", 120 "global.near", 140 the amount (110), 160 a huge amount, 200 "key",
// 210 "value", 220 "key2", 230 "value2", 300 a 32-byte hash, 340 "contract.near" (itself).
const code = await contract(`
  (data (i32.const 100) "rick.test")
  (data (i32.const 120) "global.near")
  (data (i32.const 140) "\\6e")
  (data (i32.const 160) "\\ff\\ff\\ff\\ff\\ff\\ff\\ff\\ff\\ff\\ff\\ff\\ff\\ff\\ff\\ff\\ff")
  (data (i32.const 200) "key")
  (data (i32.const 210) "value")
  (data (i32.const 220) "key2")
  (data (i32.const 230) "value2")
  (data (i32.const 300) "\\01\\02\\03\\04\\05\\06\\07\\08\\09\\0a\\0b\\0c\\0d\\0e\\0f\\10\\11\\12\\13\\14\\15\\16\\17\\18\\19\\1a\\1b\\1c\\1d\\1e\\1f\\20")
  (data (i32.const 340) "contract.near")
  (global $p (mut i64) (i64.const 0))
  (global $a (mut i64) (i64.const 0))
  (func $batch (global.set $p (call $promise_batch_create (i64.const 9) (i64.const 100))))
  (func $by_account
    (call $batch)
    (global.set $a (call $promise_batch_action_state_init_by_account_id
      (global.get $p) (i64.const 11) (i64.const 120) (i64.const 140))))
  (func $entry (param $k i64) (param $kl i64) (param $v i64) (param $vl i64)
    (call $set_state_init_data_entry (global.get $p) (global.get $a) (local.get $kl) (local.get $k)
      (local.get $vl) (local.get $v)))
  (func $ret_u64 (param i64) (i64.store (i32.const 400) (local.get 0))
    (call $value_return (i64.const 8) (i64.const 400)))
  (func (export "create") (call $batch))
  (func (export "init") (call $by_account) (call $ret_u64 (global.get $a)))
  (func (export "one_entry") (call $by_account)
    (call $entry (i64.const 200) (i64.const 3) (i64.const 210) (i64.const 5)))
  (func (export "two_entries") (call $by_account)
    (call $entry (i64.const 200) (i64.const 3) (i64.const 210) (i64.const 5))
    (call $write_register (i64.const 0) (i64.const 4) (i64.const 220))
    (call $write_register (i64.const 1) (i64.const 6) (i64.const 230))
    ;; From registers: length u64::MAX names the register.
    (call $entry (i64.const 0) (i64.const -1) (i64.const 1) (i64.const -1)))
  (func (export "second_action") (call $by_account)
    (call $promise_batch_action_transfer (global.get $p) (i64.const 140))
    (global.set $a (call $promise_batch_action_state_init
      (global.get $p) (i64.const 32) (i64.const 300) (i64.const 140)))
    (call $ret_u64 (global.get $a)))
  (func (export "self_init")
    (global.set $p (call $promise_batch_create (i64.const 13) (i64.const 340)))
    (drop (call $promise_batch_action_state_init
      (global.get $p) (i64.const 32) (i64.const 300) (i64.const 140))))
  (func (export "other_init") (call $batch)
    (drop (call $promise_batch_action_state_init
      (global.get $p) (i64.const 32) (i64.const 300) (i64.const 140))))
  (func (export "bad_hash") (call $batch)
    (drop (call $promise_batch_action_state_init
      (global.get $p) (i64.const 31) (i64.const 300) (i64.const 140))))
  (func (export "too_much") (call $batch)
    (drop (call $promise_batch_action_state_init
      (global.get $p) (i64.const 32) (i64.const 300) (i64.const 160))))
  (func (export "bad_index") (call $by_account) (global.set $a (i64.const 5))
    (call $entry (i64.const 200) (i64.const 3) (i64.const 210) (i64.const 5)))
  (func (export "not_state_init") (call $batch)
    (call $promise_batch_action_transfer (global.get $p) (i64.const 140))
    (call $entry (i64.const 200) (i64.const 3) (i64.const 210) (i64.const 5)))
  (func (export "duplicate") (call $by_account)
    (call $entry (i64.const 200) (i64.const 3) (i64.const 210) (i64.const 5))
    (call $entry (i64.const 200) (i64.const 3) (i64.const 230) (i64.const 6)))
  (func (export "code") (call $ret_u64 (call $current_contract_code (i64.const 0))))
  (func (export "code_register") (drop (call $current_contract_code (i64.const 0)))
    (call $value_return (i64.const -1) (i64.const 0)))
  (func (export "refund_to") (call $refund_to_account_id (i64.const 0))
    (call $value_return (i64.const -1) (i64.const 0)))
  (func (export "set_refund_to") (call $batch)
    (call $promise_set_refund_to (global.get $p) (i64.const 11) (i64.const 120)))
  (func (export "set_refund_to_joint") (local $q i64) (call $batch)
    (i64.store (i32.const 500) (global.get $p))
    (i64.store (i32.const 508) (call $promise_batch_create (i64.const 9) (i64.const 100)))
    (local.set $q (call $promise_and (i64.const 500) (i64.const 2)))
    (call $promise_set_refund_to (local.get $q) (i64.const 11) (i64.const 120)))
  (func (export "set_refund_to_bad") (call $batch)
    (call $promise_set_refund_to (global.get $p) (i64.const 3) (i64.const 140)))
`);
const hash = freshHash();
const run = (
  method: string,
  over: Parameters<typeof call>[0]['context'] = {},
  external = new MockExternal(),
) => call({ code, codeHash: hash, method, external, context: over });
const aborted = (o: ReturnType<typeof run>) =>
  JSON.parse(JSON.stringify(o.aborted, (_k, v) => (typeof v === 'bigint' ? Number(v) : v)));

t.test('the action a contract builds, entry by entry, in key order', async (t) => {
  const e = new MockExternal();
  const o = run('two_entries', {}, e);
  t.equal(o.aborted, null);
  t.same(e.receipts[0]!.actions, [
    {
      DeterministicStateInit: {
        code: { account_id: 'global.near' },
        data: { '6b6579': '76616c7565', '6b657932': '76616c756532' },
        deposit: 110n,
      },
    },
  ]);
  t.equal(o.balance, run('create').balance - 110n, 'the deposit leaves the account');
  const second = new MockExternal();
  const s = run('second_action', {}, second);
  t.equal(
    u64le(s.return_data.kind === 'Value' ? s.return_data.data : new Uint8Array(8)),
    2n,
    'its index in the receipt',
  );
  t.same(second.receipts[0]!.actions.length, 3);
  t.same(
    (second.receipts[0]!.actions[2] as { DeterministicStateInit: { code: object } }).DeterministicStateInit
      .code,
    {
      code_hash: '0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20',
    },
  );
});

t.test('costs: the base fee when added, the entry and its bytes as each entry is set', async (t) => {
  const one = run('one_entry').profile;
  t.equal(one.getActionCost('deterministic_state_init_byte'), 576_000_000n, "nearcore's figure for 8 bytes");
  t.equal(one.getActionCost('deterministic_state_init_entry'), 0n, 'nothing to send per entry');
  t.equal(one.getActionCost('deterministic_state_init_base'), 500_000_000_000n, 'send_not_sir at 86');
  const two = run('two_entries').profile;
  t.equal(
    two.getActionCost('deterministic_state_init_byte'),
    1_296_000_000n,
    "nearcore's figure for 18 bytes",
  );
  // The host costs of the calls themselves, counted as nearcore's test counts them.
  const create = run('create').profile;
  const init = run('init').profile;
  const host = (p: typeof init, name: Parameters<typeof init.getExtCost>[0]) =>
    p.getExtCost(name) - create.getExtCost(name);
  t.equal(host(init, 'utf8_decoding_base'), ext('utf8_decoding_base'));
  t.equal(host(init, 'utf8_decoding_byte'), 11n * ext('utf8_decoding_byte'));
  // The init's two reads (the id, the amount) and value_return's read of the index.
  t.equal(host(init, 'read_memory_base'), 3n * ext('read_memory_base'));
  t.equal(host(init, 'read_memory_byte'), (11n + 16n + 8n) * ext('read_memory_byte'));
  t.equal(
    one.getExtCost('read_memory_byte') - create.getExtCost('read_memory_byte'),
    (11n + 16n + 3n + 5n) * ext('read_memory_byte'),
  );
  // Exec fees are reserved for when the receipt runs: base, one entry, 8 bytes.
  const reserved = (p: ReturnType<typeof run>) => p.used_gas - p.burnt_gas;
  t.equal(
    reserved(run('one_entry')) - reserved(run('create')),
    7_430_000_000_000n + 200_000_000_000n + 8n * 70_000_000n,
  );
  const self = run('self_init');
  const other = run('other_init');
  t.equal(
    self.profile.getActionCost('deterministic_state_init_base'),
    500_000_000_000n,
    'send_sir is the same',
  );
  t.equal(other.aborted, null);
});

t.test('errors: a malformed hash, a deposit beyond the balance, a wrong index, a repeated key', async (t) => {
  t.same(aborted(run('bad_hash')), { HostError: 'ContractCodeHashMalformed' });
  t.same(aborted(run('too_much')), { HostError: 'BalanceExceeded' });
  t.same(aborted(run('bad_index')), {
    HostError: { InvalidActionIndex: { receipt_index: 0, action_index: 5 } },
  });
  t.same(aborted(run('not_state_init')), {
    HostError: { InvalidActionIndex: { receipt_index: 0, action_index: 0 } },
  });
  t.same(aborted(run('duplicate')), { HostError: 'DataEntryAlreadyExists' });
  // The entry was paid for before the index was found wrong.
  t.equal(run('bad_index').profile.getActionCost('deterministic_state_init_byte'), 576_000_000n);
  const view = { view_config: { max_gas_burnt: 300_000_000_000_000n } };
  // A view cannot make a promise at all (promise_batch_create is refused first).
  t.same(aborted(run('refund_to', view)), {
    HostError: { ProhibitedInView: { method_name: 'refund_to_account_id' } },
  });
});

t.test('current_contract_code: what the account runs; refunds go to the predecessor', async (t) => {
  const value = (o: ReturnType<typeof run>) => (o.return_data.kind === 'Value' ? o.return_data.data : null);
  t.equal(u64le(value(run('code'))!), 0n, 'no contract known');
  const h = new Uint8Array(32).fill(7);
  t.equal(u64le(value(run('code', { account_contract: { kind: 'Local', hash: h } }))!), 1n);
  t.same(value(run('code_register', { account_contract: { kind: 'Local', hash: h } })), h);
  t.equal(u64le(value(run('code', { account_contract: { kind: 'Global', hash: h } }))!), 2n);
  t.same(value(run('code_register', { account_contract: { kind: 'Global', hash: h } })), h);
  const byAccount = { account_contract: { kind: 'GlobalByAccount' as const, accountId: 'global.near' } };
  t.equal(u64le(value(run('code', byAccount))!), 3n);
  t.equal(Buffer.from(value(run('code_register', byAccount))!).toString(), 'global.near');
  t.equal(
    u64le(value(run('code', { view_config: { max_gas_burnt: 300_000_000_000_000n } }))!),
    0n,
    'allowed in views',
  );
  t.equal(Buffer.from(value(run('refund_to'))!).toString(), 'bob.near');
});

t.test('promise_set_refund_to: the refunds of a receipt go elsewhere; not on a joint promise', async (t) => {
  const e = new MockExternal();
  const o = run('set_refund_to', {}, e);
  t.equal(o.aborted, null);
  t.same(e.receipts[0]!.actions, [{ RefundTo: 'global.near' }]);
  // base and the account id's read and decoding; no action fee.
  const create = run('create').profile;
  const p = o.profile;
  const more = (name: Parameters<typeof p.getExtCost>[0]) => p.getExtCost(name) - create.getExtCost(name);
  t.same(
    [
      more('base'),
      more('read_memory_base'),
      more('read_memory_byte'),
      more('utf8_decoding_base'),
      more('utf8_decoding_byte'),
    ],
    [
      ext('base'),
      ext('read_memory_base'),
      11n * ext('read_memory_byte'),
      ext('utf8_decoding_base'),
      11n * ext('utf8_decoding_byte'),
    ],
  );
  t.equal(p.actionGas(), create.actionGas(), 'no action fee');
  t.same(aborted(run('set_refund_to_joint')), { HostError: 'CannotSetRefundToOnJointPromise' });
  t.same(aborted(run('set_refund_to_bad')), { HostError: 'InvalidAccountId' });
  t.equal(
    Buffer.from(
      (() => {
        const r = run('refund_to', { refund_to_account_id: 'carol.near' });
        return r.return_data.kind === 'Value' ? r.return_data.data : new Uint8Array(0);
      })(),
    ).toString(),
    'carol.near',
    'a receipt with a refund_to reports it',
  );
});
