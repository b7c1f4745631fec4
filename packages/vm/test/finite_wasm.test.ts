// Metering, stack limit, limits and NaNs as nearcore's prepare_v3 + instrument_v3 (finite-wasm) have
// them at protocol 86. Every expected gas number is a golden of nearcore's
// runtime/near-vm-runner/src/tests/runtime_errors.rs; the limit cases are the modules and limits of
// nearcore's runtime/near-vm-runner/src/prepare.rs tests, or the protocol-86 limits of
// core/parameters/res/runtime_configs (82.yaml, 84.yaml).
import { compileContract, functionCallErrorMessage, type VMConfig, type VMOutcome } from '@nearlite/vm';
import t from 'tap';
import { call, config, freshHash, returned, wat } from './helpers.js';

/**
 * nearcore's tests compile their text with the `wat` crate, which writes a name section for named
 * functions; wabt writes none. Loading is charged per byte, so the goldens need those bytes.
 */
function withFunctionNames(code: Uint8Array, names: string[]): Uint8Array {
  const enc = new TextEncoder();
  const sub: number[] = [names.length];
  for (const [i, n] of names.entries()) sub.push(i, n.length, ...enc.encode(n));
  const payload = [4, ...enc.encode('name'), 1, sub.length, ...sub];
  return Uint8Array.from([...code, 0, payload.length, ...payload]);
}

function run(code: Uint8Array, method = 'main', prepaid?: bigint): VMOutcome {
  return call({
    code,
    codeHash: freshHash(),
    method,
    context: prepaid === undefined ? {} : { prepaid_gas: prepaid },
  });
}

const GGAS = 1_000_000_000n;

t.test('function entry pays ceil(frame / 8) ops (runtime_errors.rs)', async (t) => {
  const simple = run(await wat('(module (func (export "main")))'));
  t.equal(simple.aborted, null);
  t.equal(simple.burnt_gas, 79_064_041n, 'test_simple_contract');
  t.equal(simple.used_gas, 79_064_041n);

  const trap = run(await wat('(module (func (export "main") (unreachable)))'));
  t.same(trap.aborted, { WasmTrap: 'Unreachable' });
  t.equal(trap.burnt_gas, 80_976_092n, 'test_trap_contract');

  // The stack budget runs out: nearcore's instrumentation calls finite_wasm_stack_exhausted.
  const overflow = run(withFunctionNames(await wat('(module (func $f (export "main") (call $f)))'), ['f']));
  t.same(overflow.aborted, { HostError: 'MemoryAccessViolation' });
  t.equal(overflow.burnt_gas, 30_418_898_602n, 'test_stack_overflow');

  // Locals widen the frame: more gas per call and fewer calls before the stack runs out.
  const locals = withFunctionNames(
    await wat(`(module
      (func $f1 (export "f1") (local i32) (call $f1))
      (func $f2 (export "f2") (local i32 i32 i32 i32) (call $f2)))`),
    ['f1', 'f2'],
  );
  const f1 = run(locals, 'f1');
  t.same(f1.aborted, { HostError: 'MemoryAccessViolation' });
  t.equal(f1.burnt_gas, 31_825_672_528n, 'test_stack_instrumentation_protocol_upgrade f1');
  const f2 = run(locals, 'f2');
  t.same(f2.aborted, { HostError: 'MemoryAccessViolation' });
  t.equal(f2.burnt_gas, 29_757_263_944n, 'test_stack_instrumentation_protocol_upgrade f2');
});

