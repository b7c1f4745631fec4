import {
  ContractCache,
  functionCallErrorMessage,
  IMPORT_TABLE,
  parseVMConfig,
  runFunction,
} from '@nearlite/vm';
import t from 'tap';
import {
  call,
  config,
  fees,
  freshHash,
  MockExternal,
  makeContext,
  rawConfig,
  returned,
  text,
  wat,
} from './helpers.js';

const run = async (src: string, method = 'f') =>
  call({ code: await wat(src), codeHash: freshHash(), method });
const prepareError = (kind: string) => ({ CompilationError: { PrepareError: kind } });

// The 48 env imports of the near-sdk-rs contracts found in npm packages (clients-and-contracts.md §5)
// with nearcore's signatures (all u64 → i64), plus AssemblyScript's abort.
const RUST_IMPORTS: Record<string, [number, boolean]> = {
  read_register: [2, false],
  register_len: [1, true],
  current_account_id: [1, false],
  signer_account_id: [1, false],
  signer_account_pk: [1, false],
  predecessor_account_id: [1, false],
  input: [1, false],
  block_index: [0, true],
  block_timestamp: [0, true],
  epoch_height: [0, true],
  storage_usage: [0, true],
  account_balance: [1, false],
  account_locked_balance: [1, false],
  attached_deposit: [1, false],
  prepaid_gas: [0, true],
  used_gas: [0, true],
  random_seed: [1, false],
  sha256: [3, false],
  keccak256: [3, false],
  keccak512: [3, false],
  value_return: [2, false],
  panic: [0, false],
  panic_utf8: [2, false],
  log_utf8: [2, false],
  log_utf16: [2, false],
  promise_create: [8, true],
  promise_then: [9, true],
  promise_and: [2, true],
  promise_batch_create: [2, true],
  promise_batch_then: [3, true],
  promise_batch_action_create_account: [1, false],
  promise_batch_action_deploy_contract: [3, false],
  promise_batch_action_function_call: [7, false],
  promise_batch_action_transfer: [2, false],
  promise_batch_action_stake: [4, false],
  promise_batch_action_add_key_with_full_access: [4, false],
  promise_batch_action_add_key_with_function_call: [9, false],
  promise_batch_action_delete_key: [3, false],
  promise_batch_action_delete_account: [3, false],
  promise_results_count: [0, true],
  promise_result: [2, true],
  promise_return: [1, false],
  storage_write: [5, true],
  storage_read: [3, true],
  storage_remove: [3, true],
  storage_has_key: [2, true],
  validator_stake: [3, false],
  validator_total_stake: [1, false],
};

t.test('a module importing every real-contract import links', async (t) => {
  t.equal(Object.keys(RUST_IMPORTS).length, 48);
  const lines = Object.entries(RUST_IMPORTS).map(([name, [n, res]]) => {
    const params = n > 0 ? ` (param${' i64'.repeat(n)})` : '';
    return `(import "env" "${name}" (func${params}${res ? ' (result i64)' : ''}))`;
  });
  lines.push('(import "env" "abort" (func (param i32 i32 i32 i32)))');
  for (const extra of [
    'alt_bn128_g1_multiexp',
    'ed25519_verify',
    'ecrecover',
    'promise_yield_create',
    'promise_yield_resume',
    'promise_batch_action_function_call_weight',
    'ripemd160',
  ]) {
    const d = IMPORT_TABLE[extra]!;
    lines.push(
      `(import "env" "${extra}" (func (param ${d.params.join(' ')})${d.result ? ` (result ${d.result})` : ''}))`,
    );
  }
  const out = await run(`(module ${lines.join('\n')} (memory 17) (func (export "f")))`);
  t.equal(out.aborted, null);
  for (const [name, [n, res]] of Object.entries(RUST_IMPORTS)) {
    const d = IMPORT_TABLE[name];
    t.ok(
      d !== undefined &&
        d.params.length === n &&
        d.params.every((p) => p === 'i64') &&
        (d.result === 'i64') === res,
      name,
    );
  }
});

t.test('preparation rejects what nearcore rejects', async (t) => {
  t.same(
    (await run('(module (import "env" "memory" (memory 1)) (func (export "f")))')).aborted,
    prepareError('Memory'),
  );
  t.same(
    (await run('(module (import "other" "x" (func)) (func (export "f")))')).aborted,
    prepareError('Instantiate'),
  );
  t.same(
    (await run('(module (import "env" "g" (global i32)) (func (export "f")))')).aborted,
    prepareError('Instantiate'),
  );
  t.same(
    (await run('(module (func (export "f") (drop (i32x4.splat (i32.const 1)))))')).aborted,
    prepareError('Deserialization'),
    'SIMD',
  );
  t.same(
    (await run('(module (func $m (result i32 i32) (i32.const 1) (i32.const 2)) (func (export "f")))'))
      .aborted,
    prepareError('Deserialization'),
    'multi-value',
  );
  const garbage = call({
    code: new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 9]),
    codeHash: freshHash(),
    method: 'f',
  });
  t.same(garbage.aborted, prepareError('Deserialization'));
  t.equal(garbage.burnt_gas, 0n, 'a compilation failure burns nothing before fix_contract_loading_cost');
  t.same(
    (await run('(module (func (export "f") (drop (i32.extend8_s (i32.const 1)))))')).aborted,
    null,
    'sign-extension is accepted',
  );
  const limited = parseVMConfig({
    ...rawConfig.wasm_config,
    limit_config: {
      ...(rawConfig.wasm_config.limit_config as object),
      max_functions_number_per_contract: 2,
      max_locals_per_contract: 3,
    },
  });
  const three = await wat('(module (func) (func) (func (export "f")))');
  const many = await wat('(module (func (export "f") (local i64 i64 i64 i64)))');
  const withLimits = (code: Uint8Array) =>
    runFunction({
      code,
      codeHash: freshHash(),
      methodName: 'f',
      context: makeContext(),
      config: limited,
      fees,
      external: new MockExternal(),
    }).aborted;
  t.same(withLimits(three), prepareError('TooManyFunctions'));
  t.same(withLimits(many), prepareError('TooManyLocals'));
});

