import t from 'tap';
import { contractChain, keyFromSeed, signTx, type TestChain, wat } from './helpers.js';

// bye: a batch on itself deleting it in favour of bob.near. bye_transfer: the same batch with a
// Transfer before. bye_then: the delete as a callback of a batch on itself (it waits for data).
const CONTRACT = wat(`(module
  (import "env" "current_account_id" (func $me (param i64)))
  (import "env" "register_len" (func $rlen (param i64) (result i64)))
  (import "env" "read_register" (func $rread (param i64 i64)))
  (import "env" "promise_batch_create" (func $create (param i64 i64) (result i64)))
  (import "env" "promise_batch_then" (func $then (param i64 i64 i64) (result i64)))
  (import "env" "promise_batch_action_transfer" (func $transfer (param i64 i64)))
  (import "env" "promise_batch_action_delete_account" (func $del (param i64 i64 i64)))
  (memory 1)
  (data (i32.const 200) "bob.near")
  (data (i32.const 300) "\\01")
  (func $self (result i64)
    (call $me (i64.const 0))
    (call $rread (i64.const 0) (i64.const 0))
    (call $create (call $rlen (i64.const 0)) (i64.const 0)))
  (func (export "bye") (call $del (call $self) (i64.const 8) (i64.const 200)))
  (func (export "bye_transfer") (local $p i64)
    (local.set $p (call $self))
    (call $transfer (local.get $p) (i64.const 300))
    (call $del (local.get $p) (i64.const 8) (i64.const 200)))
  (func (export "bye_then") (local $p i64)
    (local.set $p (call $self))
    (local.set $p (call $then (local.get $p) (call $rlen (i64.const 0)) (i64.const 0)))
    (call $del (local.get $p) (i64.const 8) (i64.const 200))))`);

const _alice = keyFromSeed(1);
const bob = keyFromSeed(2);

const chain = (): TestChain => contractChain(CONTRACT);

/** Sends bob's call of `method` and returns, for the chunk that runs it, alice's outcomes and whether she is left. */
function callChunk(c: TestChain, method: string) {
  c.block([
    signTx(bob, 'bob.near', 'alice.near', 10n, [
      {
        type: 'FunctionCall',
        methodName: method,
        args: new Uint8Array(0),
        gas: 50_000_000_000_000n,
        deposit: 0n,
      },
    ]).bytes,
  ]);
  const { outcomes } = c.block();
  return {
    alice: outcomes.filter((o) => o.executorId === 'alice.near').map((o) => o.status.kind),
    exists: c.account('alice.near') !== null,
  };
}

t.test('a lone DeleteAccount receipt runs in the chunk of the call that made it', async (t) => {
  const c = chain();
  t.same(callChunk(c, 'bye'), { alice: ['SuccessValue', 'SuccessValue'], exists: false });
});

t.test('a DeleteAccount batched with another action is sent out as usual', async (t) => {
  const c = chain();
  t.same(callChunk(c, 'bye_transfer'), { alice: ['SuccessValue'], exists: true });
  const next = c.block().outcomes.filter((o) => o.executorId === 'alice.near');
  t.same(
    next.map((o) => o.status.kind),
    ['SuccessValue'],
  );
  t.equal(c.account('alice.near'), null);
});

t.test('a DeleteAccount waiting for a promise result is not instant', async (t) => {
  const c = chain();
  // The first batch (no actions) is sent out; the callback waits for its data.
  t.same(callChunk(c, 'bye_then'), { alice: ['SuccessValue'], exists: true });
  c.settle();
  t.equal(c.account('alice.near'), null);
});