t.test('a charge ends at every instruction that may trap or call out (runtime_errors.rs)', async (t) => {
  // The `return` after the division is never charged: the division ends the charge and traps.
  const div = run(await wat('(module (func (export "main") i32.const 1 i32.const 0 i32.div_s return))'));
  t.same(div.aborted, { WasmTrap: 'IllegalArithmetic' });
  t.equal(div.burnt_gas, 88_068_079n, 'test_div_by_zero_contract');

  // Nothing after the host call is charged before the call panics.
  const panic = run(
    withFunctionNames(
      await wat('(module (import "env" "panic" (func $panic)) (func (export "main") (call $panic)))'),
      ['panic'],
    ),
  );
  t.same(panic.aborted, { HostError: { GuestPanic: { panic_msg: 'explicit guest panic' } } });
  t.equal(panic.burnt_gas, 381_690_938n, 'test_guest_panic');

  const ok = run(
    withFunctionNames(
      await wat(`(module (import "env" "prepaid_gas" (func $prepaid_gas (result i64)))
        (func (export "main") (drop (call $prepaid_gas))))`),
      ['prepaid_gas'],
    ),
  );
  t.equal(ok.aborted, null);
  t.equal(ok.burnt_gas, 401_031_709n, 'test_external_call_ok');

  // A load out of bounds traps before the `drop` after it is charged.
  const oob = run(
    await wat(
      '(module (memory 1) (func (export "main") i32.const 1 i64.load32_u offset=4294967295 align=1 drop))',
    ),
  );
  t.same(oob.aborted, { WasmTrap: 'MemoryOutOfBounds' });
  t.equal(oob.burnt_gas, 97_048_978n, 'test_address_overflow');
});

t.test(
  'bulk instructions pay linear_op_base_cost + linear_op_unit_cost × n (runtime_errors.rs)',
  async (t) => {
    const grow = async (n: number) =>
      run(
        await wat(`(module (memory 1 128) (func (export "main") (drop (memory.grow (i32.const ${n})))))`),
        'main',
        10n * GGAS,
      );
    const g1 = await grow(1);
    t.equal(g1.aborted, null);
    t.equal(g1.burnt_gas, 120_932_041n, 'test_memory_grow_1_page_gas');
    t.equal((await grow(10)).burnt_gas, 128_336_845n, 'test_memory_grow_10_pages_gas');

    const tableGrow = async (n: number) =>
      run(
        await wat(`(module (table 1 128 funcref)
        (func (export "main") (drop (table.grow (ref.null func) (i32.const ${n})))))`),
        'main',
        10n * GGAS,
      );
    const t1 = await tableGrow(1);
    t.equal(t1.aborted, null);
    t.equal(t1.burnt_gas, 126_111_977n, 'test_table_grow_1_element_gas');
    t.equal((await tableGrow(10)).burnt_gas, 133_516_781n, 'test_table_grow_10_elements_gas');

    // A failing memory.grow (past the maximum) is charged all the same, so the loop runs out of gas.
    const loop = run(
      await wat(
        '(module (memory 17 32) (func (export "main") (loop (memory.grow (i32.const 1)) drop br 0)))',
      ),
      'main',
      10n * GGAS,
    );
    t.same(loop.aborted, { HostError: 'GasExceeded' });
    t.equal(loop.burnt_gas, 10n * GGAS, 'test_memory_grow');
  },
);

t.test('each call reserves its operand stack besides its frame (instrument_v3)', async (t) => {
  // $f's charge is 132 bytes: its frame (64 + 4 for the parameter) and an operand stack of 64 bytes
  // (eight i64). main's is 80: its frame and 16 bytes (two i64 arguments). Of max_stack_height
  // 262,144, main leaves room for 1,985 frames of $f: f(1984) fits, f(1985) overflows.
  const code = (n: number) =>
    wat(`(module
      (import "env" "value_return" (func $value_return (param i64 i64)))
      (memory 1)
      (func $f (param $n i32) (result i32)
        ${'(i64.const 0) '.repeat(8)} ${'drop '.repeat(8)}
        (if (result i32) (i32.eqz (local.get $n)) (then (i32.const 0))
          (else (i32.add (i32.const 1) (call $f (i32.sub (local.get $n) (i32.const 1)))))))
      (func (export "main")
        (i32.store (i32.const 0) (call $f (i32.const ${n})))
        (call $value_return (i64.const 4) (i64.const 0))))`);
  const fits = run(await code(1984));
  t.equal(fits.aborted, null);
  t.same(returned(fits), Uint8Array.of(1984 & 0xff, 1984 >> 8, 0, 0));
  t.same(run(await code(1985)).aborted, { HostError: 'MemoryAccessViolation' });
});

