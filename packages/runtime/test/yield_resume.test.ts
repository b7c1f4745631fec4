// NEP-519 yield/resume through the runtime, with nearcore's rules (runtime/runtime/src/{lib,ext,
// function_call}.rs at protocol 86): the yield is parked at once (an instant PromiseYield receipt),
// its timeout is queued at height + yield_timeout_length_in_blocks, a resume travels as a
// PromiseResume receipt and runs the callback in the next chunk, the timeout delivers
// PromiseResult::Failed. Gas expectations are nearcore's formulas over the snapshot's numbers.
import {
  type Action,
  actionHash,
  BorshReader,
  base58Encode,
  concatBytes,
  dataId,
  decodeReceipt,
  receiptIdFromReceipt,
  receiptIdFromTransaction,
  receiptView,
  sha256,
  toHex,
  utf8,
} from '@nearlite/primitives';
import { type ExecutionOutcome, Runtime, RuntimeExt, VmFunctionCallRunner } from '@nearlite/runtime';
import {
  TrieUpdate,
  trieKeyPromiseYieldIndices,
  trieKeyPromiseYieldReceipt,
  trieKeyPromiseYieldStatus,
  trieKeyPromiseYieldTimeout,
  trieKeyReceivedData,
  trieKeyYieldIdToDataId,
} from '@nearlite/trie';
import { runFunction } from '@nearlite/vm';
import t from 'tap';
import { config, keyFromSeed, NEAR, selfCallContext, signTx, TestChain, wat } from './helpers.js';
import { ext, FEES, SNAPSHOT } from './snapshot.js';

const TIMEOUT = BigInt(SNAPSHOT.wasm_config.limit_config.yield_timeout_length_in_blocks!);
const CALLBACK_GAS = 20_000_000_000_000n;
const U64_MAX = (1n << 64n) - 1n;

// yield: parks "cb" and returns the data id. resume / resume_id: input is a 32-byte id then the
// payload; returns 1 or 0. yield_id: input is the 32-byte yield id; returns the promise index.
// cb: returns the promise_result status byte, then the payload when there is one.
const CONTRACT = wat(`(module
  (import "env" "input" (func $input (param i64)))
  (import "env" "read_register" (func $read_register (param i64 i64)))
  (import "env" "register_len" (func $register_len (param i64) (result i64)))
  (import "env" "value_return" (func $value_return (param i64 i64)))
  (import "env" "promise_result" (func $promise_result (param i64 i64) (result i64)))
  (import "env" "promise_yield_create" (func $yc (param i64 i64 i64 i64 i64 i64 i64) (result i64)))
  (import "env" "promise_yield_create_with_id"
    (func $ycid (param i64 i64 i64 i64 i64 i64 i64 i64 i64) (result i64)))
  (import "env" "promise_yield_resume" (func $yr (param i64 i64 i64 i64) (result i32)))
  (import "env" "promise_yield_resume_with_yield_id" (func $yrid (param i64 i64 i64 i64) (result i32)))
  (memory 1)
  (data (i32.const 0) "cb")
  (func (export "yield")
    (drop (call $yc (i64.const 2) (i64.const 0) (i64.const 0) (i64.const 0)
      (i64.const ${CALLBACK_GAS}) (i64.const 0) (i64.const 0)))
    (call $value_return (i64.const -1) (i64.const 0)))
  (func (export "yield_and_resume")
    (drop (call $yc (i64.const 2) (i64.const 0) (i64.const 0) (i64.const 0)
      (i64.const ${CALLBACK_GAS}) (i64.const 0) (i64.const 0)))
    (call $read_register (i64.const 0) (i64.const 1000))
    (i32.store8 (i32.const 2000)
      (call $yr (i64.const 32) (i64.const 1000) (i64.const 2) (i64.const 0)))
    (call $value_return (i64.const 1) (i64.const 2000)))
  (func (export "yield_id")
    (call $input (i64.const 0))
    (i64.store (i32.const 2000)
      (call $ycid (i64.const 2) (i64.const 0) (i64.const 0) (i64.const 0) (i64.const 3000)
        (i64.const ${CALLBACK_GAS}) (i64.const 0) (i64.const -1) (i64.const 0)))
    (call $value_return (i64.const 8) (i64.const 2000)))
  (func $resume_with (param $with_id i32) (local $len i64)
    (call $input (i64.const 0))
    (call $read_register (i64.const 0) (i64.const 1000))
    (local.set $len (i64.sub (call $register_len (i64.const 0)) (i64.const 32)))
    (i32.store8 (i32.const 2000)
      (if (result i32) (local.get $with_id)
        (then (call $yrid (i64.const 32) (i64.const 1000) (local.get $len) (i64.const 1032)))
        (else (call $yr (i64.const 32) (i64.const 1000) (local.get $len) (i64.const 1032)))))
    (call $value_return (i64.const 1) (i64.const 2000)))
  (func (export "resume") (call $resume_with (i32.const 0)))
  (func (export "resume_id") (call $resume_with (i32.const 1)))
  (func (export "cb") (local $status i64)
    (local.set $status (call $promise_result (i64.const 0) (i64.const 1)))
    (i64.store8 (i32.const 2000) (local.get $status))
    (if (i64.eq (local.get $status) (i64.const 1))
      (then
        (call $read_register (i64.const 1) (i64.const 2001))
        (call $value_return (i64.add (call $register_len (i64.const 1)) (i64.const 1)) (i64.const 2000)))
      (else (call $value_return (i64.const 1) (i64.const 2000))))))`);

