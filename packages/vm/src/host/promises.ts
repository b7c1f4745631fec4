// Promises API: the receipt DAG a call schedules, with nearcore's receipt-creation fees.
import { HostError } from '../errors.js';
import type { ReceiptIndex } from '../external.js';
import type { VMLogic } from '../logic.js';
import { promise_batch_action_function_call_weight } from './promise_actions.js';

export function promise_batch_create(l: VMLogic, account_id_len: bigint, account_id_ptr: bigint): bigint {
  l.gas.payBase('base');
  l.prohibitInView('promise_batch_create');
  const accountId = l.readAndParseAccountId(account_id_ptr, account_id_len);
  l.payGasForNewReceipt(accountId === l.context.current_account_id, []);
  const receipt = l.ext.create_action_receipt([], accountId);
  return l.checkedPushPromise({ receipt });
}

export function promise_batch_then(
  l: VMLogic,
  promise_idx: bigint,
  account_id_len: bigint,
  account_id_ptr: bigint,
): bigint {
  l.gas.payBase('base');
  l.prohibitInView('promise_batch_then');
  const accountId = l.readAndParseAccountId(account_id_ptr, account_id_len);
  const p = l.getPromise(promise_idx);
  const deps: ReceiptIndex[] = 'receipt' in p ? [p.receipt] : [...p.joint];
  const sir = accountId === l.context.current_account_id;
  l.payGasForNewReceipt(
    sir,
    deps.map((r) => l.ext.get_receipt_receiver(r) === accountId),
  );
  const receipt = l.ext.create_action_receipt(deps, accountId);
  return l.checkedPushPromise({ receipt });
}

export function promise_create(
  l: VMLogic,
  account_id_len: bigint,
  account_id_ptr: bigint,
  method_name_len: bigint,
  method_name_ptr: bigint,
  arguments_len: bigint,
  arguments_ptr: bigint,
  amount_ptr: bigint,
  gas: bigint,
): bigint {
  const idx = promise_batch_create(l, account_id_len, account_id_ptr);
  promise_batch_action_function_call_weight(
    l,
    idx,
    method_name_len,
    method_name_ptr,
    arguments_len,
    arguments_ptr,
    amount_ptr,
    gas,
    0n,
  );
  return idx;
}

export function promise_then(
  l: VMLogic,
  promise_idx: bigint,
  account_id_len: bigint,
  account_id_ptr: bigint,
  method_name_len: bigint,
  method_name_ptr: bigint,
  arguments_len: bigint,
  arguments_ptr: bigint,
  amount_ptr: bigint,
  gas: bigint,
): bigint {
  const idx = promise_batch_then(l, promise_idx, account_id_len, account_id_ptr);
  promise_batch_action_function_call_weight(
    l,
    idx,
    method_name_len,
    method_name_ptr,
    arguments_len,
    arguments_ptr,
    amount_ptr,
    gas,
    0n,
  );
  return idx;
}

export function promise_and(l: VMLogic, promise_idx_ptr: bigint, promise_idx_count: bigint): bigint {
  l.gas.payBase('base');
  l.prohibitInView('promise_and');
  l.gas.payBase('promise_and_base');
  const memoryLen = promise_idx_count * 8n;
  l.gas.payPer('promise_and_per_promise', memoryLen);
  const raw = l.mem.view(l.gas, promise_idx_ptr, memoryLen);
  const dv = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const deps: ReceiptIndex[] = [];
  const limit = l.config.limit_config.max_number_input_data_dependencies;
  for (let off = 0; off < raw.length; off += 8) {
    const p = l.getPromise(dv.getBigUint64(off, true));
    if ('receipt' in p) deps.push(p.receipt);
    else deps.push(...p.joint);
    if (BigInt(deps.length) > limit) {
      throw new HostError({
        NumberInputDataDependenciesExceeded: {
          number_of_input_data_dependencies: BigInt(deps.length),
          limit,
        },
      });
    }
  }
  return l.checkedPushPromise({ joint: deps });
}

export function promise_results_count(l: VMLogic): bigint {
  l.gas.payBase('base');
  l.prohibitInView('promise_results_count');
  return BigInt(l.context.promise_results.length);
}

export function promise_result(l: VMLogic, result_idx: bigint, register_id: bigint): bigint {
  l.gas.payBase('base');
  l.prohibitInView('promise_result');
  const results = l.context.promise_results;
  const r = result_idx < BigInt(results.length) ? results[Number(result_idx)] : undefined;
  if (r === undefined) throw new HostError({ InvalidPromiseResultIndex: { result_idx } });
  if (r.kind === 'NotReady') return 0n;
  if (r.kind === 'Failed') return 2n;
  l.setRegister(register_id, r.data, !l.config.deterministic_account_ids);
  return 1n;
}

export function promise_return(l: VMLogic, promise_idx: bigint): void {
  l.gas.payBase('base');
  l.gas.payBase('promise_return');
  l.prohibitInView('promise_return');
  const p = l.getPromise(promise_idx);
  if (!('receipt' in p)) throw new HostError('CannotReturnJointPromise');
  l.returnData = { kind: 'ReceiptIndex', index: p.receipt };
}