t.test('float arithmetic answers the canonical NaN, as Cranelift canonicalizes it', async (t) => {
  // copysign(1, sqrt(-1)) is positive only if the NaN is: otherwise the division traps.
  const sign = run(
    await wat(`(module (func (export "main")
      (i32.div_u (i32.const 0) (f32.gt (f32.copysign (f32.const 1.0) (f32.sqrt (f32.const -1.0))) (f32.const 0)))
      drop))`),
  );
  t.equal(sign.aborted, null);
  t.equal(sign.burnt_gas, 110_433_335n, 'test_nan_sign');

  // Bits of results: canonical 0x7fc00000 / 0x7ff8000000000000 after arithmetic, untouched after
  // the sign operations Cranelift leaves alone (neg, abs, copysign).
  const bits = async (expr: string, width: 32 | 64): Promise<bigint> => {
    const store =
      width === 32
        ? `(i32.store (i32.const 0) (i32.reinterpret_f32 ${expr}))`
        : `(i64.store (i32.const 0) (i64.reinterpret_f64 ${expr}))`;
    const o = run(
      await wat(`(module (import "env" "value_return" (func $value_return (param i64 i64))) (memory 1)
        (func (export "main") ${store} (call $value_return (i64.const ${width / 8}) (i64.const 0))))`),
    );
    const d = returned(o);
    return width === 32
      ? BigInt(new DataView(d.buffer, d.byteOffset).getUint32(0, true))
      : new DataView(d.buffer, d.byteOffset).getBigUint64(0, true);
  };
  const nan32 = '(f32.reinterpret_i32 (i32.const 0xffc00001))';
  const nan64 = '(f64.reinterpret_i64 (i64.const 0xfff8000000000001))';
  t.equal(await bits('(f32.sqrt (f32.const -1))', 32), 0x7fc00000n);
  t.equal(await bits(`(f32.add ${nan32} (f32.const 1))`, 32), 0x7fc00000n);
  t.equal(await bits(`(f32.min ${nan32} (f32.const 1))`, 32), 0x7fc00000n);
  t.equal(await bits(`(f32.floor ${nan32})`, 32), 0x7fc00000n);
  t.equal(await bits(`(f32.demote_f64 ${nan64})`, 32), 0x7fc00000n);
  t.equal(await bits(`(f64.div (f64.const 0) (f64.const 0))`, 64), 0x7ff8000000000000n);
  t.equal(await bits(`(f64.mul ${nan64} (f64.const 1))`, 64), 0x7ff8000000000000n);
  t.equal(await bits(`(f64.promote_f32 ${nan32})`, 64), 0x7ff8000000000000n);
  t.equal(await bits(`(f32.neg ${nan32})`, 32), 0x7fc00001n, 'neg only flips the sign');
  t.equal(await bits(`(f64.abs ${nan64})`, 64), 0x7ff8000000000001n, 'abs only clears the sign');
});

const withLimits = (limits: Partial<VMConfig['limit_config']>): VMConfig => ({
  ...config,
  limit_config: { ...config.limit_config, ...limits },
});

function prepareError(code: Uint8Array, cfg: VMConfig = config): string | null {
  const c = compileContract(code, cfg);
  if (c.ok) return null;
  const e = c.error;
  return 'CompilationError' in e && 'PrepareError' in e.CompilationError
    ? e.CompilationError.PrepareError
    : 'other';
}

t.test('protocol 86 has nearcore’s prepare_v3 limits', async (t) => {
  const l = config.limit_config;
  t.same(
    [
      l.max_function_body_size,
      l.max_types_per_contract,
      l.max_tables_per_contract,
      l.max_elements_per_contract_table,
      l.max_params_per_function,
      l.max_params_per_contract,
      l.max_blocks_per_function,
      l.max_blocks_per_contract,
      l.max_operand_stack_bytes_per_function,
      l.max_instrumented_code_size,
    ],
    [196_608n, 1024n, 1n, 10_000n, 64n, 50_000n, 5_000n, 50_000n, 8_192n, 16_777_216n],
  );
  t.equal(config.linear_op_base_cost, 26_328_192n);
  t.equal(config.linear_op_unit_cost, 822_756n);
});