const alice = keyFromSeed(1);
const ALICE = 'alice.near';

interface Setup {
  c: TestChain;
  nonce: bigint;
}

function setup(): Setup {
  const c = new TestChain(
    new Runtime({
      config,
      chainId: 'test',
      validators: new Map(),
      functionCall: new VmFunctionCallRunner(),
    }),
  );
  c.addAccount(ALICE, 100n * NEAR, alice);
  const s = { c, nonce: 1n };
  const { outcomes } = c.block([
    signTx(alice, ALICE, ALICE, s.nonce++, [{ type: 'DeployContract', code: CONTRACT }]).bytes,
  ]);
  if (outcomes[1]?.status.kind === 'Failure') throw new Error('deploy failed');
  return s;
}

/** Calls `method` on alice.near in the next block; returns the receipt's id and that block's outcomes. */
function call(s: Setup, method: string, args: Uint8Array = new Uint8Array(0)) {
  const tx = signTx(alice, ALICE, ALICE, s.nonce++, [
    { type: 'FunctionCall', methodName: method, args, gas: 100_000_000_000_000n, deposit: 0n },
  ]);
  const height = s.c.height + 1;
  const receiptId = receiptIdFromTransaction(tx.hash, height);
  const block = s.c.block([tx.bytes]);
  const outcome = block.outcomes.find((o) => toHex(o.id) === toHex(receiptId));
  if (!outcome) throw new Error(`no outcome for ${method}`);
  return { receiptId, height, outcome, ...block };
}

function value(o: ExecutionOutcome): Uint8Array {
  if (o.status.kind !== 'SuccessValue') throw new Error(`not a value: ${JSON.stringify(o.status)}`);
  return o.status.value;
}

const stateHas = (c: TestChain, key: Uint8Array) => c.state.has(toHex(key));
const stateGet = (c: TestChain, key: Uint8Array) => c.state.get(toHex(key));

function indices(c: TestChain): [bigint, bigint] | null {
  const raw = stateGet(c, trieKeyPromiseYieldIndices());
  if (!raw) return null;
  const r = new BorshReader(raw);
  return [r.u64(), r.u64()];
}

