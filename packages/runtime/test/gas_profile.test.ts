// Gas profiles and ExecutionMetadataV4 as nearcore produces them. Shapes, names, order and the
// rule that relates a profile to gas_burnt come from real outcomes (fixtures/real_receipt_outcomes.json,
// copied from mainnet and testnet blocks); the numbers of our own receipts come from nearcore's
// parameter snapshot and the host calls a contract compiled here makes.

import { readFileSync } from 'node:fs';
import {
  BorshError,
  BorshWriter,
  base58Encode,
  receiptIdFromTransaction,
  sha256,
  toHex,
} from '@nearlite/primitives';
import {
  type CostGasUsed,
  decodeOutcome,
  type ExecutionOutcome,
  encodeOutcome,
  gasProfileView,
  outcomeView,
  profileFromView,
  Runtime,
  VmFunctionCallRunner,
} from '@nearlite/runtime';
import { ProfileDataV3 } from '@nearlite/vm';
import t from 'tap';
import { config, keyFromSeed, NEAR, signTx, TestChain, wat } from './helpers.js';
import { ext, FEES, SNAPSHOT } from './snapshot.js';

interface RealOutcome {
  source: string;
  receipt: {
    predecessor_id: string;
    receipt: { Action?: { actions: (Record<string, Record<string, unknown>> | string)[] } };
  };
  execution_outcome: {
    outcome: { gas_burnt: number; metadata: { version: number; gas_profile: CostGasUsed[] } };
  };
}

const REAL = JSON.parse(
  readFileSync(new URL('./fixtures/real_receipt_outcomes.json', import.meta.url), 'utf8'),
) as RealOutcome[];
const REGULAR_OP_COST = BigInt(SNAPSHOT.wasm_config.regular_op_cost);

function actionsOf(o: RealOutcome): (Record<string, Record<string, unknown>> | string)[] {
  return o.receipt.receipt.Action?.actions ?? [];
}

function kind(a: Record<string, unknown> | string): string {
  return typeof a === 'string' ? a : Object.keys(a)[0]!;
}

function sum(costs: readonly CostGasUsed[]): bigint {
  return costs.reduce((s, c) => s + BigInt(c.gas_used), 0n);
}

t.test('real profiles: names, zero entries left out, and the order the view sorts them in', async (t) => {
  t.ok(REAL.length >= 15);
  for (const o of REAL) {
    const m = o.execution_outcome.outcome.metadata;
    t.equal(m.version, 3, `${o.source}: protocol < 85 outcomes are V3`);
    t.ok(
      m.gas_profile.every((c) => BigInt(c.gas_used) > 0n),
      'zero entries are left out',
    );
    // Rebuild the profile entry by entry in reverse order: the view must restore nearcore's order.
    const p = profileFromView([...m.gas_profile].reverse());
    t.same(gasProfileView(p), m.gas_profile, `${o.source}: the view reproduces nearcore's list`);
  }
  const withActions = REAL.filter((o) =>
    o.execution_outcome.outcome.metadata.gas_profile.some((c) => c.cost_category === 'ACTION_COST'),
  );
  t.ok(withActions.length > 0, 'the fixtures include contracts that created receipts');
});

t.test("nearcore's rule: a receipt's own exec fees are in gas_burnt, never in its profile", async (t) => {
  const receiptExec = FEES.receipt.exec;
  let transfers = 0;
  let calls = 0;
  for (const o of REAL) {
    const out = o.execution_outcome.outcome;
    const profile = out.metadata.gas_profile;
    const actions = actionsOf(o);
    const kinds = actions.map(kind);
    if (kinds.length === 1 && kinds[0] === 'Transfer') {
      transfers++;
      t.same(profile, [], 'a transfer has an empty profile');
      t.equal(BigInt(out.gas_burnt), receiptExec + FEES.transfer.exec);
    }
    if (kinds.length > 0 && kinds.every((k) => k === 'FunctionCall')) {
      calls++;
      let fees = receiptExec;
      for (const a of actions) {
        const fc = (a as Record<string, { method_name: string; args: string }>).FunctionCall!;
        const bytes = BigInt(fc.method_name.length + Buffer.from(fc.args, 'base64').length);
        fees += FEES.functionCallBase.exec + bytes * FEES.functionCallByte.exec;
      }
      t.equal(sum(profile) + fees, BigInt(out.gas_burnt), `${o.source}: profile + exec fees = gas_burnt`);
      const wasm = profile.find((c) => c.cost === 'WASM_INSTRUCTION');
      t.ok(wasm, 'a contract ran instructions');
      t.equal(BigInt(wasm!.gas_used) % REGULAR_OP_COST, 0n, 'instructions cost regular_op_cost each');
    }
  }
  t.ok(transfers >= 5 && calls >= 5, `checked ${transfers} transfers and ${calls} function calls`);
});

