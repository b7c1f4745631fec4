// NEP-616 host functions (nearcore's logic.rs, behind `deterministic_account_ids`, on at protocol 86):
// build a DeterministicStateInit action on a promise, fill its data entry by entry, and learn what the
// current account runs and where its refunds go. The per-entry and per-byte fees are paid as entries
// are added, so a state init costs the same whether a contract or a transaction builds it.
import { type GlobalContractIdentifier, utf8 } from '@nearlite/primitives';
import { HostError } from '../errors.js';
import type { VMLogic } from '../logic.js';

export function promise_batch_action_state_init(
  l: VMLogic,
  promise_idx: bigint,
  code_len: bigint,
  code_ptr: bigint,
  amount_ptr: bigint,
): bigint {
  l.gas.payBase('base');
  l.prohibitInView('promise_batch_action_state_init');
  // The code is named by its 32-byte hash, read from memory or a register.
  const hash = l.read(code_ptr, code_len);
  if (hash.length !== 32) throw new HostError('ContractCodeHashMalformed');
  return stateInit(l, promise_idx, { kind: 'CodeHash', hash: hash.slice() }, amount_ptr);
}

export function promise_batch_action_state_init_by_account_id(
  l: VMLogic,
  promise_idx: bigint,
  account_id_len: bigint,
  account_id_ptr: bigint,
  amount_ptr: bigint,
): bigint {
  l.gas.payBase('base');
  l.prohibitInView('promise_batch_action_state_init_by_account_id');
  const accountId = l.readAndParseAccountId(account_id_ptr, account_id_len);
  return stateInit(l, promise_idx, { kind: 'AccountId', accountId }, amount_ptr);
}

function stateInit(
  l: VMLogic,
  promise_idx: bigint,
  code: GlobalContractIdentifier,
  amount_ptr: bigint,
): bigint {
  const amount = l.mem.getU128(l.gas, amount_ptr);
  const [receipt, sir] = l.promiseIdxToReceiptIdxWithSir(promise_idx);
  l.payActionBase('deterministic_state_init_base', sir);
  l.deductBalance(amount);
  return BigInt(l.ext.append_action_deterministic_state_init(receipt, code, amount));
}

export function set_state_init_data_entry(
  l: VMLogic,
  promise_idx: bigint,
  action_index: bigint,
  key_len: bigint,
  key_ptr: bigint,
  value_len: bigint,
  value_ptr: bigint,
): void {
  l.gas.payBase('base');
  l.prohibitInView('set_state_init_data_entry');
  const [receipt, sir] = l.promiseIdxToReceiptIdxWithSir(promise_idx);
  const key = l.read(key_ptr, key_len);
  const value = l.read(value_ptr, value_len);
  // Paid before the action is looked up: a wrong index still costs the entry.
  l.payActionBase('deterministic_state_init_entry', sir);
  l.payActionPerByte('deterministic_state_init_byte', BigInt(key.length + value.length), sir);
  l.ext.set_deterministic_state_init_data_entry(receipt, action_index, key.slice(), value.slice());
}

/** 0: no contract; 1: local code (its hash); 2: a global contract by hash (the hash); 3: by account (the id). */
export function current_contract_code(l: VMLogic, register_id: bigint): bigint {
  l.gas.payBase('base');
  const c = l.context.account_contract ?? { kind: 'None' as const };
  switch (c.kind) {
    case 'None':
      return 0n;
    case 'Local':
      l.setRegister(register_id, c.hash);
      return 1n;
    case 'Global':
      l.setRegister(register_id, c.hash);
      return 2n;
    case 'GlobalByAccount':
      l.setRegister(register_id, utf8(c.accountId));
      return 3n;
  }
}

/** Where this receipt's balance refunds go: its refund_to, else its predecessor. */
export function refund_to_account_id(l: VMLogic, register_id: bigint): void {
  l.gas.payBase('base');
  l.prohibitInView('refund_to_account_id');
  l.setRegister(register_id, utf8(l.context.refund_to_account_id ?? l.context.predecessor_account_id));
}

/** Balance refunds of the promise's receipt go to `account_id` instead of this account. */
export function promise_set_refund_to(
  l: VMLogic,
  promise_idx: bigint,
  account_id_len: bigint,
  account_id_ptr: bigint,
): void {
  l.gas.payBase('base');
  l.prohibitInView('promise_set_refund_to');
  const accountId = l.readAndParseAccountId(account_id_ptr, account_id_len);
  const p = l.getPromise(promise_idx);
  if (!('receipt' in p)) throw new HostError('CannotSetRefundToOnJointPromise');
  l.ext.set_refund_to(p.receipt, accountId);
}
