// The receipts a contract builds (nearcore's runtime/runtime/src/receipt_manager.rs): how unused gas
// is shared among weighted function calls, and a method name that is not UTF-8 failing the call
// (HostError::InvalidMethodName, which an outcome shows as its text).
import { RuntimeExt } from '@nearlite/runtime';
import { type TrieUpdate, trieKeyGasKeyNonce } from '@nearlite/trie';
import t from 'tap';
import { contractChain, keyFromSeed, signTx, wat } from './helpers.js';

type Calls = readonly (readonly [staticGas: bigint, weight: bigint, expected: bigint])[];

/** One receipt per call, in order, then `unused` shared: each call's gas afterwards. */
function distribute(t: Tap.Test, calls: Calls, unused: bigint): bigint[] {
  const ext = new RuntimeExt({} as TrieUpdate, 'alice.near', new Uint8Array(32), 1, new Map());
  for (const [gas, weight] of calls) {
    const i = ext.create_action_receipt([], 'rick.test');
    ext.append_action_function_call_weight(i, new Uint8Array(0), new Uint8Array(0), 0n, gas, weight);
  }
  t.equal(ext.distributeUnusedGas(unused), calls.some(([, w]) => w > 0n) ? unused : 0n, 'all of it given');
  return ext.receipts.map((r) => (r.actions[0] as { gas: bigint }).gas);
}

t.test("nearcore's function_call_weight_basic_cases_test", async (t) => {
  // (static gas, weight, gas after) with a limit of 10 Ggas, less each call's static gas.
  const cases: Calls[] = [
    [[0n, 1n, 10_000_000_000n]],
    [[888n, 1n, 10_000_000_000n]],
    [[0n, 88888n, 10_000_000_000n]],
    [[0n, 11n ** 14n, 10_000_000_000n]],
    [
      [0n, 3n, 6_000_000_000n],
      [0n, 2n, 4_000_000_000n],
    ],
    [
      [1_000_000n, 3n, 5_998_600_000n],
      [3_000_000n, 2n, 4_001_400_000n],
    ],
    [
      [1_000_000n, 3n, 2_699_800_000n],
      [3_000_000n, 2n, 1_802_200_000n],
      [0n, 1n, 899_600_000n],
      [1_000_000_000n, 0n, 1_000_000_000n],
      [0n, 4n, 3_598_400_000n],
    ],
    [
      [0n, 2n ** 64n - 1n, 9_999_999_999n],
      [0n, 1000n, 1n],
    ],
    [
      [0n, 10_000_000_000n, 4_999_999_999n],
      [0n, 1n, 0n],
      [0n, 10_000_000_000n, 5_000_000_001n],
    ],
    [
      [0n, 0n, 0n],
      [0n, 1n, 10_000_000_000n],
    ],
  ];
  for (const calls of cases) {
    const unused = calls.reduce((left, [gas]) => left - gas, 10_000_000_000n);
    t.same(
      distribute(t, calls, unused),
      calls.map(([, , expected]) => expected),
      calls.map(([g, w]) => `${g}/${w}`).join(' '),
    );
  }
});

t.test('what rounding leaves goes to the weighted call appended last, whatever its receipt', async (t) => {
  // nearcore walks gas_weights in the order the calls were appended, across receipts.
  const ext = new RuntimeExt({} as TrieUpdate, 'alice.near', new Uint8Array(32), 1, new Map());
  const a = ext.create_action_receipt([], 'a.near');
  const b = ext.create_action_receipt([], 'b.near');
  const name = new TextEncoder().encode('f');
  ext.append_action_function_call_weight(b, name, new Uint8Array(0), 0n, 0n, 1n);
  ext.append_action_function_call_weight(a, name, new Uint8Array(0), 0n, 0n, 1n);
  t.equal(ext.distributeUnusedGas(11n), 11n);
  const gas = (i: number) => (ext.receipts[i]!.actions[0] as { gas: bigint }).gas;
  t.equal(gas(a), 6n, 'A, appended last, takes the remainder');
  t.equal(gas(b), 5n);
});

/** A call failed by HostError::InvalidMethodName, as its outcome shows it. */
const INVALID_METHOD_NAME = {
  kind: 'Failure',
  error: {
    ActionError: {
      index: 0,
      kind: { FunctionCallError: { ExecutionError: 'VM Logic returned an invalid method name' } },
    },
  },
} as const;

