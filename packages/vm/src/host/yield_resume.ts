// NEP-519 yield/resume: a contract parks a callback to itself (a PromiseYield receipt with one data
// dependency) and a later call resumes it with a payload; the runtime times it out otherwise.
// The `_with_id` variants (protocol 85, YieldWithId) key the yield by a caller-chosen 32-byte id.
import { HostError } from '../errors.js';
import type { VMLogic } from '../logic.js';

const U64_MAX = (1n << 64n) - 1n;

export function promise_yield_create(
  l: VMLogic,
  method_name_len: bigint,
  method_name_ptr: bigint,
  arguments_len: bigint,
  arguments_ptr: bigint,
  gas: bigint,
  gas_weight: bigint,
  register_id: bigint,
): bigint {
  l.gas.payBase('base');
  l.prohibitInView('promise_yield_create');
  l.gas.payBase('yield_create_base');
  const methodName = l.read(method_name_ptr, method_name_len);
  if (methodName.length === 0) throw new HostError('EmptyMethodName');
  const args = l.read(arguments_ptr, arguments_len);
  const numBytes = BigInt(methodName.length + args.length);
  l.gas.payPer('yield_create_byte', numBytes);
  // The callback's gas is reserved now so this execution can no longer spend it.
  l.gas.prepayGas(gas);
  l.payGasForNewReceipt(true, [true]);
  const { receipt_index, data_id } = l.ext.create_promise_yield_receipt(l.context.current_account_id);
  const idx = l.checkedPushPromise({ receipt: receipt_index });
  l.payActionBase('function_call_base', true);
  l.payActionPerByte('function_call_byte', numBytes, true);
  l.ext.append_action_function_call_weight(receipt_index, methodName, args, 0n, gas, gas_weight);
  l.setRegister(register_id, data_id);
  return idx;
}

/** Returns the promise index, or u64::MAX (nothing charged beyond the reads) if the id is pending. */
export function promise_yield_create_with_id(
  l: VMLogic,
  method_name_len: bigint,
  method_name_ptr: bigint,
  arguments_len: bigint,
  arguments_ptr: bigint,
  amount_ptr: bigint,
  gas: bigint,
  gas_weight: bigint,
  yield_id_len: bigint,
  yield_id_ptr: bigint,
): bigint {
  l.gas.payBase('base');
  l.prohibitInView('promise_yield_create_with_id');
  l.gas.payBase('yield_create_with_id_base');
  const amount = l.mem.getU128(l.gas, amount_ptr);
  const methodName = l.read(method_name_ptr, method_name_len);
  if (methodName.length === 0) throw new HostError('EmptyMethodName');
  const args = l.read(arguments_ptr, arguments_len);
  const yieldId = l.read(yield_id_ptr, yield_id_len);
  if (yieldId.length !== 32) throw new HostError('YieldIdMalformed');
  const numBytes = BigInt(methodName.length + args.length);
  l.gas.payPer('yield_create_byte', numBytes);
  const created = l.ext.create_promise_yield_receipt_with_id(l.context.current_account_id, yieldId);
  if (created === null) return U64_MAX;
  l.gas.prepayGas(gas);
  l.payGasForNewReceipt(true, [true]);
  const idx = l.checkedPushPromise({ receipt: created.receipt_index });
  l.payActionBase('function_call_base', true);
  l.payActionPerByte('function_call_byte', numBytes, true);
  l.deductFunctionCallDeposit(amount);
  l.ext.append_action_function_call_weight(created.receipt_index, methodName, args, amount, gas, gas_weight);
  return idx;
}

function readPayload(l: VMLogic, payload_len: bigint, payload_ptr: bigint): Uint8Array {
  const payload = l.read(payload_ptr, payload_len);
  const limit = l.config.limit_config.max_yield_payload_size;
  if (BigInt(payload.length) > limit) {
    throw new HostError({ YieldPayloadLength: { length: BigInt(payload.length), limit } });
  }
  return payload;
}

export function promise_yield_resume(
  l: VMLogic,
  data_id_len: bigint,
  data_id_ptr: bigint,
  payload_len: bigint,
  payload_ptr: bigint,
): number {
  l.gas.payBase('base');
  // The name nearcore's promise_yield_resume gives itself in this error.
  l.prohibitInView('promise_submit_data');
  l.gas.payBase('yield_resume_base');
  l.gas.payPer('yield_resume_byte', payload_len);
  const dataId = l.read(data_id_ptr, data_id_len);
  const payload = readPayload(l, payload_len, payload_ptr);
  if (dataId.length !== 32) throw new HostError('DataIdMalformed');
  return l.ext.submit_promise_resume_data(dataId, payload) ? 1 : 0;
}

export function promise_yield_resume_with_yield_id(
  l: VMLogic,
  yield_id_len: bigint,
  yield_id_ptr: bigint,
  payload_len: bigint,
  payload_ptr: bigint,
): number {
  l.gas.payBase('base');
  l.prohibitInView('promise_yield_resume_with_yield_id');
  l.gas.payBase('yield_resume_base');
  l.gas.payPer('yield_resume_byte', payload_len);
  const yieldId = l.read(yield_id_ptr, yield_id_len);
  const payload = readPayload(l, payload_len, payload_ptr);
  if (yieldId.length !== 32) throw new HostError('YieldIdMalformed');
  return l.ext.submit_promise_resume_data_with_yield_id(yieldId, payload) ? 1 : 0;
}