t.test('function bodies: FunctionBodyTooLarge past max_function_body_size', async (t) => {
  // prepare.rs function_body_too_large, limit 1000.
  const nops = (n: number) => wat(`(module (func (export "main") ${'nop '.repeat(n)}))`);
  const small = withLimits({ max_function_body_size: 1000n });
  t.equal(prepareError(await nops(1000), small), 'FunctionBodyTooLarge');
  t.equal(prepareError(await nops(500), small), null);
  // The default limit counts the body after its size: local count, instructions, `end`.
  t.equal(prepareError(await nops(196_606)), null, '196,608 bytes');
  t.equal(prepareError(await nops(196_607)), 'FunctionBodyTooLarge', '196,609 bytes');
});

t.test('blocks: TooManyBlocksPerFunction and TooManyBlocksPerContract', async (t) => {
  // prepare.rs too_many_blocks_per_function (limit 100) and too_many_blocks_per_contract (limit 50).
  const inOne = (n: number) =>
    wat(`(module (func (export "main") (param i32) ${'(if (local.get 0) (then nop)) '.repeat(n)}))`);
  const perFunction = withLimits({ max_blocks_per_function: 100n });
  t.equal(prepareError(await inOne(101), perFunction), 'TooManyBlocksPerFunction');
  t.equal(prepareError(await inOne(100), perFunction), null);
  const many = (n: number) =>
    wat(`(module (func (export "main")) ${'(func (param i32) (if (local.get 0) (then nop))) '.repeat(n)})`);
  const perContract = withLimits({ max_blocks_per_contract: 50n, max_blocks_per_function: null });
  t.equal(prepareError(await many(100), perContract), 'TooManyBlocksPerContract');
  t.equal(prepareError(await many(50), perContract), null);
  t.equal(prepareError(await inOne(5_001)), 'TooManyBlocksPerFunction', 'at protocol 86');
});

t.test('types: TooManyTypes past max_types_per_contract', async (t) => {
  // prepare.rs too_many_types, limit 16: type i takes i i32 parameters.
  const types = (n: number) =>
    wat(
      `(module ${Array.from({ length: n }, (_, i) => `(type (func${i === 0 ? '' : ` (param ${'i32 '.repeat(i)})`}))`).join(' ')}
        (func (export "main") (type 0)))`,
    );
  const small = withLimits({ max_types_per_contract: 16n });
  t.equal(prepareError(await types(17), small), 'TooManyTypes');
  t.equal(prepareError(await types(16), small), null);
  // wasmparser admits at most 1,000 parameters per type, so these all take none.
  const plain = (n: number) => wat(`(module ${'(type (func)) '.repeat(n)} (func (export "main") (type 0)))`);
  t.equal(prepareError(await plain(1025)), 'TooManyTypes', 'at protocol 86');
  t.equal(prepareError(await plain(1024)), null);
});

t.test(
  'parameters: TooManyParamsPerFunction, TooManyParamsPerContract, TooManyFunctions first',
  async (t) => {
    // prepare.rs too_many_function_params, with its expectations (64 per function, 50,000 per
    // contract, 10,000 functions).
    const check = async (params: number, functions: number, want: string | null) => {
      const fn = `(func (param ${'i32 '.repeat(params)}))\n`;
      t.equal(prepareError(await wat(`(module ${fn.repeat(functions)})`)), want, `${params} × ${functions}`);
    };
    await check(1, 1000, null);
    await check(64, Math.floor(50_000 / 64), null);
    await check(64, Math.floor((50_000 + 64) / 64), 'TooManyParamsPerContract');
    await check(65, Math.floor((50_000 + 64) / 64), 'TooManyParamsPerFunction');
    await check(65, 1, 'TooManyParamsPerFunction');
    await check(65, 10_001, 'TooManyFunctions');
    await check(Math.floor((50_000 + 10_000) / 10_000), 10_000, 'TooManyParamsPerContract');
    await check(Math.floor((50_000 + 10_000) / 10_000), 10_001, 'TooManyFunctions');
  },
);

