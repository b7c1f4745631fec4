// Validator API: stakes of the current epoch, from the External.
import type { VMLogic } from '../logic.js';

export function validator_stake(
  l: VMLogic,
  account_id_len: bigint,
  account_id_ptr: bigint,
  stake_ptr: bigint,
): void {
  l.gas.payBase('base');
  const accountId = l.readAndParseAccountId(account_id_ptr, account_id_len);
  l.gas.payBase('validator_stake_base');
  const stake = l.ext.validator_stake(accountId) ?? 0n;
  l.mem.setU128(l.gas, stake_ptr, stake);
}

export function validator_total_stake(l: VMLogic, stake_ptr: bigint): void {
  l.gas.payBase('base');
  l.gas.payBase('validator_total_stake_base');
  l.mem.setU128(l.gas, stake_ptr, l.ext.validator_total_stake());
}
