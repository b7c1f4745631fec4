// THE import table: every `env` function a contract may import, with its Wasm signature and the host
// function behind it. Linking, signature checks and docs all derive from this one list.
import * as altBn128 from './host/alt_bn128.js';
import * as bls12381 from './host/bls12381.js';
import * as context from './host/context.js';
import * as economics from './host/economics.js';
import * as globalContracts from './host/global_contracts.js';
import * as math from './host/math.js';
import * as misc from './host/misc.js';
import * as actions from './host/promise_actions.js';
import * as promises from './host/promises.js';
import * as registers from './host/registers.js';
import * as sandbox from './host/sandbox.js';
import * as stateInit from './host/state_init.js';
import * as storage from './host/storage.js';
import * as validator from './host/validator.js';
import * as yieldResume from './host/yield_resume.js';
import type { VMLogic } from './logic.js';

export type WasmValType = 'i32' | 'i64';

export interface HostFunctionDef {
  readonly params: readonly WasmValType[];
  readonly result: WasmValType | null;
  readonly fn: (logic: VMLogic, ...args: never[]) => unknown;
}

const I = 'i64' as const;
const def = (n: number, result: WasmValType | null, fn: HostFunctionDef['fn']): HostFunctionDef => ({
  params: Array<WasmValType>(n).fill(I),
  result,
  fn,
});

