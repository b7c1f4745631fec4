import { ContractCache, runFunction } from '@nearlite/vm';
import t from 'tap';
import { call, config, fees, freshHash, MockExternal, makeContext, rawConfig, wat } from './helpers.js';

const ext = rawConfig.wasm_config.ext_costs as Record<string, number>;

t.test('gas for a tiny contract matches the config, computed by hand', async (t) => {
  const code = await wat(`(module
    (import "env" "block_index" (func $block_index (result i64)))
    (memory 1)
    (func (export "f") (drop (call $block_index))))`);
  const out = call({ code, codeHash: freshHash(), method: 'f' });
  t.equal(out.aborted, null);
  // Loading fee + the function entry (ceil(64-byte frame / 8) = 8 ops) + two metered ops (call,
  // drop; `end` is free) + the host function's `base`.
  const expected =
    BigInt(ext.contract_loading_base!) +
    BigInt(ext.contract_loading_bytes!) * BigInt(code.length) +
    10n * config.regular_op_cost +
    BigInt(ext.base!);
  t.equal(out.burnt_gas, expected);
  t.equal(out.used_gas, expected);
});

const loop = await wat(`(module
  (import "env" "value_return" (func $ret (param i64 i64)))
  (memory 1)
  (func $fib (param $n i32) (result i32)
    (if (result i32) (i32.lt_u (local.get $n) (i32.const 2))
      (then (local.get $n))
      (else (i32.add (call $fib (i32.sub (local.get $n) (i32.const 1)))
                     (call $fib (i32.sub (local.get $n) (i32.const 2)))))))
  (func (export "fib") (i32.store (i32.const 0) (call $fib (i32.const 15))) (call $ret (i64.const 4) (i64.const 0)))
  (func (export "spin") (loop $l (br $l)))
  (func $down (call $down))
  (func (export "recurse") (call $down)))`);

t.test('the same call burns the same gas, compiled or cached', async (t) => {
  const hash = freshHash();
  const a = call({ code: loop, codeHash: hash, method: 'fib' });
  const b = call({ code: loop, codeHash: hash, method: 'fib' });
  const c = runFunction({
    code: loop,
    codeHash: hash,
    methodName: 'fib',
    context: makeContext(),
    config,
    fees,
    external: new MockExternal(),
    cache: new ContractCache(),
  });
  t.equal(a.aborted, null);
  t.same(a.return_data, { kind: 'Value', data: new Uint8Array([610 & 0xff, 610 >> 8, 0, 0]) });
  t.equal(a.burnt_gas, b.burnt_gas);
  t.equal(a.burnt_gas, c.burnt_gas);
  t.ok(a.burnt_gas > 1000n * config.regular_op_cost, 'fib(15) runs thousands of metered ops');
});

t.test('an infinite loop stops with GasExceeded at the prepaid gas', async (t) => {
  const prepaid = 5_000_000_000_000n;
  const out = call({ code: loop, codeHash: freshHash(), method: 'spin', context: { prepaid_gas: prepaid } });
  t.same(out.aborted, { HostError: 'GasExceeded' });
  t.equal(out.burnt_gas, prepaid);
  t.equal(out.used_gas, prepaid);
});

t.test('a view call stops with GasLimitExceeded at its max_gas_burnt', async (t) => {
  const max = 3_000_000_000_000n;
  const out = call({
    code: loop,
    codeHash: freshHash(),
    method: 'spin',
    context: { view_config: { max_gas_burnt: max } },
  });
  t.same(out.aborted, { HostError: 'GasLimitExceeded' });
  t.equal(out.burnt_gas, max);
});

t.test('unbounded recursion ends deterministically where the stack budget runs out', async (t) => {
  const hash = freshHash();
  const a = call({ code: loop, codeHash: hash, method: 'recurse' });
  const b = call({ code: loop, codeHash: hash, method: 'recurse' });
  t.same(a.aborted, { HostError: 'MemoryAccessViolation' });
  t.equal(a.burnt_gas, b.burnt_gas);
});

t.test('prepaid gas below the loading fee', async (t) => {
  const out = call({ code: loop, codeHash: freshHash(), method: 'fib', context: { prepaid_gas: 1000n } });
  t.same(out.aborted, { HostError: 'GasExceeded' });
  t.equal(out.burnt_gas, 1000n);
});