t.test('promise_yield_create parks the callback and queues its timeout', async (t) => {
  const s = setup();
  const y = call(s, 'yield');
  // nearcore's data id: the receipt's first action hash, then the call's first generated id.
  const expectedDataId = dataId(actionHash(y.receiptId, y.height, 0), y.height, 0);
  const id = value(y.outcome);
  t.same(id, expectedDataId, 'the data id is written to the register');
  // The yield receipt is the call's first new receipt; it is instant, never an outgoing receipt.
  const yieldReceiptId = receiptIdFromReceipt(y.receiptId, y.height, 0);
  t.same(y.outcome.receiptIds[0], yieldReceiptId, 'then the gas refund');
  t.notOk(
    y.res.outgoingReceipts.some((r) => toHex(r.receiptId) === toHex(yieldReceiptId)),
    'not sent out',
  );
  const processed = y.res.processedReceipts.find((r) => toHex(r.receiptId) === toHex(yieldReceiptId));
  t.ok(processed, 'recorded as processed in this chunk');
  const parkedBytes = stateGet(s.c, trieKeyPromiseYieldReceipt(ALICE, id))!;
  const parked = decodeReceipt(parkedBytes);
  t.same(parked.receiptId, yieldReceiptId);
  // nearcore's action_function_call makes every receipt a contract creates an ActionReceiptV2: the
  // yield is a PromiseYieldV2 (tag 6, after predecessor, receiver and id), refund_to None after the
  // signer.
  const tagAt = 4 + ALICE.length + 4 + ALICE.length + 32;
  t.equal(parkedBytes[tagAt], 6, 'stored as a PromiseYieldV2');
  t.equal(parkedBytes[tagAt + 1 + 4 + ALICE.length], 0, 'its refund_to None');
  t.equal(parked.receipt.kind === 'Action' && parked.receipt.refundTo, null);
  t.same(receiptView(parked), receiptView(decodeReceipt(processed!.bytes)));
  const view = receiptView(parked) as { receipt: { Action: Record<string, unknown> } };
  t.equal(view.receipt.Action.is_promise_yield, true);
  t.same(view.receipt.Action.input_data_ids, [base58Encode(id)]);
  t.same(parked.receipt.kind === 'Action' && parked.receipt.inputDataIds, [id]);
  t.same(parked.receipt.kind === 'Action' && parked.receipt.actions, [
    { type: 'FunctionCall', methodName: 'cb', args: new Uint8Array(0), gas: CALLBACK_GAS, deposit: 0n },
  ]);
  t.same(stateGet(s.c, trieKeyPromiseYieldStatus(ALICE, id)), Uint8Array.of(0), 'Yielded');
  t.same(indices(s.c), [0n, 1n]);
  const entry = new BorshReader(stateGet(s.c, trieKeyPromiseYieldTimeout(0n))!);
  t.equal(entry.string(), ALICE);
  t.same(entry.fixed(32), id);
  t.equal(entry.u64(), BigInt(y.height) + TIMEOUT, 'expires at height + yield_timeout_length_in_blocks');
  // Nothing runs while the yield waits.
  const later = s.c.settle(5);
  t.ok(later.length > 0, 'the refund ran');
  t.notOk(later.some((o) => toHex(o.id) === toHex(yieldReceiptId)));
});

t.test('a resume in a later transaction delivers its payload to the callback', async (t) => {
  const s = setup();
  const y = call(s, 'yield');
  const id = value(y.outcome);
  const r = call(s, 'resume', concatBytes(id, utf8('hello')));
  t.same(value(r.outcome), [1], 'promise_yield_resume answers true');
  t.same(r.outcome.receiptIds.length, 1, 'only the gas refund is an action receipt');
  const resume = r.res.outgoingReceipts
    .map((x) => decodeReceipt(x.bytes))
    .find((x) => x.receipt.kind === 'Data');
  t.ok(resume, 'a PromiseResume receipt goes out');
  t.same(
    resume!.receiptId,
    receiptIdFromReceipt(r.receiptId, r.height, 0),
    'it is the call’s first new receipt',
  );
  t.same(resume!.receipt, { kind: 'Data', dataId: id, data: utf8('hello'), isPromiseResume: true });
  t.same(receiptView(resume!), {
    predecessor_id: ALICE,
    receiver_id: ALICE,
    receipt_id: base58Encode(resume!.receiptId),
    receipt: { Data: { data_id: base58Encode(id), data: 'aGVsbG8=', is_promise_resume: true } },
    priority: 0n,
  });
  t.same(stateGet(s.c, trieKeyPromiseYieldStatus(ALICE, id)), Uint8Array.of(1), 'ResumeInitiated');

  const next = s.c.block();
  const yieldReceiptId = receiptIdFromReceipt(y.receiptId, y.height, 0);
  const cb = next.outcomes.find((o) => toHex(o.id) === toHex(yieldReceiptId));
  t.ok(cb, 'the callback runs under the yield receipt’s id');
  t.same(value(cb!), [1, ...utf8('hello')], 'PromiseResult::Successful(payload)');
  t.notOk(stateHas(s.c, trieKeyPromiseYieldReceipt(ALICE, id)));
  t.notOk(stateHas(s.c, trieKeyPromiseYieldStatus(ALICE, id)));
  t.notOk(stateHas(s.c, trieKeyReceivedData(ALICE, id)));
  // The timeout entry stays queued until its height and is then dropped with nothing to resume.
  t.same(indices(s.c), [0n, 1n]);
  while (BigInt(s.c.height) < BigInt(y.height) + TIMEOUT) {
    const b = s.c.block();
    t.same(b.res.outgoingReceipts, [], `no timeout receipt at ${s.c.height}`);
  }
  t.same(indices(s.c), [1n, 1n]);
  t.notOk(stateHas(s.c, trieKeyPromiseYieldTimeout(0n)));
});

