// Outcomes whose expected values come from nearcore's runner at protocol 86 (Wasmtime): which trap a
// failed table or segment access is, when the loading fee is charged, and the 1 yoctoNEAR a contract
// without balance may attach to a call (`one_yocto_on_promise`).
import t from 'tap';
import { call, config, contract, freshHash, wat } from './helpers.js';

t.test('a contract that fails to compile answers its error before the loading fee', async (t) => {
  // nearcore's gas_counter.rs: without fix_contract_loading_cost the fee is charged in
  // after_loading_executable, which runs only for a module that compiled; wasmtime_runner/mod.rs
  // answers a compilation error as OutcomeAbort first (nearcore's test_gas_exceed_loading covers the
  // module that compiles).
  t.equal(config.fix_contract_loading_cost, false);
  const code = await wat('(module (import "foo" "bar" (func)) (func (export "f")))');
  const out = call({ code, codeHash: freshHash(), method: 'f', context: { prepaid_gas: 1n } });
  t.same(out.aborted, { CompilationError: { PrepareError: 'Instantiate' } });
  t.equal(out.burnt_gas, 0n);
  const ok = await wat('(module (func (export "f")))');
  const starved = call({ code: ok, codeHash: freshHash(), method: 'f', context: { prepaid_gas: 1n } });
  t.same(starved.aborted, { HostError: 'GasExceeded' }, 'a module that compiles pays the fee first');
});

t.test('table and segment accesses out of bounds are MemoryOutOfBounds', async (t) => {
  // nearcore's wasmtime_runner/mod.rs maps Wasmtime's TableOutOfBounds to WasmTrap::MemoryOutOfBounds;
  // a data segment that does not fit is Wasmtime's MemoryOutOfBounds at instantiation.
  const oobCall = await wat(
    '(module (type $t (func)) (table 2 funcref) (func (export "f") (call_indirect (type $t) (i32.const 5))))',
  );
  t.same(call({ code: oobCall, codeHash: freshHash(), method: 'f' }).aborted, {
    WasmTrap: 'MemoryOutOfBounds',
  });
  const oobElem = await wat(
    '(module (table 2 funcref) (elem (i32.const 5) $g) (func $g) (func (export "f")))',
  );
  t.same(call({ code: oobElem, codeHash: freshHash(), method: 'f' }).aborted, {
    WasmTrap: 'MemoryOutOfBounds',
  });
  const sig = await wat(
    `(module (type $t (func)) (table 1 funcref) (elem (i32.const 0) $g) (func $g (param i32))
       (func (export "f") (call_indirect (type $t) (i32.const 0))))`,
  );
  t.same(call({ code: sig, codeHash: freshHash(), method: 'f' }).aborted, {
    WasmTrap: 'IncorrectCallIndirectSignature',
  });
  // Wasmtime's IndirectCallToNull, which nearcore keeps as WasmTrap::IndirectCallToNull.
  const nullEntry = await wat(
    `(module (type $t (func)) (table 2 funcref) (elem (i32.const 0) $g) (func $g)
       (func (export "f") (call_indirect (type $t) (i32.const 1))))`,
  );
  t.same(call({ code: nullEntry, codeHash: freshHash(), method: 'f' }).aborted, {
    WasmTrap: 'IndirectCallToNull',
  });
  const filled = await wat(
    `(module (type $t (func)) (table 2 funcref) (elem (i32.const 0) $g $g) (func $g)
       (func (export "f") (call_indirect (type $t) (i32.const 1))))`,
  );
  const ok = call({ code: filled, codeHash: freshHash(), method: 'f' });
  t.equal(ok.aborted, null, 'a call through a filled entry runs');
  // Twice on one kept instance: the budget the null call left is restored.
  const code = nullEntry;
  const hash = freshHash();
  call({ code, codeHash: hash, method: 'f' });
  t.same(call({ code, codeHash: hash, method: 'f' }).aborted, { WasmTrap: 'IndirectCallToNull' });
});

// u128 amounts 1 and 2 at 0 and 16, the method name at 64, the receiver at 80.
const PROMISES = `
  (data (i32.const 0) "\\01")
  (data (i32.const 16) "\\02")
  (data (i32.const 64) "m")
  (data (i32.const 80) "rick.test")
  (func $attach (param $amount i64)
    (call $promise_batch_action_function_call
      (call $promise_batch_create (i64.const 9) (i64.const 80))
      (i64.const 1) (i64.const 64) (i64.const 0) (i64.const 0) (local.get $amount) (i64.const 0)))
  (func (export "one") (call $attach (i64.const 0)))
  (func (export "two") (call $attach (i64.const 16)))
  (func (export "one_twice") (call $attach (i64.const 0)) (call $attach (i64.const 0)))
  (func (export "transfer_one")
    (call $promise_batch_action_transfer
      (call $promise_batch_create (i64.const 9) (i64.const 80)) (i64.const 0)))`;

