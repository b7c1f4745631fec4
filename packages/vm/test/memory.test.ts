// Guest memory as nearcore defines it — 1024 pages at the start of every call, growable to 2048 —
// while the runner reuses one pooled memory: sizes, bounds, growth and a clean slate every call.
import t from 'tap';
import { call, config, contract, freshHash, returned, u64le } from './helpers.js';

const INITIAL = config.limit_config.initial_memory_pages;
const MAX = config.limit_config.max_memory_pages;
const PAGE = 65536;
const ret64 = (expr: string) =>
  `(i64.store (i32.const 0) ${expr}) (call $value_return (i64.const 8) (i64.const 0))`;

const code = await contract(`
  (data (i32.const 64) "seed")
  (func (export "size") ${ret64('(i64.extend_i32_u (memory.size))')})
  (func (export "grow_one") ${ret64('(i64.extend_i32_s (memory.grow (i32.const 1)))')})
  (func (export "grow_too_far") ${ret64(`(i64.extend_i32_s (memory.grow (i32.const ${MAX - INITIAL + 1})))`)})
  (func (export "grow_to_max")
    (drop (memory.grow (i32.const ${MAX - INITIAL})))
    ${ret64('(i64.extend_i32_u (memory.size))')})
  (func (export "load_last") ${ret64(`(i64.load8_u (i32.const ${INITIAL * PAGE - 1}))`)})
  (func (export "load_past") ${ret64(`(i64.load8_u (i32.const ${INITIAL * PAGE}))`)})
  (func (export "load_straddle") ${ret64(`(i64.load offset=4 (i32.const ${INITIAL * PAGE - 8}))`)})
  (func (export "store_past") (i32.store8 (i32.const ${INITIAL * PAGE}) (i32.const 1)))
  (func (export "store_grown")
    (drop (memory.grow (i32.const 2)))
    (i64.store (i32.const ${INITIAL * PAGE + PAGE + 8}) (i64.const 77))
    ${ret64(`(i64.load (i32.const ${INITIAL * PAGE + PAGE + 8}))`)})
  (func (export "grow_and_read")
    (drop (memory.grow (i32.const 2)))
    ${ret64(`(i64.add (i64.load (i32.const ${INITIAL * PAGE + PAGE + 8})) (i64.load (i32.const ${INITIAL * PAGE + 16})))`)})
  (func (export "dirty")
    (i64.store (i32.const 1000) (i64.const -1))
    (i64.store (i32.const ${INITIAL * PAGE - 8}) (i64.const -1))
    (memory.fill (i32.const 5000) (i32.const 255) (i32.const 300))
    (memory.copy (i32.const 9000) (i32.const 64) (i32.const 4))
    (call $input (i64.const 0))
    (call $read_register (i64.const 0) (i64.const 12000))
    (drop (memory.grow (i32.const 1)))
    (i32.store (i32.const ${INITIAL * PAGE + 16}) (i32.const -1)))
  (func (export "dirty_input") (call $input (i64.const 0)) (call $read_register (i64.const 0) (i64.const 12000)))
  (func (export "sum")
    (local $i i32) (local $s i64)
    (loop $l
      (local.set $s (i64.add (local.get $s) (i64.load8_u (local.get $i))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $i) (i32.const 16384))))
    (local.set $s (i64.add (local.get $s) (i64.load (i32.const ${INITIAL * PAGE - 8}))))
    ${ret64('(local.get $s)')})
  (func (export "seed") ${ret64('(i64.load32_u (i32.const 64))')})
  (func (export "fill_past") (memory.fill (i32.const ${INITIAL * PAGE - 4}) (i32.const 1) (i32.const 5)))
  (func (export "copy_from_past") (memory.copy (i32.const 0) (i32.const ${INITIAL * PAGE - 2}) (i32.const 4)))
`);
const codeHash = freshHash();
const run = (method: string, input = new Uint8Array(0)) =>
  call({ code, codeHash, method, context: { input } });
const value = (method: string): bigint => u64le(returned(run(method)));

t.test('every call starts with the initial pages and can grow to the maximum', async (t) => {
  t.equal(value('size'), BigInt(INITIAL));
  t.equal(value('grow_one'), BigInt(INITIAL), 'grow returns the old size');
  t.equal(value('size'), BigInt(INITIAL), 'the growth did not outlive its call');
  t.equal(value('grow_too_far'), 0xffffffffffffffffn, 'past the maximum grow returns -1');
  t.equal(value('grow_to_max'), BigInt(MAX));
  t.equal(value('store_grown'), 77n, 'grown pages are usable');
});

t.test('accesses past the current size trap as MemoryOutOfBounds', async (t) => {
  t.equal(value('load_last'), 0n);
  for (const m of ['load_past', 'load_straddle', 'store_past', 'fill_past', 'copy_from_past'])
    t.same(run(m).aborted, { WasmTrap: 'MemoryOutOfBounds' }, m);
  t.equal(value('seed'), u64le(new Uint8Array([0x73, 0x65, 0x65, 0x64, 0, 0, 0, 0])), 'data is in place');
});

t.test('what one call writes, the next call never sees', async (t) => {
  t.equal(value('sum'), 0x73n + 0x65n + 0x65n + 0x64n, 'only the data segment at first');
  t.same(run('dirty', new Uint8Array(2000).fill(7)).aborted, null);
  t.equal(value('sum'), 0x73n + 0x65n + 0x65n + 0x64n, 'stores, fill, copy and host writes were zeroed');
  t.same(run('dirty_input', new Uint8Array(3000).fill(9)).aborted, null);
  t.equal(value('sum'), 0x73n + 0x65n + 0x65n + 0x64n);
  t.equal(value('store_grown'), 77n);
  t.equal(value('grow_and_read'), 0n, 'grown pages start zeroed');
  t.same(run('dirty', new Uint8Array(1)).aborted, null);
  t.equal(value('grow_and_read'), 0n);
  t.equal(value('size'), BigInt(INITIAL));
});

t.test('a trap part way through still leaves a clean memory', async (t) => {
  const trapping = await contract(`
    (func (export "write_then_trap")
      (i64.store (i32.const 2048) (i64.const -1))
      (drop (memory.grow (i32.const 1)))
      (i64.store (i32.const ${INITIAL * PAGE + 8}) (i64.const -1))
      unreachable)
    (func (export "read") ${ret64(`(i64.add (i64.load (i32.const 2048)) (i64.load (i32.const ${INITIAL * PAGE - 8})))`)})`);
  const h = freshHash();
  t.same(call({ code: trapping, codeHash: h, method: 'write_then_trap' }).aborted, {
    WasmTrap: 'Unreachable',
  });
  t.equal(u64le(returned(call({ code: trapping, codeHash: h, method: 'read' }))), 0n);
  t.equal(value('sum'), 0x73n + 0x65n + 0x65n + 0x64n);
});

t.test('a data segment past the initial pages fails instantiation', async (t) => {
  const big = await contract(`(data (i32.const ${INITIAL * PAGE}) "x") (func (export "f"))`);
  const out = call({ code: big, codeHash: freshHash(), method: 'f' });
  // Wasmtime's MemoryOutOfBounds at instantiation, which nearcore's wasmtime_runner/mod.rs keeps.
  t.same(out.aborted, { WasmTrap: 'MemoryOutOfBounds' });
});