t.test('operand stack: OperandStackTooLarge past max_operand_stack_bytes_per_function', async (t) => {
  // prepare.rs operand_stack_too_large: 16 i64 are 128 bytes at peak.
  const code = await wat(
    `(module (func (export "main") ${'(i64.const 0) '.repeat(16)} ${'(drop) '.repeat(16)}))`,
  );
  t.equal(
    prepareError(code, withLimits({ max_operand_stack_bytes_per_function: 127n })),
    'OperandStackTooLarge',
  );
  t.equal(prepareError(code, withLimits({ max_operand_stack_bytes_per_function: 128n })), null);
  const big = (n: number) =>
    wat(`(module (func (export "main") ${'(i64.const 0) '.repeat(n)} ${'(drop) '.repeat(n)}))`);
  t.equal(prepareError(await big(1024)), null, '8,192 bytes at protocol 86');
  t.equal(prepareError(await big(1025)), 'OperandStackTooLarge', '8,200 bytes');
});

t.test('tables: TooManyTables and TooManyTableElements (prepare_v3, 82.yaml)', async (t) => {
  t.equal(prepareError(await wat('(module (table 1 funcref) (table 1 funcref))')), 'TooManyTables');
  t.equal(prepareError(await wat('(module (table 10001 funcref))')), 'TooManyTableElements');
  t.equal(prepareError(await wat('(module (table 10000 funcref))')), null);
});

t.test('table.grow stops at max_elements_per_contract_table (Wasmtime StoreLimits)', async (t) => {
  // nearcore's store refuses to grow a table past 10,000 elements, whatever the table declares.
  const grow = (table: string, by: number) =>
    wat(`(module
      (import "env" "value_return" (func $ret (param i64 i64)))
      (memory 1) (table ${table} funcref)
      (func (export "main")
        (i32.store (i32.const 0) (table.grow (ref.null func) (i32.const ${by})))
        (i32.store (i32.const 4) (table.size))
        (call $ret (i64.const 8) (i64.const 0))))`);
  const answer = (o: VMOutcome) => {
    const v = new DataView(returned(o).buffer);
    return [v.getInt32(0, true), v.getInt32(4, true)];
  };
  t.same(answer(run(await grow('2', 9998))), [2, 10_000], 'up to 10,000: the old size');
  t.same(answer(run(await grow('2', 9999))), [-1, 2], 'one more: -1, the table as it was');
  t.same(answer(run(await grow('2 20000', 9999))), [-1, 2], 'a larger declared maximum too');
  t.same(answer(run(await grow('2 5', 4))), [-1, 2], 'a smaller one stands');
});

t.test('the limits of instrument_v3 yield to anything prepare_v3 finds first', async (t) => {
  // An ill-typed body anywhere makes the module Deserialization, as nearcore validates it whole
  // before it instruments it.
  const params = `(func (param ${'i32 '.repeat(65)}))`;
  t.equal(prepareError(await wat(`(module ${params} (func (result i32) (i64.const 0)))`)), 'Deserialization');
  t.equal(
    prepareError(await wat(`(module ${params} (func (result i32) (i32.const 0)))`)),
    'TooManyParamsPerFunction',
  );
  // The first function to exceed a limit names it.
  const stack = `(func ${'(i64.const 0) '.repeat(1025)} ${'(drop) '.repeat(1025)})`;
  t.equal(prepareError(await wat(`(module ${stack} ${params})`)), 'OperandStackTooLarge');
  t.equal(prepareError(await wat(`(module ${params} ${stack})`)), 'TooManyParamsPerFunction');
});