// Each method hands the VM a name of one byte 0xff: a function call, a function-call key's method
// list, a weighted call and a yield's callback.
const BAD_NAMES = wat(`(module
  (import "env" "promise_batch_create" (func $create (param i64 i64) (result i64)))
  (import "env" "promise_batch_action_function_call"
    (func $call (param i64 i64 i64 i64 i64 i64 i64)))
  (import "env" "promise_batch_action_function_call_weight"
    (func $weight (param i64 i64 i64 i64 i64 i64 i64 i64)))
  (import "env" "promise_batch_action_add_key_with_function_call"
    (func $key (param i64 i64 i64 i64 i64 i64 i64 i64 i64)))
  (import "env" "promise_yield_create" (func $yield (param i64 i64 i64 i64 i64 i64 i64) (result i64)))
  (memory 1)
  (data (i32.const 100) "bob.near")
  (data (i32.const 200) "\\ff")
  (data (i32.const 400) "\\00\\01\\02\\03\\04\\05\\06\\07\\08\\09\\0a\\0b\\0c\\0d\\0e\\0f\\10\\11\\12\\13\\14\\15\\16\\17\\18\\19\\1a\\1b\\1c\\1d\\1e\\1f\\20")
  (func (export "call")
    (call $call (call $create (i64.const 8) (i64.const 100))
      (i64.const 1) (i64.const 200) (i64.const 0) (i64.const 0) (i64.const 300) (i64.const 0)))
  (func (export "weight")
    (call $weight (call $create (i64.const 8) (i64.const 100))
      (i64.const 1) (i64.const 200) (i64.const 0) (i64.const 0) (i64.const 300) (i64.const 0) (i64.const 1)))
  (func (export "key")
    (call $key (call $create (i64.const 8) (i64.const 100))
      (i64.const 33) (i64.const 400) (i64.const 0) (i64.const 300) (i64.const 8) (i64.const 100)
      (i64.const 1) (i64.const 200)))
  (func (export "yield")
    (drop (call $yield (i64.const 1) (i64.const 200) (i64.const 0) (i64.const 0)
      (i64.const 5000000000000) (i64.const 0) (i64.const 0)))))`);

t.test('a method name that is not UTF-8 fails the call with InvalidMethodName', async (t) => {
  const alice = keyFromSeed(1);
  const c = contractChain(BAD_NAMES);
  let nonce = 10n;
  for (const method of ['call', 'weight', 'key', 'yield']) {
    const tx = signTx(alice, 'alice.near', 'alice.near', nonce++, [
      {
        type: 'FunctionCall',
        methodName: method,
        args: new Uint8Array(0),
        gas: 30_000_000_000_000n,
        deposit: 0n,
      },
    ]);
    const outcomes = [...c.block([tx.bytes]).outcomes, ...c.settle()];
    const failed = outcomes.filter((o) => o.status.kind === 'Failure');
    t.same(
      failed.map((o) => o.status),
      [INVALID_METHOD_NAME],
      method,
    );
  }
});

// Two keys' borsh (ed25519), an amount and an allowance as u128, for the contract's memory.
const fullKey = keyFromSeed(5);
const fcKey = keyFromSeed(6);
const bytesOf = (b: Uint8Array) => [...b].map((x) => `\\${x.toString(16).padStart(2, '0')}`).join('');
const u128Of = (v: bigint) =>
  bytesOf(Uint8Array.from({ length: 16 }, (_, i) => Number((v >> BigInt(8 * i)) & 0xffn)));
const keyBytes = (k: typeof fullKey) => bytesOf(new Uint8Array([0, ...k.publicKey.data]));