t.test('method resolution and linking', async (t) => {
  const src =
    '(module (func (export "f")) (func (export "takes") (param i32)) (global (export "g") i32 (i32.const 0)))';
  t.same((await run(src, 'missing')).aborted, { MethodResolveError: 'MethodNotFound' });
  t.same((await run(src, 'g')).aborted, { MethodResolveError: 'MethodNotFound' });
  t.same((await run(src, 'takes')).aborted, { MethodResolveError: 'MethodInvalidSignature' });
  t.same((await run(src, '')).aborted, { MethodResolveError: 'MethodEmptyName' });
  t.same(
    (await run(src, '\u0000gas')).aborted,
    { MethodResolveError: 'MethodNotFound' },
    'internal exports are hidden',
  );
  const none = runFunction({
    code: null,
    codeHash: freshHash(),
    methodName: 'f',
    context: makeContext(),
    config,
    fees,
    external: new MockExternal(),
  });
  t.same(none.aborted, { CompilationError: { CodeDoesNotExist: { account_id: 'contract.near' } } });
  const link = await run('(module (import "env" "no_such_fn" (func)) (func (export "f")))');
  t.ok(link.aborted !== null && 'LinkError' in link.aborted);
});

t.test('the start function runs before the method and may read storage', async (t) => {
  const code = await wat(`(module
    (import "env" "storage_read" (func $sr (param i64 i64 i64) (result i64)))
    (import "env" "read_register" (func $rr (param i64 i64)))
    (import "env" "value_return" (func $ret (param i64 i64)))
    (memory 1)
    (data (i32.const 0) "k")
    (func $init (if (i64.eq (call $sr (i64.const 1) (i64.const 0) (i64.const 0)) (i64.const 1))
      (then (call $rr (i64.const 0) (i64.const 16)))))
    (start $init)
    (func (export "get") (call $ret (i64.const 3) (i64.const 16))))`);
  const ext = new MockExternal();
  ext.storage.set(Buffer.from('k').toString('hex'), new TextEncoder().encode('abc'));
  t.equal(text(returned(call({ code, codeHash: freshHash(), method: 'get', external: ext }))), 'abc');
});

t.test('the module cache is LRU-capped and keyed by code hash', async (t) => {
  const cache = new ContractCache(2);
  const code = await wat('(module (func (export "f")))');
  for (let i = 0; i < 3; i++) {
    runFunction({
      code,
      codeHash: freshHash(),
      methodName: 'f',
      context: makeContext(),
      config,
      fees,
      external: new MockExternal(),
      cache,
    });
  }
  t.equal(cache.size, 2);
  const hash = freshHash();
  const args = {
    codeHash: hash,
    methodName: 'f',
    context: makeContext(),
    config,
    fees,
    external: new MockExternal(),
    cache,
  };
  runFunction({ ...args, code });
  let loaded = false;
  const again = runFunction({
    ...args,
    code: () => {
      loaded = true;
      return code;
    },
  });
  t.equal(again.aborted, null);
  t.notOk(loaded, 'a cache hit never loads the code');
});

t.test("error messages are nearcore's", async (t) => {
  t.equal(functionCallErrorMessage({ HostError: 'GasExceeded' }), 'Exceeded the prepaid gas.');
  t.equal(
    functionCallErrorMessage({ HostError: { GuestPanic: { panic_msg: 'x' } } }),
    'Smart contract panicked: x',
  );
  t.equal(
    functionCallErrorMessage({ WasmTrap: 'Unreachable' }),
    'WebAssembly trap: An `unreachable` opcode was executed.',
  );
  t.equal(functionCallErrorMessage({ MethodResolveError: 'MethodNotFound' }), 'MethodNotFound');
  t.equal(
    functionCallErrorMessage({ CompilationError: { PrepareError: 'Deserialization' } }),
    'PrepareError: Error happened while deserializing the module.',
  );
  t.equal(
    functionCallErrorMessage({ HostError: { ProhibitedInView: { method_name: 'storage_write' } } }),
    'storage_write is not allowed in view calls',
  );
});
