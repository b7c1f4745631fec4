// A chunk records its storage proof as nearcore's does, and two limits read it: a function call may
// add at most per_receipt_storage_proof_size_limit (4,000,000 bytes), and once the chunk's total
// passes main_storage_proof_size_soft_limit (4,000,000) its further receipts wait in the delayed
// queue. A contract's removal counts 2,000 bytes towards the bound (nearcore#10890).
import { receiptIdFromTransaction, toHex } from '@nearlite/primitives';
import { outcomeView } from '@nearlite/runtime';
import { byteSize } from '@nearlite/vm';
import t from 'tap';
import { contractChain, keyFromSeed, signTx, wat } from './helpers.js';

const REMOVER = wat(`(module
  (import "env" "input" (func $input (param i64)))
  (import "env" "read_register" (func $read (param i64 i64)))
  (import "env" "storage_remove" (func $rm (param i64 i64 i64) (result i64)))
  (memory 1)
  (data (i32.const 0) "x")
  ;; Removes the key "x" as many times as the input's little-endian u32 says.
  (func (export "remove_n") (local $i i32) (local $n i32)
    (call $input (i64.const 0))
    (call $read (i64.const 0) (i64.const 8))
    (local.set $n (i32.load (i32.const 8)))
    (block $done
      (loop $l
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (drop (call $rm (i64.const 1) (i64.const 0) (i64.const 0)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $l)))))`);

const alice = keyFromSeed(1);
let nonce = 10n;
function removeSigned(n: number): { bytes: Uint8Array; hash: Uint8Array } {
  const args = new Uint8Array(4);
  new DataView(args.buffer).setUint32(0, n, true);
  return signTx(alice, 'alice.near', 'alice.near', nonce++, [
    { type: 'FunctionCall', methodName: 'remove_n', args, gas: 300_000_000_000_000n, deposit: 0n },
  ]);
}
const removeTx = (n: number) => removeSigned(n).bytes;

const EXCEEDED = {
  ActionError: {
    index: 0,
    kind: {
      FunctionCallError: {
        ExecutionError: 'Size of the recorded trie storage proof has exceeded the allowed limit (4.0 MB)',
      },
    },
  },
};

t.test('a call that adds more than 4,000,000 bytes fails; one under it succeeds', async (t) => {
  const c = contractChain(REMOVER);
  c.recording = true;
  const b = c.block([removeTx(2000), removeTx(2001)]);
  const receipts = b.outcomes.slice(2);
  t.equal(receipts.length, 2, 'both calls ran in the chunk');
  t.same(
    receipts[0]!.status,
    { kind: 'SuccessValue', value: new Uint8Array(0) },
    '2,000 removals: exactly the limit',
  );
  t.equal(receipts[1]!.status.kind, 'Failure', '2,001 removals: over it');
  const view = outcomeView(receipts[1]!) as { status: unknown };
  t.same(view.status, { Failure: EXCEEDED }, "nearcore's error, its limit shown as bytesize shows it");
});

t.test('without recording (as a view has none) the same call succeeds', async (t) => {
  const c = contractChain(REMOVER);
  const b = c.block([removeTx(2001)]);
  t.equal(b.outcomes[1]!.status.kind, 'SuccessValue');
});

t.test('past the soft limit a chunk runs no more receipts: they wait in the delayed queue', async (t) => {
  const c = contractChain(REMOVER);
  c.recording = true;
  // Each call adds 3,000,000 bytes: the first leaves the chunk under 4,000,000, the second takes it
  // over, and the third waits for the next chunk.
  const txs = [removeSigned(1500), removeSigned(1500), removeSigned(1500)];
  const third = txs[2]!;
  const first = c.block(txs.map((x) => x.bytes));
  t.equal(first.outcomes.length, 5, 'three transactions, two receipts');
  t.equal(first.res.delayedReceipts, 1, 'the third receipt is delayed');
  for (const o of first.outcomes.slice(3)) t.equal(o.status.kind, 'SuccessValue');
  const delayedId = toHex(receiptIdFromTransaction(third.hash, c.height));
  t.notOk(
    first.outcomes.some((o) => toHex(o.id) === delayedId),
    'not run in the first chunk',
  );
  const second = c.block();
  const ran = second.outcomes.find((o) => toHex(o.id) === delayedId);
  t.equal(ran?.status.kind, 'SuccessValue', 'it runs in the next chunk');
  t.equal(second.res.delayedReceipts, 0);
});

t.test("bytesize's display, as nearcore's error messages print sizes", async (t) => {
  // The bytesize crate's own test vectors (1.x): decimal units, and its exponent taken with ln 1024.
  t.equal(byteSize(215n), '215 B');
  t.equal(byteSize(1000n), '1.0 KB');
  t.equal(byteSize(301_000n), '301.0 KB');
  t.equal(byteSize(1_048_576n), '1048.6 KB');
  t.equal(byteSize(1908n * 1_048_576n), '2.0 GB');
  t.equal(byteSize(419_000_000n), '419.0 MB');
  t.equal(byteSize(518_000_000_000n), '518.0 GB');
  t.equal(byteSize(815n * 10n ** 12n), '815.0 TB');
  t.equal(byteSize(609n * 10n ** 15n), '609.0 PB');
  t.equal(byteSize(4_000_000n), '4.0 MB');
});
