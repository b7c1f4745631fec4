// A thread keeps a finished instance and runs the next call of the same module on it. Every call must
// still see what a fresh instance would: its globals at their initial values, its data segments as
// written, its start function run, its stack and gas budgets whole. A module that can change its
// tables or drop segments is never reused.
import { keptInstances } from '@nearlite/vm';
import t from 'tap';
import { call, contract, freshHash, returned, text, u64le } from './helpers.js';

const ret64 = (expr: string) =>
  `(i64.store (i32.const 0) ${expr}) (call $value_return (i64.const 8) (i64.const 0))`;

t.test('globals, data and start are as instantiation left them, call after call', async (t) => {
  const code = await contract(`
    (global $n (mut i64) (i64.const 5))
    (global $f (mut f64) (f64.const 1.5))
    (global $started (mut i32) (i32.const 0))
    (data (i32.const 100) "abc")
    (func $start (global.set $started (i32.add (global.get $started) (i32.const 1))))
    (start $start)
    (func (export "bump") (global.set $n (i64.add (global.get $n) (i64.const 1))) ${ret64('(global.get $n)')})
    (func (export "bump_f")
      (global.set $f (f64.add (global.get $f) (f64.const 1)))
      ${ret64('(i64.trunc_f64_u (f64.mul (global.get $f) (f64.const 10)))')})
    (func (export "started") ${ret64('(i64.extend_i32_u (global.get $started))')})
    (func (export "overwrite")
      (call $value_return (i64.const 3) (i64.const 100))
      (i32.store8 (i32.const 100) (i32.const 88))
      (i64.store (i32.const 4000) (i64.const -1)))
    (func (export "read_far") ${ret64('(i64.load (i32.const 4000))')})
  `);
  const codeHash = freshHash();
  const run = (method: string) => call({ code, codeHash, method });
  for (let i = 0; i < 3; i++) {
    t.equal(u64le(returned(run('bump'))), 6n, `bump ${i}: the global starts at 5 every call`);
    t.equal(u64le(returned(run('bump_f'))), 25n, `bump_f ${i}: the f64 global starts at 1.5`);
    t.equal(u64le(returned(run('started'))), 1n, `started ${i}: the start function ran once for this call`);
    t.equal(text(returned(run('overwrite'))), 'abc', `overwrite ${i}: the data segment is as written`);
    t.equal(u64le(returned(run('read_far'))), 0n, `read_far ${i}: memory the last call wrote is zero`);
  }
  t.ok(keptInstances() >= 1, 'the module was kept between calls');
});

t.test('memory below the data is as instantiation left it after guest, host and bulk writes', async (t) => {
  // Data high in the first page, as a Rust contract's sits above its stack: a call restores only
  // what lies above its lowest write, so every kind of write must count as one.
  const code = await contract(`
    (data (i32.const 60000) "xyz")
    (func (export "scribble")
      (i64.store (i32.const 16) (i64.const -1))
      (i32.store8 (i32.const 60001) (i32.const 81)))
    (func (export "host_write") (call $input (i64.const 0)) (call $read_register (i64.const 0) (i64.const 48)))
    (func (export "fill") (memory.fill (i32.const 200) (i32.const 7) (i32.const 100)))
    (func (export "high_only") (i64.store (i32.const 61000) (i64.const 5)))
    (func (export "look")
      (i64.store (i32.const 1000) (i64.or (i64.or (i64.load (i32.const 16)) (i64.load (i32.const 48)))
        (i64.or (i64.load (i32.const 200)) (i64.load (i32.const 61000)))))
      (i32.store (i32.const 1008) (i32.load (i32.const 60000)))
      (call $value_return (i64.const 11) (i64.const 1000)))
  `);
  const codeHash = freshHash();
  const run = (method: string) =>
    call({ code, codeHash, method, context: { input: new TextEncoder().encode('hostdata') } });
  const clean = [0, 0, 0, 0, 0, 0, 0, 0, 0x78, 0x79, 0x7a];
  for (const method of ['scribble', 'host_write', 'fill', 'high_only', 'scribble']) {
    t.equal(run(method).aborted, null, `${method} runs`);
    t.same([...returned(run('look'))], clean, `after ${method}: zeros below the data, the data as written`);
  }
  t.ok(keptInstances() >= 1, 'the module was kept between calls');
});

t.test('a trapped call leaves nothing behind: gas and stack budgets are whole again', async (t) => {
  const code = await contract(`
    (func $deep (param i64) (result i64) (call $deep (i64.add (local.get 0) (i64.const 1))))
    (func (export "recurse") (drop (call $deep (i64.const 0))))
    (func (export "spin") (loop $l (br $l)))
    (func (export "work")
      (local $i i32)
      (loop $l
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_if $l (i32.lt_u (local.get $i) (i32.const 1000))))
      (call $deep2 (i32.const 200)))
    (func $deep2 (param i32)
      (if (i32.gt_u (local.get 0) (i32.const 0)) (then (call $deep2 (i32.sub (local.get 0) (i32.const 1))))))
  `);
  const codeHash = freshHash();
  const run = (method: string) => call({ code, codeHash, method });
  const first = run('work');
  t.equal(first.aborted, null);
  t.same(run('recurse').aborted, { HostError: 'MemoryAccessViolation' });
  const afterOverflow = run('work');
  t.equal(afterOverflow.aborted, null, 'the stack budget is whole after an overflow');
  t.equal(afterOverflow.burnt_gas, first.burnt_gas, 'and the call burns exactly what it burnt before');
  t.same(run('spin').aborted, { HostError: 'GasExceeded' });
  const afterSpin = run('work');
  t.equal(afterSpin.aborted, null, 'the gas budget is whole after running out');
  t.equal(afterSpin.burnt_gas, first.burnt_gas);
});

t.test('a module that changes its table gets a fresh instance every call', async (t) => {
  const code = await contract(`
    (type $r (func (result i64)))
    (table 1 funcref)
    (elem (i32.const 0) $a)
    (func $a (result i64) (i64.const 1))
    (func $b (result i64) (i64.const 2))
    (elem declare func $b)
    (func (export "swap")
      ${ret64('(call_indirect (type $r) (i32.const 0))')}
      (table.set (i32.const 0) (ref.func $b)))
  `);
  const codeHash = freshHash();
  const before = keptInstances();
  for (let i = 0; i < 3; i++) {
    t.equal(
      u64le(returned(call({ code, codeHash, method: 'swap' }))),
      1n,
      `call ${i}: the table as declared`,
    );
  }
  t.equal(keptInstances(), before, 'its instances are not kept');
});
