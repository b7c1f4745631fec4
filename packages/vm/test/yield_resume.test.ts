// The NEP-519 host functions against a recording External: what they hand the runtime, the
// YieldWithId variants (protocol 85) and the argument errors nearcore's logic.rs raises.
import t from 'tap';
import { call, contract, freshHash, MockExternal, returned, text } from './helpers.js';

// 0 "cb", 10 "args", 100 u128 attached amount 25, 200 yield id (32 × 0x11), 300 payload "pay".
const code = await contract(`
  (data (i32.const 0) "cb")
  (data (i32.const 10) "args")
  (data (i32.const 100) "\\19")
  (data (i32.const 200) "${'\\11'.repeat(32)}")
  (data (i32.const 300) "pay")
  (func $create_with_id (result i64)
    (call $promise_yield_create_with_id (i64.const 2) (i64.const 0) (i64.const 4) (i64.const 10)
      (i64.const 100) (i64.const 5000000000000) (i64.const 3) (i64.const 32) (i64.const 200)))
  (func (export "with_id_twice")
    (i64.store (i32.const 400) (call $create_with_id))
    (i64.store (i32.const 408) (call $create_with_id))
    (call $value_return (i64.const 16) (i64.const 400)))
  (func (export "resume_by_id")
    (drop (call $create_with_id))
    (i32.store (i32.const 400)
      (call $promise_yield_resume_with_yield_id (i64.const 32) (i64.const 200) (i64.const 3) (i64.const 300)))
    (call $value_return (i64.const 4) (i64.const 400)))
  (func (export "resume_unknown_id")
    (i32.store (i32.const 400)
      (call $promise_yield_resume_with_yield_id (i64.const 32) (i64.const 200) (i64.const 3) (i64.const 300)))
    (call $value_return (i64.const 4) (i64.const 400)))
  (func (export "short_yield_id")
    (drop (call $promise_yield_create_with_id (i64.const 2) (i64.const 0) (i64.const 4) (i64.const 10)
      (i64.const 100) (i64.const 0) (i64.const 0) (i64.const 31) (i64.const 200))))
  (func (export "short_resume_id")
    (drop (call $promise_yield_resume_with_yield_id (i64.const 16) (i64.const 200) (i64.const 3) (i64.const 300))))
  (func (export "empty_method")
    (drop (call $promise_yield_create_with_id (i64.const 0) (i64.const 0) (i64.const 4) (i64.const 10)
      (i64.const 100) (i64.const 0) (i64.const 0) (i64.const 32) (i64.const 200))))
  (func (export "yield_in_view")
    (drop (call $promise_yield_create (i64.const 2) (i64.const 0) (i64.const 0) (i64.const 0)
      (i64.const 0) (i64.const 0) (i64.const 0))))
  (func (export "resume_in_view")
    (drop (call $promise_yield_resume (i64.const 32) (i64.const 200) (i64.const 0) (i64.const 0))))
  (func (export "with_id_in_view") (drop (call $create_with_id)))
`);
const hash = freshHash();
const view = { view_config: { max_gas_burnt: 300_000_000_000_000n } };
const u64 = (b: Uint8Array, at: number) => new DataView(b.buffer, b.byteOffset).getBigUint64(at, true);

t.test('promise_yield_create_with_id: a pending id answers u64::MAX and creates nothing', async (t) => {
  const ext = new MockExternal();
  const out = call({ code, codeHash: hash, method: 'with_id_twice', external: ext });
  const r = returned(out);
  t.equal(u64(r, 0), 0n, 'the first is promise 0');
  t.equal(u64(r, 8), (1n << 64n) - 1n, 'the second is refused');
  t.equal(ext.receipts.length, 1);
  t.equal(ext.receipts[0]!.yield, true);
  t.same(ext.receipts[0]!.actions, [
    {
      FunctionCall: {
        method_name: 'cb',
        args: 'args',
        deposit: 25n,
        gas: 5_000_000_000_000n,
        gas_weight: 3n,
      },
    },
  ]);
  t.equal(out.balance, 1_000_000n + 5n - 25n, 'the attached amount leaves the balance');
});

t.test('promise_yield_resume_with_yield_id resumes the yield created under that id', async (t) => {
  const ext = new MockExternal();
  t.same([...returned(call({ code, codeHash: hash, method: 'resume_by_id', external: ext }))], [1, 0, 0, 0]);
  t.equal(ext.resumed.length, 1);
  t.equal(text(ext.resumed[0]!.data), 'pay');
  const none = new MockExternal();
  t.same(
    [...returned(call({ code, codeHash: hash, method: 'resume_unknown_id', external: none }))],
    [0, 0, 0, 0],
  );
  t.equal(none.resumed.length, 0);
});

t.test('argument errors and view calls', async (t) => {
  t.same(call({ code, codeHash: hash, method: 'short_yield_id' }).aborted, { HostError: 'YieldIdMalformed' });
  t.same(call({ code, codeHash: hash, method: 'short_resume_id' }).aborted, {
    HostError: 'YieldIdMalformed',
  });
  t.same(call({ code, codeHash: hash, method: 'empty_method' }).aborted, { HostError: 'EmptyMethodName' });
  t.same(call({ code, codeHash: hash, method: 'yield_in_view', context: view }).aborted, {
    HostError: { ProhibitedInView: { method_name: 'promise_yield_create' } },
  });
  // nearcore's promise_yield_resume (wasmtime_runner/logic.rs) names itself "promise_submit_data".
  t.same(call({ code, codeHash: hash, method: 'resume_in_view', context: view }).aborted, {
    HostError: { ProhibitedInView: { method_name: 'promise_submit_data' } },
  });
  t.same(call({ code, codeHash: hash, method: 'with_id_in_view', context: view }).aborted, {
    HostError: { ProhibitedInView: { method_name: 'promise_yield_create_with_id' } },
  });
});
