// Global-contract promise actions (nearcore's logic.rs, behind the `global_contract_host_fns` flag
// that protocol 86 turns on): deploy code as a global contract (by its hash or under the current
// account's id), or make the receipt's receiver use one.
import type { GlobalContractIdentifier } from '@nearlite/primitives';
import { HostError } from '../errors.js';
import type { VMLogic } from '../logic.js';

function deploy(
  l: VMLogic,
  promise_idx: bigint,
  code_len: bigint,
  code_ptr: bigint,
  mode: 0 | 1,
  name: string,
) {
  l.gas.payBase('base');
  l.prohibitInView(name);
  const code = l.read(code_ptr, code_len);
  const size = BigInt(code.length);
  const limit = l.config.limit_config.max_contract_size;
  if (size > limit) throw new HostError({ ContractSizeExceeded: { size, limit } });
  const [receipt, sir] = l.promiseIdxToReceiptIdxWithSir(promise_idx);
  l.payActionBase('deploy_global_contract_base', sir);
  l.payActionPerByte('deploy_global_contract_byte', size, sir);
  l.ext.append_action_deploy_global_contract(receipt, code, mode);
}

export function promise_batch_action_deploy_global_contract(
  l: VMLogic,
  promise_idx: bigint,
  code_len: bigint,
  code_ptr: bigint,
): void {
  deploy(l, promise_idx, code_len, code_ptr, 0, 'promise_batch_action_deploy_global_contract');
}

export function promise_batch_action_deploy_global_contract_by_account_id(
  l: VMLogic,
  promise_idx: bigint,
  code_len: bigint,
  code_ptr: bigint,
): void {
  deploy(l, promise_idx, code_len, code_ptr, 1, 'promise_batch_action_deploy_global_contract_by_account_id');
}

function use(l: VMLogic, promise_idx: bigint, id: GlobalContractIdentifier): void {
  const [receipt, sir] = l.promiseIdxToReceiptIdxWithSir(promise_idx);
  // GlobalContractIdentifier::len: 32 for a hash, the account id's bytes otherwise.
  const len = id.kind === 'CodeHash' ? 32n : BigInt(Buffer.byteLength(id.accountId));
  l.payActionBase('use_global_contract_base', sir);
  l.payActionPerByte('use_global_contract_byte', len, sir);
  l.ext.append_action_use_global_contract(receipt, id);
}

export function promise_batch_action_use_global_contract(
  l: VMLogic,
  promise_idx: bigint,
  code_hash_len: bigint,
  code_hash_ptr: bigint,
): void {
  l.gas.payBase('base');
  l.prohibitInView('promise_batch_action_use_global_contract');
  const hash = l.read(code_hash_ptr, code_hash_len);
  if (hash.length !== 32) throw new HostError('ContractCodeHashMalformed');
  use(l, promise_idx, { kind: 'CodeHash', hash: hash.slice() });
}

export function promise_batch_action_use_global_contract_by_account_id(
  l: VMLogic,
  promise_idx: bigint,
  account_id_len: bigint,
  account_id_ptr: bigint,
): void {
  l.gas.payBase('base');
  l.prohibitInView('promise_batch_action_use_global_contract_by_account_id');
  const accountId = l.readAndParseAccountId(account_id_ptr, account_id_len);
  use(l, promise_idx, { kind: 'AccountId', accountId });
}