// work: reads its input, writes "key" = "value!", logs "hello gas", sends 1 yocto to bob.near and
// returns "value!". Every host call below is counted in the expectations of the next test.
const CONTRACT = wat(`(module
  (import "env" "input" (func $input (param i64)))
  (import "env" "storage_write" (func $sw (param i64 i64 i64 i64 i64) (result i64)))
  (import "env" "log_utf8" (func $log (param i64 i64)))
  (import "env" "value_return" (func $vr (param i64 i64)))
  (import "env" "promise_batch_create" (func $pbc (param i64 i64) (result i64)))
  (import "env" "promise_batch_action_transfer" (func $pbat (param i64 i64)))
  (memory 1)
  (data (i32.const 0) "key")
  (data (i32.const 8) "value!")
  (data (i32.const 16) "hello gas")
  (data (i32.const 32) "bob.near")
  (data (i32.const 48) "\\01")
  (func (export "work")
    (call $input (i64.const 0))
    (drop (call $sw (i64.const 3) (i64.const 0) (i64.const 6) (i64.const 8) (i64.const 1)))
    (call $log (i64.const 9) (i64.const 16))
    (call $pbat (call $pbc (i64.const 8) (i64.const 32)) (i64.const 48))
    (call $vr (i64.const 6) (i64.const 8)))
  (func (export "boom") unreachable))`);
const CODE_HASH = base58Encode(sha256(CONTRACT));
// No arguments: input's register write then costs write_register_base only, whichever way the
// protocol charges input bytes.
const ARGS = new Uint8Array(0);
const GAS = 100_000_000_000_000n;

const alice = keyFromSeed(1);
const ALICE = 'alice.near';

function chain(): { c: TestChain; nonce: () => bigint } {
  const c = new TestChain(
    new Runtime({
      config,
      chainId: 'test',
      validators: new Map(),
      functionCall: new VmFunctionCallRunner(),
    }),
  );
  c.addAccount(ALICE, 100n * NEAR, alice);
  c.addAccount('bob.near', NEAR);
  let n = 1n;
  return { c, nonce: () => n++ };
}

interface MetadataView {
  version: number;
  gas_profile: CostGasUsed[];
  contracts?: unknown[];
}

function metadata(o: ExecutionOutcome): MetadataView {
  return (outcomeView(o) as { metadata: MetadataView }).metadata;
}

function byId(outcomes: ExecutionOutcome[], id: Uint8Array): ExecutionOutcome {
  const o = outcomes.find((x) => toHex(x.id) === toHex(id));
  if (!o) throw new Error('no outcome');
  return o;
}

const action = (cost: string, gas: bigint): CostGasUsed => ({
  cost_category: 'ACTION_COST',
  cost,
  gas_used: gas.toString(),
});
const host = (cost: string, gas: bigint): CostGasUsed => ({
  cost_category: 'WASM_HOST_COST',
  cost,
  gas_used: gas.toString(),
});

