// The receipts a contract builds (nearcore's runtime/runtime/src/receipt_manager.rs): how unused gas
// is shared among weighted function calls, and a method name that is not UTF-8 failing the call
// (HostError::InvalidMethodName, which an outcome shows as its text).
import { RuntimeExt } from '@nearlite/runtime';
import type { TrieUpdate } from '@nearlite/trie';
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
      [
        {
          kind: 'Failure',
          error: {
            ActionError: {
              index: 0,
              kind: { FunctionCallError: { ExecutionError: 'VM Logic returned an invalid method name' } },
            },
          },
        },
      ],
      method,
    );
  }
});