t.test('a yield nobody resumes times out with PromiseResult::Failed', async (t) => {
  const s = setup();
  const y = call(s, 'yield');
  const id = value(y.outcome);
  const expiresAt = BigInt(y.height) + TIMEOUT;
  while (BigInt(s.c.height) < expiresAt - 1n) {
    const b = s.c.block();
    t.equal(b.res.outgoingReceipts.length, 0);
  }
  t.same(indices(s.c), [0n, 1n], 'still queued one block before expires_at');
  const at = s.c.block();
  t.equal(BigInt(s.c.height), expiresAt);
  t.same(indices(s.c), [1n, 1n]);
  t.equal(at.res.outgoingReceipts.length, 1);
  const timeout = decodeReceipt(at.res.outgoingReceipts[0]!.bytes);
  t.same(timeout, {
    predecessorId: ALICE,
    receiverId: ALICE,
    receiptId: receiptIdFromReceipt(id, s.c.height, 0),
    receipt: { kind: 'Data', dataId: id, data: null, isPromiseResume: true },
  });
  const after = s.c.block();
  const cb = after.outcomes.find(
    (o) => toHex(o.id) === toHex(receiptIdFromReceipt(y.receiptId, y.height, 0)),
  );
  t.same(value(cb!), [2], 'PromiseResult::Failed');
  t.notOk(stateHas(s.c, trieKeyPromiseYieldReceipt(ALICE, id)));
  t.notOk(stateHas(s.c, trieKeyPromiseYieldStatus(ALICE, id)));
  // Too late: the yield is gone.
  const late = call(s, 'resume', concatBytes(id, utf8('late')));
  t.same(value(late.outcome), [0]);
  t.notOk(late.res.outgoingReceipts.some((x) => decodeReceipt(x.bytes).receipt.kind === 'Data'));
});

t.test('timeouts are resolved only while the chunk has gas left, oldest first', async (t) => {
  const s = setup();
  const first = value(call(s, 'yield').outcome);
  const second = value(call(s, 'yield').outcome);
  t.same(indices(s.c), [0n, 2n]);
  const firstExpires = new BorshReader(stateGet(s.c, trieKeyPromiseYieldTimeout(0n))!);
  firstExpires.string();
  firstExpires.fixed(32);
  const expiresAt = firstExpires.u64();
  while (BigInt(s.c.height) < expiresAt - 1n) s.c.block();
  // The first expires in the next chunk, but a chunk whose gas is spent resolves none.
  const limit = s.c.gasLimit;
  s.c.gasLimit = 0n;
  const full = s.c.block();
  t.equal(full.res.outgoingReceipts.length, 0);
  t.same(indices(s.c), [0n, 2n]);
  s.c.gasLimit = limit;
  // Both have expired by the chunk after.
  const both = s.c.block();
  t.same(indices(s.c), [2n, 2n]);
  t.same(
    both.res.outgoingReceipts.map((r) => {
      const x = decodeReceipt(r.bytes);
      return [x.receiptId, x.receipt.kind === 'Data' ? x.receipt.dataId : null];
    }),
    [
      [receiptIdFromReceipt(first, s.c.height, 0), first],
      [receiptIdFromReceipt(second, s.c.height, 1), second],
    ],
    'queue order; the k-th resume of the chunk is salted with k',
  );
});

t.test('a yield resumed by the call that created it (its status is all there is yet)', async (t) => {
  const s = setup();
  const y = call(s, 'yield_and_resume');
  t.same(value(y.outcome), [1]);
  const id = dataId(actionHash(y.receiptId, y.height, 0), y.height, 0);
  t.ok(stateHas(s.c, trieKeyPromiseYieldReceipt(ALICE, id)), 'parked after the call');
  t.same(stateGet(s.c, trieKeyPromiseYieldStatus(ALICE, id)), Uint8Array.of(1), 'ResumeInitiated');
  // The yield receipt is new receipt 0, the resume 1 (data receipts follow the call's action receipts).
  const resume = y.res.outgoingReceipts
    .map((r) => decodeReceipt(r.bytes))
    .find((r) => r.receipt.kind === 'Data');
  t.same(resume?.receiptId, receiptIdFromReceipt(y.receiptId, y.height, 1));
  const next = s.c.block();
  const cb = next.outcomes.find((o) => toHex(o.id) === toHex(receiptIdFromReceipt(y.receiptId, y.height, 0)));
  t.same(value(cb!), [1, ...utf8('cb')]);
});

