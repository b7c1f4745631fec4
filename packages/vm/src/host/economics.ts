// Economics API: balances and gas as the contract sees them.
import type { VMLogic } from '../logic.js';

export function account_balance(l: VMLogic, balance_ptr: bigint): void {
  l.gas.payBase('base');
  l.mem.setU128(l.gas, balance_ptr, l.currentAccountBalance);
}

export function account_locked_balance(l: VMLogic, balance_ptr: bigint): void {
  l.gas.payBase('base');
  l.mem.setU128(l.gas, balance_ptr, l.context.account_locked_balance);
}

export function attached_deposit(l: VMLogic, balance_ptr: bigint): void {
  l.gas.payBase('base');
  l.mem.setU128(l.gas, balance_ptr, l.context.attached_deposit);
}

export function prepaid_gas(l: VMLogic): bigint {
  l.gas.payBase('base');
  l.prohibitInView('prepaid_gas');
  return l.context.prepaid_gas;
}

export function used_gas(l: VMLogic): bigint {
  l.gas.payBase('base');
  l.prohibitInView('used_gas');
  return l.gas.usedGas();
}