export const IMPORT_TABLE: Readonly<Record<string, HostFunctionDef>> = {
  // Registers
  read_register: def(2, null, registers.read_register),
  register_len: def(1, I, registers.register_len),
  write_register: def(3, null, registers.write_register),
  // Context
  current_account_id: def(1, null, context.current_account_id),
  signer_account_id: def(1, null, context.signer_account_id),
  signer_account_pk: def(1, null, context.signer_account_pk),
  predecessor_account_id: def(1, null, context.predecessor_account_id),
  input: def(1, null, context.input),
  block_index: def(0, I, context.block_index),
  block_timestamp: def(0, I, context.block_timestamp),
  epoch_height: def(0, I, context.epoch_height),
  chain_id: def(1, null, context.chain_id),
  storage_usage: def(0, I, context.storage_usage),
  // Economics
  account_balance: def(1, null, economics.account_balance),
  account_locked_balance: def(1, null, economics.account_locked_balance),
  attached_deposit: def(1, null, economics.attached_deposit),
  prepaid_gas: def(0, I, economics.prepaid_gas),
  used_gas: def(0, I, economics.used_gas),
  // Math
  random_seed: def(1, null, math.random_seed),
  sha256: def(3, null, math.sha256),
  keccak256: def(3, null, math.keccak256),
  keccak512: def(3, null, math.keccak512),
  ripemd160: def(3, null, math.ripemd160),
  ecrecover: def(7, I, math.ecrecover),
  ed25519_verify: def(6, I, math.ed25519_verify),
  p256_verify: def(6, I, math.p256_verify),
  alt_bn128_g1_multiexp: def(3, null, altBn128.alt_bn128_g1_multiexp),
  alt_bn128_g1_sum: def(3, null, altBn128.alt_bn128_g1_sum),
  alt_bn128_pairing_check: def(2, I, altBn128.alt_bn128_pairing_check),
  bls12381_p1_sum: def(3, I, bls12381.bls12381_p1_sum),
  bls12381_p2_sum: def(3, I, bls12381.bls12381_p2_sum),
  bls12381_g1_multiexp: def(3, I, bls12381.bls12381_g1_multiexp),
  bls12381_g2_multiexp: def(3, I, bls12381.bls12381_g2_multiexp),
  bls12381_map_fp_to_g1: def(3, I, bls12381.bls12381_map_fp_to_g1),
  bls12381_map_fp2_to_g2: def(3, I, bls12381.bls12381_map_fp2_to_g2),
  bls12381_pairing_check: def(2, I, bls12381.bls12381_pairing_check),
  bls12381_p1_decompress: def(3, I, bls12381.bls12381_p1_decompress),
  bls12381_p2_decompress: def(3, I, bls12381.bls12381_p2_decompress),
  // Miscellaneous
  value_return: def(2, null, misc.value_return),
  panic: def(0, null, misc.panic),
  panic_utf8: def(2, null, misc.panic_utf8),
  log_utf8: def(2, null, misc.log_utf8),
  log_utf16: def(2, null, misc.log_utf16),
  abort: { params: ['i32', 'i32', 'i32', 'i32'], result: null, fn: misc.abort },
  gas: { params: ['i32'], result: null, fn: misc.gas },
  // Promises
  promise_create: def(8, I, promises.promise_create),
  promise_then: def(9, I, promises.promise_then),
  promise_and: def(2, I, promises.promise_and),
  promise_batch_create: def(2, I, promises.promise_batch_create),
  promise_batch_then: def(3, I, promises.promise_batch_then),
  promise_batch_action_create_account: def(1, null, actions.promise_batch_action_create_account),
  promise_batch_action_deploy_contract: def(3, null, actions.promise_batch_action_deploy_contract),
  promise_batch_action_function_call: def(7, null, actions.promise_batch_action_function_call),
  promise_batch_action_function_call_weight: def(8, null, actions.promise_batch_action_function_call_weight),
  promise_batch_action_transfer: def(2, null, actions.promise_batch_action_transfer),
  promise_batch_action_stake: def(4, null, actions.promise_batch_action_stake),
  promise_batch_action_add_key_with_full_access: def(
    4,
    null,
    actions.promise_batch_action_add_key_with_full_access,
  ),
  promise_batch_action_add_key_with_function_call: def(
    9,
    null,
    actions.promise_batch_action_add_key_with_function_call,
  ),
  promise_batch_action_delete_key: def(3, null, actions.promise_batch_action_delete_key),
  // Gas keys (gas_key_host_fns)
  promise_batch_action_transfer_to_gas_key: def(4, null, actions.promise_batch_action_transfer_to_gas_key),
  promise_batch_action_add_gas_key_with_full_access: def(
    4,
    null,
    actions.promise_batch_action_add_gas_key_with_full_access,
  ),
  promise_batch_action_add_gas_key_with_function_call: def(
    9,
    null,
    actions.promise_batch_action_add_gas_key_with_function_call,
  ),
  promise_batch_action_delete_account: def(3, null, actions.promise_batch_action_delete_account),
  promise_batch_action_deploy_global_contract: def(
    3,
    null,
    globalContracts.promise_batch_action_deploy_global_contract,
  ),
  promise_batch_action_deploy_global_contract_by_account_id: def(
    3,
    null,
    globalContracts.promise_batch_action_deploy_global_contract_by_account_id,
  ),
  promise_batch_action_use_global_contract: def(
    3,
    null,
    globalContracts.promise_batch_action_use_global_contract,
  ),
  promise_batch_action_use_global_contract_by_account_id: def(
    3,
    null,
    globalContracts.promise_batch_action_use_global_contract_by_account_id,
  ),
  // Deterministic accounts (NEP-616)
  promise_batch_action_state_init: def(4, I, stateInit.promise_batch_action_state_init),
  promise_batch_action_state_init_by_account_id: def(
    4,
    I,
    stateInit.promise_batch_action_state_init_by_account_id,
  ),
  set_state_init_data_entry: def(6, null, stateInit.set_state_init_data_entry),
  current_contract_code: def(1, I, stateInit.current_contract_code),
  refund_to_account_id: def(1, null, stateInit.refund_to_account_id),
  promise_set_refund_to: def(3, null, stateInit.promise_set_refund_to),
  promise_yield_create: def(7, I, yieldResume.promise_yield_create),
  promise_yield_create_with_id: def(9, I, yieldResume.promise_yield_create_with_id),
  promise_yield_resume: {
    params: Array<WasmValType>(4).fill(I),
    result: 'i32',
    fn: yieldResume.promise_yield_resume,
  },
  promise_yield_resume_with_yield_id: {
    params: Array<WasmValType>(4).fill(I),
    result: 'i32',
    fn: yieldResume.promise_yield_resume_with_yield_id,
  },
  promise_results_count: def(0, I, promises.promise_results_count),
  promise_result: def(2, I, promises.promise_result),
  promise_return: def(1, null, promises.promise_return),
  // Storage
  storage_write: def(5, I, storage.storage_write),
  storage_read: def(3, I, storage.storage_read),
  storage_remove: def(3, I, storage.storage_remove),
  storage_has_key: def(2, I, storage.storage_has_key),
  storage_iter_prefix: def(2, I, storage.storage_iter_prefix),
  storage_iter_range: def(4, I, storage.storage_iter_range),
  storage_iter_next: def(3, I, storage.storage_iter_next),
  // Validator
  validator_stake: def(3, null, validator.validator_stake),
  validator_total_stake: def(1, null, validator.validator_total_stake),
};

