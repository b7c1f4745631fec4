// The VM's gas profile (nearcore's ProfileDataV3 as gas_counter.rs fills it): host costs and the
// burnt part of action costs as charged, Wasm instructions as the remainder, and a charge that
// crosses a limit booked with only the gas it actually burnt. Expected numbers are the config's.
import type { ProfileDataV3, VMOutcome } from '@nearlite/vm';
import t from 'tap';
import { call, config, freshHash, rawConfig, wat } from './helpers.js';

const ext = (name: string): bigint =>
  BigInt((rawConfig.wasm_config.ext_costs as Record<string, number>)[name]!);
const tc = rawConfig.transaction_costs as {
  action_receipt_creation_config: { send_not_sir: number; execution: number };
  data_receipt_creation_config: { cost_per_byte: { send_not_sir: number; execution: number } };
  action_creation_config: {
    function_call_cost: { send_not_sir: number };
    function_call_cost_per_byte: { send_not_sir: number };
  };
};

function total(p: ProfileDataV3): bigint {
  return p.actionGas() + p.hostGas() + p.getWasmCost();
}

function loading(code: Uint8Array): bigint {
  return ext('contract_loading_base') + ext('contract_loading_bytes') * BigInt(code.length);
}

const code = await wat(`(module
  (import "env" "block_index" (func $block_index (result i64)))
  (import "env" "sha256" (func $sha256 (param i64 i64 i64)))
  (import "env" "value_return" (func $ret (param i64 i64)))
  (import "env" "promise_batch_create" (func $create (param i64 i64) (result i64)))
  (import "env" "promise_batch_action_function_call"
    (func $fc (param i64 i64 i64 i64 i64 i64 i64)))
  (memory 1)
  (data (i32.const 0) "other.near")
  (data (i32.const 16) "go")
  (func (export "tiny") (drop (call $block_index)))
  (func (export "hash_all") (call $sha256 (i64.const 60000) (i64.const 0) (i64.const 0)))
  (func (export "reply") (call $ret (i64.const 10) (i64.const 0)))
  (func (export "spin") (loop $l (br $l)))
  (func (export "send")
    (call $fc (call $create (i64.const 10) (i64.const 0))
      (i64.const 2) (i64.const 16) (i64.const 0) (i64.const 0) (i64.const 32)
      (i64.const 7000000000000))))`);

function run(method: string, context = {}): VMOutcome {
  return call({ code, codeHash: freshHash(), method, context });
}

t.test('host costs as charged; the instructions are what remains', async (t) => {
  const out = run('tiny');
  t.equal(out.aborted, null);
  const p = out.profile;
  t.same(p.extCosts(), [
    ['contract_loading_bytes', ext('contract_loading_bytes') * BigInt(code.length)],
    ['contract_loading_base', ext('contract_loading_base')],
    ['base', ext('base')],
  ]);
  t.same(p.actionCosts(), []);
  // The entry's 8 ops, call + drop, `end` free (as gas.test.ts counts them).
  t.equal(p.getWasmCost(), 10n * config.regular_op_cost);
  t.equal(total(p), out.burnt_gas);
});

t.test('a host charge that crosses the prepaid gas is booked with what it burnt', async (t) => {
  // Enough for loading, sha256_base, the call and a part of the 60000 memory bytes.
  const prepaid = loading(code) + ext('base') + ext('sha256_base') + ext('read_memory_base') + 10n ** 9n;
  const out = run('hash_all', { prepaid_gas: prepaid });
  t.same(out.aborted, { HostError: 'GasExceeded' });
  const p = out.profile;
  t.equal(out.burnt_gas, prepaid);
  t.equal(total(p), out.burnt_gas, 'the profile adds up to the burnt gas');
  const partial = p.getExtCost('read_memory_byte');
  t.ok(partial > 0n && partial < 60000n * ext('read_memory_byte'), 'only the part that was burnt');
  t.equal(p.getExtCost('sha256_byte'), 0n, 'never reached');
});

t.test('an infinite loop: everything past loading is instructions', async (t) => {
  const prepaid = 5_000_000_000_000n;
  const out = run('spin', { prepaid_gas: prepaid });
  t.same(out.aborted, { HostError: 'GasExceeded' });
  t.equal(out.profile.hostGas(), loading(code));
  t.equal(out.profile.getWasmCost(), prepaid - loading(code));
});

t.test('action costs book only the burnt part: send fees, data bytes burnt whole', async (t) => {
  const sent = run('send');
  t.equal(sent.aborted, null);
  const p = sent.profile;
  // The receipt and the call's dispatch are burnt now; their execution and the 7 Tgas are reserved.
  t.equal(p.getActionCost('new_action_receipt'), BigInt(tc.action_receipt_creation_config.send_not_sir));
  t.equal(
    p.getActionCost('function_call_base'),
    BigInt(tc.action_creation_config.function_call_cost.send_not_sir),
  );
  t.equal(
    p.getActionCost('function_call_byte'),
    2n * BigInt(tc.action_creation_config.function_call_cost_per_byte.send_not_sir),
  );
  t.equal(total(p), sent.burnt_gas);
  t.ok(sent.used_gas > sent.burnt_gas + 7_000_000_000_000n);

  // A returned value for a receipt waiting on it: send and execution are both burnt.
  const reply = run('reply', { output_data_receivers: ['waiting.near'] });
  const perByte = tc.data_receipt_creation_config.cost_per_byte;
  t.equal(
    reply.profile.getActionCost('new_data_receipt_byte'),
    10n * (BigInt(perByte.send_not_sir) + BigInt(perByte.execution)),
  );
  t.equal(run('reply').profile.getActionCost('new_data_receipt_byte'), 0n, 'nobody waiting: nothing');
});

t.test('an action charge that crosses the prepaid gas is booked with what it burnt', async (t) => {
  // Loading, the host calls before the receipt, and half the receipt's send fee.
  const before =
    loading(code) +
    ext('base') +
    ext('read_memory_base') +
    10n * ext('read_memory_byte') +
    ext('utf8_decoding_base') +
    10n * ext('utf8_decoding_byte');
  const half = BigInt(tc.action_receipt_creation_config.send_not_sir) / 2n;
  const out = run('send', { prepaid_gas: before + 10n ** 8n + half });
  t.same(out.aborted, { HostError: 'GasExceeded' });
  const p = out.profile;
  t.equal(total(p), out.burnt_gas, 'the profile adds up to the burnt gas');
  const booked = p.getActionCost('new_action_receipt');
  t.ok(booked > 0n && booked < BigInt(tc.action_receipt_creation_config.send_not_sir), 'a part of it');
  t.equal(p.getActionCost('function_call_base'), 0n, 'never reached');
});

t.test('a call that cannot even load has an empty profile', async (t) => {
  const out = call({ code: new Uint8Array([0, 1, 2]), codeHash: freshHash(), method: 'f' });
  t.ok(out.aborted);
  t.equal(total(out.profile), out.burnt_gas);
});