t.test('a contract without balance may attach exactly 1 yoctoNEAR to a call', async (t) => {
  // nearcore's logic/tests/promises.rs test_one_yocto_on_promise_enabled and
  // _deducts_with_nonzero_balance; wasmtime_runner/logic.rs promise_batch_action_function_call_weight.
  t.equal(config.one_yocto_on_promise, true, 'on at protocol 86 (85.yaml)');
  const code = await contract(PROMISES);
  const broke = { account_balance: 0n, attached_deposit: 0n };
  const one = call({ code, codeHash: freshHash(), method: 'one', context: broke });
  t.equal(one.aborted, null);
  t.equal(one.subsidized_amount, 1n, 'the skipped deduction is counted');
  t.equal(one.balance, 0n);
  const two = call({ code, codeHash: freshHash(), method: 'two', context: broke });
  t.same(two.aborted, { HostError: 'BalanceExceeded' }, '2 yoctoNEAR still need a balance');
  const transfer = call({ code, codeHash: freshHash(), method: 'transfer_one', context: broke });
  t.same(transfer.aborted, { HostError: 'BalanceExceeded' }, 'a transfer is not exempt');
  const twice = call({
    code,
    codeHash: freshHash(),
    method: 'one_twice',
    context: { account_balance: 1n, attached_deposit: 0n },
  });
  t.equal(twice.aborted, null);
  t.equal(twice.balance, 0n, 'the first yoctoNEAR is paid from the balance');
  t.equal(twice.subsidized_amount, 1n, 'the second, with the balance at zero, is not');
  const funded = call({ code, codeHash: freshHash(), method: 'one' });
  t.equal(funded.subsidized_amount, 0n, 'a contract with a balance pays');
});

// Raw module bytes, for modules a text compiler would refuse to write.
const leb = (n: number): number[] => {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n = Math.floor(n / 128);
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
};
const section = (id: number, bytes: number[]): number[] => [id, ...leb(bytes.length), ...bytes];
const name = (s: string): number[] => [...leb(s.length), ...Buffer.from(s)];
const module = (...sections: number[][]): Uint8Array =>
  Uint8Array.from([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0, ...sections.flat()]);
/** One `() -> ()` function exported as main, with `body` (its instructions, `end` included). */
const withMain = (body: number[], ...more: number[][]): Uint8Array =>
  module(
    section(1, [1, 0x60, 0, 0]),
    section(3, [1, 0]),
    ...more.filter((s) => s[0]! < 10),
    section(7, [1, ...name('main'), 0, 0]),
    section(10, [1, ...leb(body.length + 1), 0, ...body]),
    ...more.filter((s) => s[0]! > 10),
  );

t.test('a module invalid as written is Deserialization, though its rewrite would be valid', async (t) => {
  // nearcore's prepare_v3 runs wasmparser's validator over every section of the module as written
  // before instrumenting it: a memory used but never defined, or an invalid import anywhere, is
  // PrepareError::Deserialization with nothing burnt (compile_errors.rs at protocol 86).
  const deserialization = { CompilationError: { PrepareError: 'Deserialization' } };
  const cases: [string, Uint8Array][] = [
    ['a load with no memory', withMain([0x41, 0, 0x28, 2, 0, 0x1a, 0x0b])],
    ['memory.size with no memory', withMain([0x3f, 0, 0x1a, 0x0b])],
    ['a data segment with no memory', withMain([0x0b], section(11, [1, 0, 0x41, 0, 0x0b, 1, 0x61]))],
    [
      'an export of a memory that does not exist',
      module(
        section(1, [1, 0x60, 0, 0]),
        section(3, [1, 0]),
        section(7, [2, ...name('main'), 0, 0, ...name('m'), 2, 0]),
        section(10, [1, 2, 0, 0x0b]),
      ),
    ],
    [
      // compile_errors.rs test_initializer_wrong_signature_contract
      'a start function that takes a parameter',
      module(
        section(1, [2, 0x60, 1, 0x7f, 0, 0x60, 0, 0]),
        section(3, [2, 0, 1]),
        section(7, [1, ...name('main'), 0, 1]),
        section(8, [0]),
        section(10, [2, 2, 0, 0x0b, 2, 0, 0x0b]),
      ),
    ],
    [
      'an import of another module before an import of a type that does not exist',
      module(
        section(1, [1, 0x60, 0, 0]),
        section(2, [2, ...name('foo'), ...name('x'), 0, 0, ...name('env'), ...name('y'), 0, 99]),
      ),
    ],
  ];
  for (const [what, code] of cases) {
    const out = call({ code, codeHash: freshHash(), method: 'main' });
    t.same(out.aborted, deserialization, what);
    t.equal(out.burnt_gas, 0n, `${what}: nothing burnt`);
  }
  const fine = call({ code: withMain([0x0b]), codeHash: freshHash(), method: 'main' });
  t.equal(fine.aborted, null, 'the same module with nothing wrong runs');
});

t.test('table.init past its element segment is MemoryOutOfBounds', async (t) => {
  // Wasmtime's TableOutOfBounds, which nearcore's wasmtime_runner/mod.rs maps to MemoryOutOfBounds.
  const code = await wat(`(module (memory 1) (table $tb 4 funcref) (elem $p func $a) (func $a)
    (func (export "past") (table.init $tb $p (i32.const 0) (i32.const 8) (i32.const 1)))
    (func (export "dropped") (elem.drop $p) (table.init $tb $p (i32.const 0) (i32.const 0) (i32.const 1))))`);
  for (const method of ['past', 'dropped']) {
    t.same(call({ code, codeHash: freshHash(), method }).aborted, { WasmTrap: 'MemoryOutOfBounds' }, method);
  }
});