/** Bridges the in-Wasm gas global and the GasCounter around every host call. */
export interface GasSync {
  /** Moves gas the metered Wasm burnt since the last sync into the GasCounter. */
  flush(): void;
  /** Re-arms the Wasm-side budget from the GasCounter (its limit moves when promises prepay gas). */
  rearm(): void;
}

/** What the shared host functions act on: the logic and gas bridge of the call now running. */
interface Binding {
  readonly logic: VMLogic;
  readonly sync: GasSync;
}

let current: Binding | null = null;

/**
 * Runs `fn` (the guest's code) with the host functions bound to `logic` and `sync`. Calls nest: the
 * binding before is restored after.
 */
export function withHostBinding<T>(logic: VMLogic, sync: GasSync, fn: () => T): T {
  const before = current;
  current = { logic, sync };
  try {
    return fn();
  } finally {
    current = before;
  }
}

type Raw = number | bigint;
type Convert = (a: Raw) => unknown;
const u64: Convert = (a) => BigInt.asUintN(64, a as bigint);
const i32: Convert = (a) => a;

function enter(): Binding {
  const b = current;
  if (b === null) throw new Error('a host function was called outside a contract call');
  b.sync.flush();
  return b;
}

/**
 * One host function as the guest calls it: its i64 arguments read as u64, the gas the metered Wasm
 * burnt moved into the counter before, the Wasm-side budget re-armed after. One function per arity,
 * so a host call allocates no argument arrays.
 */
function hostFunction(d: HostFunctionDef): (...a: Raw[]) => unknown {
  const f = d.fn as (logic: VMLogic, ...args: unknown[]) => unknown;
  const convert = d.params.map((k) => (k === 'i64' ? u64 : i32));
  const [c0, c1, c2, c3] = convert;
  const leave = (b: Binding) => b.sync.rearm();
  switch (d.params.length) {
    case 0:
      return () => {
        const b = enter();
        try {
          return f(b.logic);
        } finally {
          leave(b);
        }
      };
    case 1:
      return (a0) => {
        const b = enter();
        try {
          return f(b.logic, c0!(a0));
        } finally {
          leave(b);
        }
      };
    case 2:
      return (a0, a1) => {
        const b = enter();
        try {
          return f(b.logic, c0!(a0), c1!(a1));
        } finally {
          leave(b);
        }
      };
    case 3:
      return (a0, a1, a2) => {
        const b = enter();
        try {
          return f(b.logic, c0!(a0), c1!(a1), c2!(a2));
        } finally {
          leave(b);
        }
      };
    case 4:
      return (a0, a1, a2, a3) => {
        const b = enter();
        try {
          return f(b.logic, c0!(a0), c1!(a1), c2!(a2), c3!(a3));
        } finally {
          leave(b);
        }
      };
    default:
      // Five to nine arguments: the actions and crypto functions, called a few times a receipt.
      return (...raw) => {
        const b = enter();
        try {
          return f(b.logic, ...raw.map((a, i) => convert[i]!(a)));
        } finally {
          leave(b);
        }
      };
  }
}

/**
 * Every table entry as a host function, made once per thread and shared by all its instances: a
 * call binds them with `withHostBinding`. Building a hundred closures per instance was a large part
 * of a view call's allocations.
 */
const HOST_FUNCTIONS: Readonly<Record<string, WebAssembly.ImportValue>> = Object.freeze(
  Object.fromEntries(Object.entries(IMPORT_TABLE).map(([name, d]) => [name, hostFunction(d)])),
);

/** What a sandbox node offers beyond the protocol's table (nearcore's `sandbox` feature). */
export const SANDBOX_IMPORT_TABLE: Readonly<Record<string, HostFunctionDef>> = {
  sandbox_debug_log: def(2, null, sandbox.sandbox_debug_log),
};

