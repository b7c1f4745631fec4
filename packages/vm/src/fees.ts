// RuntimeFeesConfig (nearcore's `transaction_costs`): the action fees host functions charge when a
// contract creates receipts, via `pay_action_base` / `pay_action_per_byte`.
import { accountType } from '@nearlite/primitives';
import { VMConfigError } from './config.js';
import { GAS_KEY_FEES } from './gas_key_fees.js';
import { GLOBAL_CONTRACT_FEES } from './global_contract_fees.js';
import { STATE_INIT_FEES } from './state_init_fees.js';

export interface Fee {
  readonly send_sir: bigint;
  readonly send_not_sir: bigint;
  readonly execution: bigint;
}

export const ActionCosts = {
  new_action_receipt: 'new_action_receipt',
  new_data_receipt_base: 'new_data_receipt_base',
  new_data_receipt_byte: 'new_data_receipt_byte',
  create_account: 'create_account',
  deploy_contract_base: 'deploy_contract_base',
  deploy_contract_byte: 'deploy_contract_byte',
  function_call_base: 'function_call_base',
  function_call_byte: 'function_call_byte',
  transfer: 'transfer',
  stake: 'stake',
  add_full_access_key: 'add_full_access_key',
  add_function_call_key_base: 'add_function_call_key_base',
  add_function_call_key_byte: 'add_function_call_key_byte',
  delete_key: 'delete_key',
  delete_account: 'delete_account',
  delegate: 'delegate',
  deploy_global_contract_base: 'deploy_global_contract_base',
  deploy_global_contract_byte: 'deploy_global_contract_byte',
  use_global_contract_base: 'use_global_contract_base',
  use_global_contract_byte: 'use_global_contract_byte',
  deterministic_state_init_base: 'deterministic_state_init_base',
  deterministic_state_init_entry: 'deterministic_state_init_entry',
  deterministic_state_init_byte: 'deterministic_state_init_byte',
  gas_key_transfer_base: 'gas_key_transfer_base',
  gas_key_byte: 'gas_key_byte',
  gas_key_nonce_write_base: 'gas_key_nonce_write_base',
} as const;
export type ActionCosts = (typeof ActionCosts)[keyof typeof ActionCosts];

export interface RuntimeFeesConfig {
  readonly fees: Readonly<Record<ActionCosts, Fee>>;
  readonly storage_usage_config: {
    readonly num_bytes_account: bigint;
    readonly num_extra_bytes_record: bigint;
  };
}

export function sendFee(f: Fee, sir: boolean): bigint {
  return sir ? f.send_sir : f.send_not_sir;
}

type Json = Record<string, unknown>;

function o(v: unknown, what: string): Json {
  if (typeof v !== 'object' || v === null) throw new VMConfigError(`${what}: expected an object`);
  return v as Json;
}

function n(v: unknown, what: string): bigint {
  if (typeof v === 'bigint') return v;
  if ((typeof v === 'number' && Number.isInteger(v)) || (typeof v === 'string' && /^\d+$/.test(v)))
    return BigInt(v);
  throw new VMConfigError(`${what}: expected an unsigned integer`);
}

function fee(v: unknown, what: string): Fee {
  const f = o(v, what);
  return {
    send_sir: n(f.send_sir, `${what}.send_sir`),
    send_not_sir: n(f.send_not_sir, `${what}.send_not_sir`),
    execution: n(f.execution, `${what}.execution`),
  };
}

/** Parses `runtime_config.transaction_costs` as `EXPERIMENTAL_protocol_config` prints it. */
export function parseFeesConfig(json: unknown): RuntimeFeesConfig {
  const t = o(json, 'transaction_costs');
  const data = o(t.data_receipt_creation_config, 'data_receipt_creation_config');
  const a = o(t.action_creation_config, 'action_creation_config');
  const addKey = o(a.add_key_cost, 'add_key_cost');
  const su = o(t.storage_usage_config, 'storage_usage_config');
  const zero: Fee = { send_sir: 0n, send_not_sir: 0n, execution: 0n };
  return {
    fees: {
      new_action_receipt: fee(t.action_receipt_creation_config, 'action_receipt_creation_config'),
      new_data_receipt_base: fee(data.base_cost, 'data_receipt_creation_config.base_cost'),
      new_data_receipt_byte: fee(data.cost_per_byte, 'data_receipt_creation_config.cost_per_byte'),
      create_account: fee(a.create_account_cost, 'create_account_cost'),
      deploy_contract_base: fee(a.deploy_contract_cost, 'deploy_contract_cost'),
      deploy_contract_byte: fee(a.deploy_contract_cost_per_byte, 'deploy_contract_cost_per_byte'),
      function_call_base: fee(a.function_call_cost, 'function_call_cost'),
      function_call_byte: fee(a.function_call_cost_per_byte, 'function_call_cost_per_byte'),
      transfer: fee(a.transfer_cost, 'transfer_cost'),
      stake: fee(a.stake_cost, 'stake_cost'),
      add_full_access_key: fee(addKey.full_access_cost, 'add_key_cost.full_access_cost'),
      add_function_call_key_base: fee(addKey.function_call_cost, 'add_key_cost.function_call_cost'),
      add_function_call_key_byte: fee(
        addKey.function_call_cost_per_byte,
        'add_key_cost.function_call_cost_per_byte',
      ),
      delete_key: fee(a.delete_key_cost, 'delete_key_cost'),
      delete_account: fee(a.delete_account_cost, 'delete_account_cost'),
      delegate: a.delegate_cost === undefined ? zero : fee(a.delegate_cost, 'delegate_cost'),
      ...GLOBAL_CONTRACT_FEES,
      ...STATE_INIT_FEES,
      ...GAS_KEY_FEES,
    },
    storage_usage_config: {
      num_bytes_account: n(su.num_bytes_account, 'num_bytes_account'),
      num_extra_bytes_record: n(su.num_extra_bytes_record, 'num_extra_bytes_record'),
    },
  };
}

/**
 * The fees nearcore's transfer_send_fee / transfer_exec_fee add up: a transfer to an implicit or
 * deterministic account also pays for the account it creates (plus the full-access key for
 * NEAR-implicit ones). A transaction's Transfer and a contract's promise price it alike.
 */
export function transferFeeParts(
  cfg: RuntimeFeesConfig,
  implicitAccountCreation: boolean,
  ethImplicitAccounts: boolean,
  receiverId: string,
): readonly Fee[] {
  const f = cfg.fees;
  const kind = accountType(receiverId);
  if (implicitAccountCreation && kind === 'NearImplicitAccount')
    return [f.transfer, f.create_account, f.add_full_access_key];
  if (
    implicitAccountCreation &&
    (kind === 'NearDeterministicAccount' || (ethImplicitAccounts && kind === 'EthImplicitAccount'))
  )
    return [f.transfer, f.create_account];
  return [f.transfer];
}

/** transferFeeParts summed: what sending burns (at the sender-is-receiver rate or not) and executing costs. */
export function transferFees(
  cfg: RuntimeFeesConfig,
  sir: boolean,
  implicitAccountCreation: boolean,
  ethImplicitAccounts: boolean,
  receiverId: string,
): { send: bigint; exec: bigint } {
  let send = 0n;
  let exec = 0n;
  for (const fee of transferFeeParts(cfg, implicitAccountCreation, ethImplicitAccounts, receiverId)) {
    send += sendFee(fee, sir);
    exec += fee.execution;
  }
  return { send, exec };
}
