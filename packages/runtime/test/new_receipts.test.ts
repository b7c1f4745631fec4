// nearcore's validate_receipt for the receipts a contract creates (runtime/runtime/src/verifier.rs,
// in NewReceipt mode): first the receipt's borsh size against max_receipt_size, then its actions.
import { decodeReceipt, utf8 } from '@nearlite/primitives';
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
  // borsh ReceiptV0: predecessor and receiver ("bob.near", 4 + 8 each), the id (32), the ActionV2
  // tag (1), signer "bob.near" (12), refund_to None (1: nearcore's action_function_call makes every
  // receipt a contract creates an ActionReceiptV2), its ed25519 key (33), gas price (16), three
  // empty-or-one vectors' lengths (4 each), the FunctionCall tag (1), "m" (4 + 1), the arguments
  // (4 + 4 MiB), gas (8), deposit (16).
  const size = 12 + 12 + 32 + 1 + 12 + 1 + 33 + 16 + 4 + 4 + 4 + 1 + 5 + 4 + args + 8 + 16;
  t.same((outcomes[0]!.status as { error?: { ActionError?: unknown } }).error?.ActionError, {
    index: 0,
    kind: {
      NewReceiptValidationError: {
        ReceiptSizeExceeded: { size: BigInt(size), limit: 4_194_304n },
      },
    },
  });
});

// `call` calls alice.near's `m` with no arguments.
const CALLER = wat(`(module
  (import "env" "promise_batch_create" (func $create (param i64 i64) (result i64)))
  (import "env" "promise_batch_action_function_call" (func $call (param i64 i64 i64 i64 i64 i64 i64)))
  (memory 1)
  (data (i32.const 0) "alice.nearm")
  (func (export "call")
    (call $call (call $create (i64.const 10) (i64.const 0))
      (i64.const 1) (i64.const 10) (i64.const 0) (i64.const 0) (i64.const 16)
      (i64.const 1000000000000))))`);

t.test(
  'a receipt a contract creates is an ActionReceiptV2; a transaction’s and a refund are not',
  async (t) => {
    const c = vmChain();
    c.block([signTx(bob, 'bob.near', 'bob.near', 1n, [{ type: 'DeployContract', code: CALLER }]).bytes]);
    c.settle();
    // Sent to itself, the call runs in the chunk that includes it.
    const tx = c.block([
      signTx(bob, 'bob.near', 'bob.near', 2n, [
        { type: 'FunctionCall', methodName: 'call', args: utf8(''), gas: 30_000_000_000_000n, deposit: 0n },
      ]).bytes,
    ]);
    t.equal(tx.outcomes[1]?.status.kind, 'SuccessValue', 'the call ran');
    const sent = tx.res.outgoingReceipts.map((r) => ({ bytes: r.bytes, receipt: decodeReceipt(r.bytes) }));
    // ReceiptV0: predecessor, receiver, id (32), then the ReceiptEnum tag.
    const tag = (x: (typeof sent)[number]) =>
      x.bytes[4 + x.receipt.predecessorId.length + 4 + x.receipt.receiverId.length + 32];
    const made = sent.find((x) => x.receipt.receiverId === 'alice.near');
    t.ok(made, 'the call sent its promise out');
    t.equal(tag(made!), 5, 'the promise is an ActionV2 (nearcore action_function_call)');
    t.equal(
      made!.receipt.receipt.kind === 'Action' && made!.receipt.receipt.refundTo,
      null,
      'refund_to None',
    );
    const refunds = sent.filter((x) => x.receipt.predecessorId === 'system');
    t.ok(refunds.length > 0, 'the call refunds unused gas');
    for (const r of refunds) t.equal(tag(r), 0, 'a refund is an Action (Receipt::new_gas_refund)');
    // The transaction's own receipt, local to the chunk.
    const own = tx.res.processedReceipts.map((r) => decodeReceipt(r.bytes));
    t.equal(own.length, 1);
    t.equal(
      own[0]!.receipt.kind === 'Action' && own[0]!.receipt.refundTo,
      undefined,
      'the transaction’s receipt is an Action',
    );
  },
);