/** A set of host functions a thread offers: their definitions, and the functions made from them. */
interface Offer {
  readonly table: Readonly<Record<string, HostFunctionDef>>;
  readonly functions: Readonly<Record<string, WebAssembly.ImportValue>>;
}

const PROTOCOL_OFFER: Offer = { table: IMPORT_TABLE, functions: HOST_FUNCTIONS };
const SANDBOX_OFFER: Offer = {
  table: Object.freeze({ ...IMPORT_TABLE, ...SANDBOX_IMPORT_TABLE }),
  functions: Object.freeze({
    ...HOST_FUNCTIONS,
    ...Object.fromEntries(Object.entries(SANDBOX_IMPORT_TABLE).map(([name, d]) => [name, hostFunction(d)])),
  }),
};
let offer = PROTOCOL_OFFER;

/**
 * Offers the sandbox's host functions to the contracts this thread instantiates from now on, their
 * debug messages going to `log`; null withdraws them. A node sets it once per thread, before any call.
 */
export function offerSandboxHostFunctions(log: ((message: string) => void) | null): void {
  sandbox.setSandboxDebugLog(log);
  offer = log ? SANDBOX_OFFER : PROTOCOL_OFFER;
}

/** The config flags that gate host functions (nearcore's `#[config_field]` imports). */
export type HostFunctionGate =
  | 'chain_id_host_fn'
  | 'p256_verify_host_fn'
  | 'global_contract_host_fns'
  | 'gas_key_host_fns'
  | 'yield_with_id_host_fns';

/** The flag behind each host function that has one; the others are linked at every version. */
export const HOST_FUNCTION_GATES: Readonly<Record<string, HostFunctionGate>> = {
  chain_id: 'chain_id_host_fn',
  p256_verify: 'p256_verify_host_fn',
  promise_batch_action_deploy_global_contract: 'global_contract_host_fns',
  promise_batch_action_deploy_global_contract_by_account_id: 'global_contract_host_fns',
  promise_batch_action_use_global_contract: 'global_contract_host_fns',
  promise_batch_action_use_global_contract_by_account_id: 'global_contract_host_fns',
  promise_batch_action_transfer_to_gas_key: 'gas_key_host_fns',
  promise_batch_action_add_gas_key_with_full_access: 'gas_key_host_fns',
  promise_batch_action_add_gas_key_with_function_call: 'gas_key_host_fns',
  promise_yield_create_with_id: 'yield_with_id_host_fns',
  promise_yield_resume_with_yield_id: 'yield_with_id_host_fns',
};

const GATES: readonly HostFunctionGate[] = [...new Set(Object.values(HOST_FUNCTION_GATES))];

/** The tables of an offer with some gates shut, by the bit set of the shut gates. */
const narrowed = new WeakMap<Offer, Map<number, Readonly<Record<string, HostFunctionDef>>>>();

/**
 * The host functions contracts link against on this thread under `config`: the protocol's whose
 * flags are on, and the sandbox's if offered. Each set of flags gets one table, so link verdicts
 * cached by table (link.ts) hold for every call under the same flags.
 */
export function offeredImportTable(
  config: Readonly<Record<HostFunctionGate, boolean>>,
): Readonly<Record<string, HostFunctionDef>> {
  let shut = 0;
  for (let i = 0; i < GATES.length; i++) if (!config[GATES[i]!]) shut |= 1 << i;
  if (shut === 0) return offer.table;
  let byShut = narrowed.get(offer);
  if (byShut === undefined) {
    byShut = new Map();
    narrowed.set(offer, byShut);
  }
  let table = byShut.get(shut);
  if (table === undefined) {
    const open = (name: string) => {
      const gate = HOST_FUNCTION_GATES[name];
      return gate === undefined || config[gate];
    };
    table = Object.freeze(Object.fromEntries(Object.entries(offer.table).filter(([name]) => open(name))));
    byShut.set(shut, table);
  }
  return table;
}

/** The `env` object for instantiation: the shared host functions, plus this call's memory. */
export function buildImports(memory: WebAssembly.Memory): Record<string, WebAssembly.ImportValue> {
  const env = Object.create(offer.functions) as Record<string, WebAssembly.ImportValue>;
  env.memory = memory;
  return env;
}