t.test('resuming an unknown id answers false and sends nothing', async (t) => {
  const s = setup();
  const r = call(s, 'resume', concatBytes(new Uint8Array(32).fill(7), utf8('x')));
  t.same(value(r.outcome), [0]);
  t.notOk(r.res.outgoingReceipts.some((x) => decodeReceipt(x.bytes).receipt.kind === 'Data'));
  t.notOk(stateHas(s.c, trieKeyPromiseYieldStatus(ALICE, new Uint8Array(32).fill(7))));
});

t.test(
  'a second resume: accepted while the first is in flight, then dropped; false afterwards',
  async (t) => {
    const s = setup();
    const y = call(s, 'yield');
    const id = value(y.outcome);
    const tx1 = signTx(alice, ALICE, ALICE, s.nonce++, [
      {
        type: 'FunctionCall',
        methodName: 'resume',
        args: concatBytes(id, utf8('first')),
        gas: 100_000_000_000_000n,
        deposit: 0n,
      },
    ]);
    const tx2 = signTx(alice, ALICE, ALICE, s.nonce++, [
      {
        type: 'FunctionCall',
        methodName: 'resume',
        args: concatBytes(id, utf8('second')),
        gas: 100_000_000_000_000n,
        deposit: 0n,
      },
    ]);
    const both = s.c.block([tx1.bytes, tx2.bytes]);
    const h = s.c.height;
    for (const tx of [tx1, tx2]) {
      const o = both.outcomes.find((x) => toHex(x.id) === toHex(receiptIdFromTransaction(tx.hash, h)));
      t.same(value(o!), [1], 'the yield is still parked, so both resumes are sent');
    }
    t.equal(
      both.res.outgoingReceipts.filter((x) => decodeReceipt(x.bytes).receipt.kind === 'Data').length,
      2,
    );
    const next = s.c.block();
    const runs = next.outcomes.filter(
      (o) => toHex(o.id) === toHex(receiptIdFromReceipt(y.receiptId, y.height, 0)),
    );
    t.equal(runs.length, 1, 'the callback runs once');
    t.same(value(runs[0]!), [1, ...utf8('first')]);
    const third = call(s, 'resume', concatBytes(id, utf8('third')));
    t.same(value(third.outcome), [0], 'nothing left to resume');
  },
);

t.test('a resume in the chunk where the timeout fires wins over the timeout', async (t) => {
  const s = setup();
  const y = call(s, 'yield');
  const id = value(y.outcome);
  while (BigInt(s.c.height) < BigInt(y.height) + TIMEOUT - 1n) s.c.block();
  const r = call(s, 'resume', concatBytes(id, utf8('just in time')));
  t.equal(BigInt(r.height), BigInt(y.height) + TIMEOUT);
  t.same(value(r.outcome), [1]);
  const resumes = r.res.outgoingReceipts
    .map((x) => decodeReceipt(x.bytes))
    .filter((x) => x.receipt.kind === 'Data');
  t.same(
    resumes.map((x) => (x.receipt.kind === 'Data' ? x.receipt.data : undefined)),
    [utf8('just in time'), null],
    'the resume, then the timeout',
  );
  const next = s.c.block();
  const runs = next.outcomes.filter(
    (o) => toHex(o.id) === toHex(receiptIdFromReceipt(y.receiptId, y.height, 0)),
  );
  t.equal(runs.length, 1);
  t.same(value(runs[0]!), [1, ...utf8('just in time')]);
});

t.test('YieldWithId: a caller-chosen id, duplicates refused while pending, resume by that id', async (t) => {
  const s = setup();
  const yid = new Uint8Array(32).fill(0x42);
  const a = call(s, 'yield_id', yid);
  t.same(value(a.outcome), new Uint8Array(8), 'promise index 0');
  const dataIdA = dataId(actionHash(a.receiptId, a.height, 0), a.height, 0);
  t.same(stateGet(s.c, trieKeyYieldIdToDataId(ALICE, yid)), dataIdA);
  const dup = call(s, 'yield_id', yid);
  t.same(new BorshReader(value(dup.outcome)).u64(), U64_MAX, 'u64::MAX while the id is pending');
  t.same(dup.outcome.receiptIds.length, 1, 'no yield receipt, only the gas refund');
  t.same(indices(s.c), [0n, 1n]);
  const unknown = call(s, 'resume_id', concatBytes(new Uint8Array(32).fill(1), utf8('nope')));
  t.same(value(unknown.outcome), [0]);
  const r = call(s, 'resume_id', concatBytes(yid, utf8('by id')));
  t.same(value(r.outcome), [1]);
  const next = s.c.block();
  const cb = next.outcomes.find((o) => toHex(o.id) === toHex(receiptIdFromReceipt(a.receiptId, a.height, 0)));
  t.same(value(cb!), [1, ...utf8('by id')]);
  t.notOk(stateHas(s.c, trieKeyYieldIdToDataId(ALICE, yid)), 'the mapping is cleared with the yield');
  const again = call(s, 'yield_id', yid);
  t.same(value(again.outcome), new Uint8Array(8), 'the id can be used again');
});

