// nearcore's validate_receipt for the receipts a contract creates (runtime/runtime/src/verifier.rs,
// in NewReceipt mode): first the receipt's borsh size against max_receipt_size, then its actions.
import { utf8 } from '@nearlite/primitives';
import t from 'tap';
import { bob, vmChain, wat } from './global_fixtures.js';
import { config, signTx } from './helpers.js';

// `big` calls bob.near's `m` with the 4 MiB of its memory from 0 as arguments (the most a function
// call may carry), which makes the receipt larger than a receipt may be.
const BIG = wat(`(module
  (import "env" "promise_batch_create" (func $create (param i64 i64) (result i64)))
  (import "env" "promise_batch_action_function_call" (func $call (param i64 i64 i64 i64 i64 i64 i64)))
  (memory 65)
  (data (i32.const 4194304) "bob.nearm")
  (func (export "big")
    (call $call (call $create (i64.const 8) (i64.const 4194304))
      (i64.const 1) (i64.const 4194312) (i64.const 4194304) (i64.const 0) (i64.const 4194320)
      (i64.const 1000000000000))))`);

t.test('a receipt larger than max_receipt_size fails the call that made it', async (t) => {
  const c = vmChain();
  c.block([signTx(bob, 'bob.near', 'bob.near', 1n, [{ type: 'DeployContract', code: BIG }]).bytes]);
  c.settle();
  const args = 4_194_304;
  t.equal(config.wasm.limit_config.max_receipt_size, 4_194_304n);
  t.equal(config.maxArgumentsLength, args);
  const b = c.block([
    signTx(bob, 'bob.near', 'bob.near', 2n, [
      { type: 'FunctionCall', methodName: 'big', args: utf8(''), gas: 300_000_000_000_000n, deposit: 0n },
    ]).bytes,
  ]);
  // Sent to itself, the call runs in the chunk that includes it.
  const outcomes = [...b.outcomes.slice(1), ...c.settle()];
  // borsh ReceiptV0: predecessor and receiver ("bob.near", 4 + 8 each), the id (32), the Action tag
  // (1), signer "bob.near" (12), its ed25519 key (33), gas price (16), three empty-or-one vectors'
  // lengths (4 each), the FunctionCall tag (1), "m" (4 + 1), the arguments (4 + 4 MiB), gas (8),
  // deposit (16).
  const size = 12 + 12 + 32 + 1 + 12 + 33 + 16 + 4 + 4 + 4 + 1 + 5 + 4 + args + 8 + 16;
  t.same((outcomes[0]!.status as { error?: { ActionError?: unknown } }).error?.ActionError, {
    index: 0,
    kind: {
      NewReceiptValidationError: {
        ReceiptSizeExceeded: { size: BigInt(size), limit: 4_194_304n },
      },
    },
  });
});