t.test('the new PrepareError variants print as nearcore prints them', async (t) => {
  const cases: [string, string][] = [
    ['TooManyTables', 'Too many tables declared in the contract.'],
    ['TooManyTableElements', 'Too many table elements declared in the contract.'],
    ['FunctionBodyTooLarge', 'A function body in the contract exceeds the size limit.'],
    ['InstrumentedCodeTooLarge', 'The instrumented code exceeds the size limit.'],
    ['TooManyBlocksPerFunction', 'Too many basic blocks in a function.'],
    ['TooManyBlocksPerContract', 'Too many basic blocks in a contract.'],
    ['TooManyTypes', 'Too many type-section entries declared in the contract.'],
    ['TooManyParamsPerContract', 'Too many function parameters in the contract'],
    ['TooManyParamsPerFunction', 'Too many parameters in a single function'],
    ['OperandStackTooLarge', 'A function uses too much operand stack.'],
  ];
  for (const [kind, text] of cases) {
    const e = { CompilationError: { PrepareError: kind } } as Parameters<typeof functionCallErrorMessage>[0];
    t.equal(functionCallErrorMessage(e), `PrepareError: ${text}`);
  }
  const o = run(await wat('(module (table 1 funcref) (table 1 funcref) (func (export "main")))'));
  t.equal(JSON.stringify(o.aborted), '{"CompilationError":{"PrepareError":"TooManyTables"}}');
});

/** A module of `functions` bodies, each `calls` × `call 0`, exporting the first as "main". */
function callingModule(functions: number, calls: number): Uint8Array {
  const leb = (n: number): number[] => {
    const out: number[] = [];
    do {
      out.push((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
      n = Math.floor(n / 128);
    } while (n > 0);
    return out;
  };
  const bodySize = 2 * calls + 2;
  const entry = [...leb(bodySize)].length + bodySize;
  const codeSize = leb(functions).length + functions * entry;
  const head = [
    ...[0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0],
    ...[1, 4, 1, 0x60, 0, 0],
    ...[3, functions + 1, functions, ...new Array<number>(functions).fill(0)],
    ...[7, 8, 1, 4, ...new TextEncoder().encode('main'), 0, 0],
    ...[10, ...leb(codeSize), ...leb(functions)],
  ];
  const out = new Uint8Array(head.length + functions * entry);
  out.set(head);
  let at = head.length;
  for (let i = 0; i < functions; i++) {
    out.set(leb(bodySize), at);
    at += leb(bodySize).length;
    out[at++] = 0;
    for (let k = 0; k < calls; k++) {
      out[at++] = 0x10;
      out[at++] = 0;
    }
    out[at++] = 0x0b;
  }
  return out;
}

t.test(
  'InstrumentedCodeTooLarge: nearcore’s instrumented module past max_instrumented_code_size',
  async (t) => {
    // The module instrument_v3 writes for `(module (func (export "main")))`, from its code and
    // wasm_encoder's encoding: header 8; types 13 (the contract's and two of its own); imports 106
    // ("internal" finite_wasm_gas_exhausted, _stack_exhausted, _gas); functions 4; memory 8; globals 15
    // (remaining gas, stack); exports 36 ("\0main", "memory", "remaining_gas"); code 85 (locals 5, the
    // block 2, the stack reservation 21, the entry's 8 ops 30, the final end with the release 23).
    const empty = await wat('(module (func (export "main")))');
    t.equal(
      prepareError(empty, withLimits({ max_instrumented_code_size: 274n })),
      'InstrumentedCodeTooLarge',
    );
    t.equal(prepareError(empty, withLimits({ max_instrumented_code_size: 275n })), null);
    // Each `call` becomes 29 bytes there (its charge of one op, 27, and the call), so 630,000 calls
    // are over the 16 MiB of protocol 86 and 560,000 are not, whatever nearlite writes itself.
    t.equal(prepareError(callingModule(7, 90_000)), 'InstrumentedCodeTooLarge');
    t.equal(prepareError(callingModule(7, 80_000)), null);
    // Checked last: the limits of instrument_v3 come first.
    const params = await wat(`(module (func (param ${'i32 '.repeat(65)})) (func (export "main")))`);
    t.equal(
      prepareError(params, withLimits({ max_instrumented_code_size: 10n })),
      'TooManyParamsPerFunction',
    );
  },
);