t.test('a failing call keeps none of its yields', async (t) => {
  const s = setup();
  // Too little gas for the callback's prepaid 20 Tgas: the call fails and rolls back.
  const tx = signTx(alice, ALICE, ALICE, s.nonce++, [
    {
      type: 'FunctionCall',
      methodName: 'yield',
      args: new Uint8Array(0),
      gas: 10_000_000_000_000n,
      deposit: 0n,
    },
  ]);
  const b = s.c.block([tx.bytes]);
  const o = b.outcomes.find((x) => toHex(x.id) === toHex(receiptIdFromTransaction(tx.hash, s.c.height)));
  t.equal(o!.status.kind, 'Failure');
  t.equal(indices(s.c), null);
  t.notOk([...s.c.state.keys()].some((k) => k.startsWith('0c') || k.startsWith('14')));
});

// Gas of the host functions themselves, run through the VM over the runtime's External.
function runGo(
  state: TrieUpdate,
  calls: string[],
  memory: string,
): { burnt: bigint; used: bigint; code: Uint8Array; ops: bigint } {
  const body = calls.map((c) => `(drop (call ${c}))`).join(' ');
  const code = wat(`(module
    (import "env" "promise_yield_create" (func $yc (param i64 i64 i64 i64 i64 i64 i64) (result i64)))
    (import "env" "promise_yield_create_with_id"
      (func $ycid (param i64 i64 i64 i64 i64 i64 i64 i64 i64) (result i64)))
    (import "env" "promise_yield_resume" (func $yr (param i64 i64 i64 i64) (result i32)))
    (memory 1)
    ${memory}
    (func (export "go") ${body}))`);
  // The function entry (ceil(64-byte frame / 8) = 8 ops), then per call its i64.const arguments, the
  // call and the drop (`end` is free).
  const ops = calls.reduce((n, c) => n + BigInt(c.split('i64.const').length - 1) + 2n, 8n);
  const out = runFunction({
    code,
    codeHash: sha256(code),
    methodName: 'go',
    context: selfCallContext(ALICE),
    config: config.wasm,
    fees: config.fees,
    external: new RuntimeExt(state, ALICE, new Uint8Array(32), 10, new Map()),
  });
  if (out.aborted)
    throw new Error(JSON.stringify(out.aborted, (_k, v) => (typeof v === 'bigint' ? `${v}` : v)));
  return { burnt: out.burnt_gas, used: out.used_gas, code, ops, profile: out.profile };
}

const emptyState = () => new TrieUpdate({ get: () => undefined });
const loading = (code: Uint8Array) =>
  ext('contract_loading_base') + ext('contract_loading_bytes') * BigInt(code.length);
const opsGas = (ops: bigint) => ops * BigInt(SNAPSHOT.wasm_config.regular_op_cost);
const readMemory = (n: number) => ext('read_memory_base') + ext('read_memory_byte') * BigInt(n);
// pay_gas_for_new_receipt(sir = true, [true]) and the callback's function call, sent to itself.
const newYieldReceiptBurnt = (n: number) =>
  FEES.receipt.sendSir +
  FEES.dataBase.sendSir +
  FEES.dataBase.exec +
  FEES.functionCallBase.sendSir +
  FEES.functionCallByte.sendSir * BigInt(n);
const newYieldReceiptExec = (n: number) =>
  FEES.receipt.exec + FEES.functionCallBase.exec + FEES.functionCallByte.exec * BigInt(n);