t.test("a function call's profile: its host calls, the receipt it sent, its instructions", async (t) => {
  const { c, nonce } = chain();
  c.block([signTx(alice, ALICE, ALICE, nonce(), [{ type: 'DeployContract', code: CONTRACT }]).bytes]);
  const tx = signTx(alice, ALICE, ALICE, nonce(), [
    { type: 'FunctionCall', methodName: 'work', args: ARGS, gas: GAS, deposit: 0n },
  ]);
  const receiptId = receiptIdFromTransaction(tx.hash, c.height + 1);
  const { outcomes } = c.block([tx.bytes]);
  const o = byId(outcomes, receiptId);
  t.equal(o.status.kind, 'SuccessValue');
  const m = metadata(o);
  t.equal(m.version, 4, 'protocol 85+ receipts carry ExecutionMetadataV4');
  t.same(m.contracts, [{ local: CODE_HASH }], 'the contract that ran, by its local code hash');

  // Host calls: input, storage_write, log_utf8, promise_batch_create, promise_batch_action_transfer,
  // value_return. Memory reads: key 3 + value 6 + log 9 + account id 8 + u128 amount 16 + return 6.
  const readBytes = 3n + 6n + 9n + 8n + 16n + 6n;
  const wasm = m.gas_profile.find((x) => x.cost === 'WASM_INSTRUCTION');
  t.ok(wasm, 'the instructions are in the profile');
  t.equal(BigInt(wasm!.gas_used) % REGULAR_OP_COST, 0n, 'a whole number of instructions');
  const expected: CostGasUsed[] = [
    action('NEW_ACTION_RECEIPT', FEES.receipt.sendNotSir),
    action('TRANSFER', FEES.transfer.sendNotSir),
    host('BASE', 6n * ext('base')),
    host('CONTRACT_LOADING_BASE', ext('contract_loading_base')),
    host('CONTRACT_LOADING_BYTES', BigInt(CONTRACT.length) * ext('contract_loading_bytes')),
    host('LOG_BASE', ext('log_base')),
    host('LOG_BYTE', 9n * ext('log_byte')),
    host('READ_MEMORY_BASE', 6n * ext('read_memory_base')),
    host('READ_MEMORY_BYTE', readBytes * ext('read_memory_byte')),
    host('STORAGE_WRITE_BASE', ext('storage_write_base')),
    host('STORAGE_WRITE_KEY_BYTE', 3n * ext('storage_write_key_byte')),
    host('STORAGE_WRITE_VALUE_BYTE', 6n * ext('storage_write_value_byte')),
    host('UTF8_DECODING_BASE', 2n * ext('utf8_decoding_base')),
    host('UTF8_DECODING_BYTE', 17n * ext('utf8_decoding_byte')),
    wasm!,
    host('WRITE_REGISTER_BASE', ext('write_register_base')),
  ];
  t.same(m.gas_profile, expected);
  const execFees =
    FEES.receipt.exec +
    FEES.functionCallBase.exec +
    BigInt('work'.length + ARGS.length) * FEES.functionCallByte.exec;
  t.equal(sum(m.gas_profile) + execFees, o.gasBurnt, 'profile + the exec fees = gas_burnt');

  // The transfer the contract sent, and the refund back to alice: no contract runs, empty profiles.
  const later = c.settle();
  const toBob = later.find((x) => x.executorId === 'bob.near')!;
  t.same(metadata(toBob), { version: 4, gas_profile: [], contracts: [null] });
  t.equal(toBob.gasBurnt, FEES.receipt.exec + FEES.transfer.exec);
  const refund = later.find((x) => x.executorId === ALICE)!;
  t.same(metadata(refund), { version: 4, gas_profile: [], contracts: [{ local: CODE_HASH }] });
});

t.test('contracts: the one the receiver had right before each action, padded after a failure', async (t) => {
  const { c, nonce } = chain();
  const deployAndCall = signTx(alice, ALICE, ALICE, nonce(), [
    { type: 'DeployContract', code: CONTRACT },
    { type: 'FunctionCall', methodName: 'work', args: ARGS, gas: GAS, deposit: 0n },
  ]);
  const first = receiptIdFromTransaction(deployAndCall.hash, c.height + 1);
  const b1 = c.block([deployAndCall.bytes]);
  t.same(metadata(byId(b1.outcomes, first)).contracts, [null, { local: CODE_HASH }]);

  const failing = signTx(alice, ALICE, ALICE, nonce(), [
    { type: 'FunctionCall', methodName: 'boom', args: new Uint8Array(0), gas: GAS, deposit: 0n },
    { type: 'Transfer', deposit: 1n },
  ]);
  const second = receiptIdFromTransaction(failing.hash, c.height + 1);
  const o = byId(c.block([failing.bytes]).outcomes, second);
  t.equal(o.status.kind, 'Failure');
  const m = metadata(o);
  t.same(m.contracts, [{ local: CODE_HASH }, null], 'the transfer never ran');
  // A failed call keeps its profile; the transfer's exec fee was never charged.
  t.same(
    m.gas_profile.map((x) => x.cost),
    ['CONTRACT_LOADING_BASE', 'CONTRACT_LOADING_BYTES', 'WASM_INSTRUCTION'],
  );
  const execFees =
    FEES.receipt.exec + FEES.functionCallBase.exec + BigInt('boom'.length) * FEES.functionCallByte.exec;
  t.equal(sum(m.gas_profile) + execFees, o.gasBurnt);
});