// A batch to the contract's own account: a full-access gas key of three nonces, funded with 2 NEAR,
// and a function-call gas key of two nonces for bob.near's `a` and `b` (an allowance of 0 is none;
// `allowance` asks for 1 NEAR, which a gas key may not have).
const GAS_KEYS = wat(`(module
  (import "env" "promise_batch_create" (func $create (param i64 i64) (result i64)))
  (import "env" "promise_batch_action_add_gas_key_with_full_access"
    (func $addFull (param i64 i64 i64 i64)))
  (import "env" "promise_batch_action_add_gas_key_with_function_call"
    (func $addFc (param i64 i64 i64 i64 i64 i64 i64 i64 i64)))
  (import "env" "promise_batch_action_transfer_to_gas_key" (func $fund (param i64 i64 i64 i64)))
  (memory 1)
  (data (i32.const 100) "alice.near")
  (data (i32.const 150) "bob.near")
  (data (i32.const 200) "a,b")
  (data (i32.const 300) "${keyBytes(fullKey)}")
  (data (i32.const 400) "${keyBytes(fcKey)}")
  (data (i32.const 500) "${u128Of(2n * 10n ** 24n)}")
  (data (i32.const 600) "${u128Of(0n)}")
  (data (i32.const 650) "${u128Of(10n ** 24n)}")
  (data (i32.const 700) "\\ff")
  (func (export "add")
    (local $p i64)
    (local.set $p (call $create (i64.const 10) (i64.const 100)))
    (call $addFull (local.get $p) (i64.const 33) (i64.const 300) (i64.const 3))
    (call $fund (local.get $p) (i64.const 33) (i64.const 300) (i64.const 500))
    (call $addFc (local.get $p) (i64.const 33) (i64.const 400) (i64.const 2) (i64.const 600)
      (i64.const 8) (i64.const 150) (i64.const 3) (i64.const 200)))
  (func (export "allowance")
    (call $addFc (call $create (i64.const 10) (i64.const 100)) (i64.const 33) (i64.const 400)
      (i64.const 2) (i64.const 650) (i64.const 8) (i64.const 150) (i64.const 3) (i64.const 200)))
  (func (export "bad")
    (call $addFc (call $create (i64.const 10) (i64.const 100)) (i64.const 33) (i64.const 400)
      (i64.const 2) (i64.const 600) (i64.const 8) (i64.const 150) (i64.const 1) (i64.const 700))))`);

t.test('gas keys a contract adds and funds, as nearcore’s receipt_manager appends them', async (t) => {
  const alice = keyFromSeed(1);
  const c = contractChain(GAS_KEYS);
  let nonce = 10n;
  const run = (method: string) => {
    const tx = signTx(alice, 'alice.near', 'alice.near', nonce++, [
      {
        type: 'FunctionCall',
        methodName: method,
        args: new Uint8Array(0),
        gas: 100_000_000_000_000n,
        deposit: 0n,
      },
    ]);
    return [...c.block([tx.bytes]).outcomes, ...c.settle()];
  };
  const before = c.account('alice.near')!.amount;
  const added = run('add');
  t.same(
    added.filter((o) => o.status.kind === 'Failure'),
    [],
    'the call and its batch succeed',
  );
  // AddKeyAction { access_key: AccessKey::gas_key_full_access(num_nonces) }: no balance of its own.
  const full = c.accessKey('alice.near', fullKey.publicKey);
  t.same(full?.permission, { kind: 'FullAccess', gasKey: { balance: 2n * 10n ** 24n, numNonces: 3 } });
  // AccessKey::gas_key_function_call(num_nonces, FunctionCallPermission { allowance, receiver_id, method_names }).
  const fc = c.accessKey('alice.near', fcKey.publicKey);
  t.same(fc?.permission, {
    kind: 'FunctionCall',
    allowance: null,
    receiverId: 'bob.near',
    methodNames: ['a', 'b'],
    gasKey: { balance: 0n, numNonces: 2 },
  });
  const nonceRows = (k: typeof fullKey, n: number) =>
    Array.from({ length: n + 1 }, (_, i) =>
      c.state.has(Buffer.from(trieKeyGasKeyNonce('alice.near', k.publicKey, i)).toString('hex')),
    );
  t.same(nonceRows(fullKey, 3), [true, true, true, false], 'a nonce row per index');
  t.same(nonceRows(fcKey, 2), [true, true, false]);
  t.ok(before - c.account('alice.near')!.amount > 2n * 10n ** 24n, 'the funding came out of the account');

  // validate_actions refuses an allowance on a gas key, in the receipt the batch makes.
  t.same(
    run('allowance')
      .filter((o) => o.status.kind === 'Failure')
      .map((o) => o.status),
    [
      {
        kind: 'Failure',
        error: {
          ActionError: {
            index: 0,
            kind: {
              NewReceiptValidationError: { ActionsValidation: 'GasKeyFunctionCallAllowanceNotAllowed' },
            },
          },
        },
      },
    ],
  );
  const failed = run('bad').filter((o) => o.status.kind === 'Failure');
  t.same(
    failed.map((o) => o.status),
    [INVALID_METHOD_NAME],
    'a method name that is not UTF-8',
  );
});