t.test('gas: promise_yield_create charges nearcore’s fees and reserves the callback’s gas', async (t) => {
  // method "cb" (2 bytes) and args "xyz" (3 bytes); data id into register 0.
  const g = runGo(
    emptyState(),
    [
      `$yc (i64.const 2) (i64.const 0) (i64.const 3) (i64.const 2) (i64.const ${CALLBACK_GAS}) (i64.const 0) (i64.const 0)`,
    ],
    '(data (i32.const 0) "cbxyz")',
  );
  const host =
    ext('base') +
    ext('yield_create_base') +
    readMemory(2) +
    readMemory(3) +
    ext('yield_create_byte') * 5n +
    newYieldReceiptBurnt(5) +
    ext('write_register_base') +
    ext('write_register_byte') * 32n;
  t.equal(g.burnt, loading(g.code) + opsGas(g.ops) + host);
  t.equal(g.used, g.burnt + CALLBACK_GAS + newYieldReceiptExec(5));
  // The profile: nearcore books the data dependency with the receipt, and only burnt gas.
  const p = g.profile;
  t.equal(
    p.getActionCost('new_action_receipt'),
    FEES.receipt.sendSir + FEES.dataBase.sendSir + FEES.dataBase.exec,
  );
  t.equal(p.getActionCost('function_call_base'), FEES.functionCallBase.sendSir);
  t.equal(p.getActionCost('function_call_byte'), FEES.functionCallByte.sendSir * 5n);
  t.equal(p.getExtCost('yield_create_base'), ext('yield_create_base'));
  t.equal(p.getExtCost('yield_create_byte'), ext('yield_create_byte') * 5n);
  t.equal(p.getWasmCost(), opsGas(g.ops));
});

t.test('gas: promise_yield_create_with_id, and a pending id charges no receipt', async (t) => {
  const yieldId = '\\42'.repeat(32);
  const createCall = `$ycid (i64.const 2) (i64.const 0) (i64.const 3) (i64.const 2) (i64.const 100) (i64.const ${CALLBACK_GAS}) (i64.const 0) (i64.const 32) (i64.const 200)`;
  const mem = `(data (i32.const 0) "cbxyz") (data (i32.const 200) "${yieldId}")`;
  const reads = readMemory(16) + readMemory(2) + readMemory(3) + readMemory(32);
  const upToId = ext('base') + ext('yield_create_with_id_base') + reads + ext('yield_create_byte') * 5n;
  const once = runGo(emptyState(), [createCall], mem);
  t.equal(once.burnt, loading(once.code) + opsGas(once.ops) + upToId + newYieldReceiptBurnt(5));
  t.equal(once.used, once.burnt + CALLBACK_GAS + newYieldReceiptExec(5));
  // The same id twice in one call: the second finds the first's mapping and stops there.
  const twice = runGo(emptyState(), [createCall, createCall], mem);
  t.equal(twice.burnt, loading(twice.code) + opsGas(twice.ops) + 2n * upToId + newYieldReceiptBurnt(5));
});

t.test('gas: promise_yield_resume charges base, yield_resume_base and per payload byte', async (t) => {
  const g = runGo(
    emptyState(),
    ['$yr (i64.const 32) (i64.const 0) (i64.const 10) (i64.const 100)'],
    '(data (i32.const 100) "0123456789")',
  );
  const host =
    ext('base') + ext('yield_resume_base') + ext('yield_resume_byte') * 10n + readMemory(32) + readMemory(10);
  t.equal(g.burnt, loading(g.code) + opsGas(g.ops) + host);
  t.equal(g.used, g.burnt, 'an unknown id sends nothing');
});

t.test('limits: payload over max_yield_payload_size, malformed ids', async (t) => {
  const limit = BigInt(SNAPSHOT.wasm_config.limit_config.max_yield_payload_size!);
  t.equal(limit, 1024n);
  t.throws(
    () =>
      runGo(emptyState(), [`$yr (i64.const 32) (i64.const 0) (i64.const ${limit + 1n}) (i64.const 100)`], ''),
    /YieldPayloadLength.*"length":"1025","limit":"1024"/,
  );
  t.throws(
    () => runGo(emptyState(), ['$yr (i64.const 31) (i64.const 0) (i64.const 1) (i64.const 100)'], ''),
    /DataIdMalformed/,
  );
  t.throws(
    () =>
      runGo(
        emptyState(),
        [
          `$ycid (i64.const 2) (i64.const 0) (i64.const 0) (i64.const 0) (i64.const 100) (i64.const 0) (i64.const 0) (i64.const 31) (i64.const 200)`,
        ],
        '(data (i32.const 0) "cb")',
      ),
    /YieldIdMalformed/,
  );
});