t.test("two calls in one receipt: their profiles add up (nearcore's merge)", async (t) => {
  const { c, nonce } = chain();
  c.block([signTx(alice, ALICE, ALICE, nonce(), [{ type: 'DeployContract', code: CONTRACT }]).bytes]);
  const work = { type: 'FunctionCall', methodName: 'work', args: ARGS, gas: GAS, deposit: 0n } as const;
  const tx = signTx(alice, ALICE, ALICE, nonce(), [work, work]);
  const receiptId = receiptIdFromTransaction(tx.hash, c.height + 1);
  const o = byId(c.block([tx.bytes]).outcomes, receiptId);
  t.equal(o.status.kind, 'SuccessValue');
  const m = metadata(o);
  t.same(m.contracts, [{ local: CODE_HASH }, { local: CODE_HASH }]);
  const get = (cost: string) => BigInt(m.gas_profile.find((x) => x.cost === cost)?.gas_used ?? '0');
  t.equal(get('BASE'), 12n * ext('base'));
  t.equal(get('CONTRACT_LOADING_BASE'), 2n * ext('contract_loading_base'));
  t.equal(get('NEW_ACTION_RECEIPT'), 2n * FEES.receipt.sendNotSir);
  t.equal(get('TRANSFER'), 2n * FEES.transfer.sendNotSir);
  // The second write finds the first one's 6 bytes: they go to register 1 and are paid as evicted.
  t.equal(get('STORAGE_WRITE_EVICTED_BYTE'), 6n * ext('storage_write_evicted_byte'));
  t.equal(get('WRITE_REGISTER_BASE'), 3n * ext('write_register_base'));
  t.equal(get('WRITE_REGISTER_BYTE'), 6n * ext('write_register_byte'));
  const execFees =
    FEES.receipt.exec +
    2n * (FEES.functionCallBase.exec + BigInt('work'.length) * FEES.functionCallByte.exec);
  t.equal(sum(m.gas_profile) + execFees, o.gasBurnt);
});

t.test('the transaction outcome keeps V1 metadata', async (t) => {
  const { c, nonce } = chain();
  const tx = signTx(alice, ALICE, 'bob.near', nonce(), [{ type: 'Transfer', deposit: 1n }]);
  const txOutcome = byId(c.block([tx.bytes]).outcomes, tx.hash);
  t.same(metadata(txOutcome), { version: 1, gas_profile: null });
});

t.test('outcome codec: V4 metadata round-trips; old and corrupt bytes', async (t) => {
  const profile = new ProfileDataV3();
  profile.addActionCost('transfer', 7n);
  profile.addExtCost('base', 11n);
  profile.setWasmCost(13n);
  const o: ExecutionOutcome = {
    id: new Uint8Array(32).fill(1),
    logs: [],
    receiptIds: [],
    gasBurnt: 31n,
    tokensBurnt: 0n,
    executorId: 'a.near',
    status: { kind: 'SuccessValue', value: new Uint8Array(0) },
    metadata: {
      version: 4,
      profile,
      contracts: [
        { kind: 'None' },
        { kind: 'Local', hash: new Uint8Array(32).fill(2) },
        { kind: 'Global', hash: new Uint8Array(32).fill(3) },
        { kind: 'GlobalByAccount', accountId: 'factory.near' },
      ],
    },
  };
  const back = decodeOutcome(encodeOutcome(o));
  t.same(outcomeView(back), outcomeView(o));
  t.same((outcomeView(back) as { metadata: unknown }).metadata, {
    version: 4,
    gas_profile: [action('TRANSFER', 7n), host('BASE', 11n), host('WASM_INSTRUCTION', 13n)],
    contracts: [
      null,
      { local: base58Encode(new Uint8Array(32).fill(2)) },
      { global_hash: base58Encode(new Uint8Array(32).fill(3)) },
      { global_account_id: 'factory.near' },
    ],
  });

  // Outcomes stored before profiles ended in a bare version byte 3.
  const plain: ExecutionOutcome = { ...o, metadata: { version: 1 } };
  const old = encodeOutcome(plain);
  old[old.length - 1] = 3;
  t.same((outcomeView(decodeOutcome(old)) as { metadata: unknown }).metadata, {
    version: 3,
    gas_profile: [],
  });

  const w = new BorshWriter(64);
  w.u8(4).vec(['no_such_cost'], (w, n) => w.string(n).u64(1n));
  const corrupt = new Uint8Array([...encodeOutcome(plain).slice(0, -1), ...w.toBytes()]);
  t.throws(() => decodeOutcome(corrupt), BorshError);
  t.throws(() => profileFromView([host('NO_SUCH_COST', 1n)]), { name: 'GasProfileViewError' });
});