// y.alice.near's contracts. Both: yield parks "cb" and returns the data id. The first: cb returns
// the promise_result status; die deletes the account, its balance to alice.near. The second, deployed
// on the account made again under the same id: cb returns "new" and the status.
const DYING = wat(`(module
  (import "env" "value_return" (func $value_return (param i64 i64)))
  (import "env" "promise_result" (func $promise_result (param i64 i64) (result i64)))
  (import "env" "promise_yield_create" (func $yc (param i64 i64 i64 i64 i64 i64 i64) (result i64)))
  (import "env" "current_account_id" (func $me (param i64)))
  (import "env" "read_register" (func $read_register (param i64 i64)))
  (import "env" "register_len" (func $register_len (param i64) (result i64)))
  (import "env" "promise_batch_create" (func $batch (param i64 i64) (result i64)))
  (import "env" "promise_batch_action_delete_account" (func $delete (param i64 i64 i64)))
  (memory 1)
  (data (i32.const 0) "cb")
  (data (i32.const 16) "alice.near")
  (func (export "yield")
    (drop (call $yc (i64.const 2) (i64.const 0) (i64.const 0) (i64.const 0)
      (i64.const ${CALLBACK_GAS}) (i64.const 0) (i64.const 0)))
    (call $value_return (i64.const -1) (i64.const 0)))
  (func (export "die")
    (call $me (i64.const 1))
    (call $read_register (i64.const 1) (i64.const 100))
    (call $delete
      (call $batch (call $register_len (i64.const 1)) (i64.const 100))
      (i64.const 10) (i64.const 16)))
  (func (export "cb")
    (i64.store8 (i32.const 2000) (call $promise_result (i64.const 0) (i64.const 1)))
    (call $value_return (i64.const 1) (i64.const 2000))))`);
const NEWBORN = wat(`(module
  (import "env" "value_return" (func $value_return (param i64 i64)))
  (import "env" "promise_result" (func $promise_result (param i64 i64) (result i64)))
  (memory 1)
  (data (i32.const 2000) "new")
  (func (export "cb")
    (i64.store8 (i32.const 2003) (call $promise_result (i64.const 0) (i64.const 1)))
    (call $value_return (i64.const 4) (i64.const 2000))))`);

t.test('a yield outlives its account: the timeout runs the callback on the account made again', async (t) => {
  // nearcore's remove_account takes the account, its code, keys and data, not its parked yields,
  // their statuses or their place in the timeout queue.
  const s = setup();
  const Y = 'y.alice.near';
  /** alice's transaction to Y, and the block after, where its receipt runs. */
  const toY = (actions: Action[]) => {
    const tx = signTx(alice, ALICE, Y, s.nonce++, actions);
    const receiptId = receiptIdFromTransaction(tx.hash, s.c.height + 1);
    s.c.block([tx.bytes]);
    const ran = s.c.block();
    const outcome = ran.outcomes.find((o) => toHex(o.id) === toHex(receiptId));
    if (!outcome) throw new Error('the receipt did not run');
    return { receiptId, height: s.c.height, outcome, ...ran };
  };
  const callY = (methodName: string) =>
    toY([
      { type: 'FunctionCall', methodName, args: new Uint8Array(0), gas: 100_000_000_000_000n, deposit: 0n },
    ]);
  const make = (code: Uint8Array) =>
    toY([
      { type: 'CreateAccount' },
      { type: 'Transfer', deposit: 10n * NEAR },
      { type: 'DeployContract', code },
    ]);

  make(await DYING);
  const y = callY('yield');
  const id = value(y.outcome);
  const callbackId = receiptIdFromReceipt(y.receiptId, y.height, 0);
  const expiresAt = BigInt(y.height) + TIMEOUT;
  t.ok(stateHas(s.c, trieKeyPromiseYieldReceipt(Y, id)), 'the callback is parked');

  callY('die');
  s.c.block();
  t.equal(s.c.account(Y), null, `${Y} deleted itself`);
  t.ok(stateHas(s.c, trieKeyPromiseYieldReceipt(Y, id)), 'its parked callback stays');
  t.ok(stateHas(s.c, trieKeyPromiseYieldStatus(Y, id)), 'and the yield’s status');
  t.same(indices(s.c), [0n, 1n], 'and its place in the timeout queue');

  make(await NEWBORN);
  t.ok(s.c.account(Y), `${Y} made again, with another contract`);
  let cb: ExecutionOutcome | undefined;
  while (!cb && BigInt(s.c.height) <= expiresAt + 2n)
    cb = s.c.block().outcomes.find((o) => toHex(o.id) === toHex(callbackId));
  t.ok(cb, 'the callback ran at the timeout');
  t.equal(cb!.executorId, Y);
  t.same(value(cb!), [...utf8('new'), 2], 'in the new contract, with PromiseResult::Failed');
  t.notOk(stateHas(s.c, trieKeyPromiseYieldReceipt(Y, id)), 'nothing of the yield is left');
  t.notOk(stateHas(s.c, trieKeyPromiseYieldStatus(Y, id)));
});
