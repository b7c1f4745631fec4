// Promise batch actions: each appends one action to a receipt and pays its send/exec fees.
import type { PublicKey } from '@nearlite/primitives';
import { BorshReader, readPublicKey } from '@nearlite/primitives';
import { HostError } from '../errors.js';
import { sendFee, transferFees } from '../fees.js';
import { gasKeyAddKeyFee, gasKeyTransferFee } from '../gas_key_fees.js';
import type { VMLogic } from '../logic.js';

/** Decodes now but reports InvalidPublicKey only when used, where nearcore's PublicKeyBuffer does. */
function publicKeyBuffer(data: Uint8Array): () => PublicKey {
  let pk: PublicKey | null = null;
  try {
    const r = new BorshReader(data);
    pk = readPublicKey(r);
    r.end();
  } catch {
    pk = null;
  }
  return () => {
    if (pk === null) throw new HostError('InvalidPublicKey');
    return pk;
  };
}

export function promise_batch_action_create_account(l: VMLogic, promise_idx: bigint): void {
  l.gas.payBase('base');
  l.prohibitInView('promise_batch_action_create_account');
  const [receipt, sir] = l.promiseIdxToReceiptIdxWithSir(promise_idx);
  l.payActionBase('create_account', sir);
  l.ext.append_action_create_account(receipt);
}

export function promise_batch_action_deploy_contract(
  l: VMLogic,
  promise_idx: bigint,
  code_len: bigint,
  code_ptr: bigint,
): void {
  l.gas.payBase('base');
  l.prohibitInView('promise_batch_action_deploy_contract');
  const code = l.read(code_ptr, code_len);
  const size = BigInt(code.length);
  const limit = l.config.limit_config.max_contract_size;
  if (size > limit) throw new HostError({ ContractSizeExceeded: { size, limit } });
  const [receipt, sir] = l.promiseIdxToReceiptIdxWithSir(promise_idx);
  l.payActionBase('deploy_contract_base', sir);
  l.payActionPerByte('deploy_contract_byte', size, sir);
  l.ext.append_action_deploy_contract(receipt, code);
}

export function promise_batch_action_function_call(
  l: VMLogic,
  promise_idx: bigint,
  method_name_len: bigint,
  method_name_ptr: bigint,
  arguments_len: bigint,
  arguments_ptr: bigint,
  amount_ptr: bigint,
  gas: bigint,
): void {
  promise_batch_action_function_call_weight(
    l,
    promise_idx,
    method_name_len,
    method_name_ptr,
    arguments_len,
    arguments_ptr,
    amount_ptr,
    gas,
    0n,
  );
}

export function promise_batch_action_function_call_weight(
  l: VMLogic,
  promise_idx: bigint,
  method_name_len: bigint,
  method_name_ptr: bigint,
  arguments_len: bigint,
  arguments_ptr: bigint,
  amount_ptr: bigint,
  gas: bigint,
  gas_weight: bigint,
): void {
  l.gas.payBase('base');
  l.prohibitInView('promise_batch_action_function_call');
  const amount = l.mem.getU128(l.gas, amount_ptr);
  const methodName = l.read(method_name_ptr, method_name_len);
  if (methodName.length === 0) throw new HostError('EmptyMethodName');
  const args = l.read(arguments_ptr, arguments_len);
  const [receipt, sir] = l.promiseIdxToReceiptIdxWithSir(promise_idx);
  const numBytes = BigInt(methodName.length + args.length);
  l.payActionBase('function_call_base', sir);
  l.payActionPerByte('function_call_byte', numBytes, sir);
  l.gas.prepayGas(gas);
  l.deductFunctionCallDeposit(amount);
  l.ext.append_action_function_call_weight(receipt, methodName, args, amount, gas, gas_weight);
}

export function promise_batch_action_transfer(l: VMLogic, promise_idx: bigint, amount_ptr: bigint): void {
  l.gas.payBase('base');
  l.prohibitInView('promise_batch_action_transfer');
  const amount = l.mem.getU128(l.gas, amount_ptr);
  const [receipt, sir] = l.promiseIdxToReceiptIdxWithSir(promise_idx);
  const receiver = l.ext.get_receipt_receiver(receipt);
  const c = l.config;
  const { send, exec } = transferFees(
    l.fees,
    sir,
    c.implicit_account_creation,
    c.eth_implicit_accounts,
    receiver,
  );
  l.gas.payActionAccumulated(send, send + exec, 'transfer');
  l.deductBalance(amount);
  l.ext.append_action_transfer(receipt, amount);
}

export function promise_batch_action_stake(
  l: VMLogic,
  promise_idx: bigint,
  amount_ptr: bigint,
  public_key_len: bigint,
  public_key_ptr: bigint,
): void {
  l.gas.payBase('base');
  l.prohibitInView('promise_batch_action_stake');
  const amount = l.mem.getU128(l.gas, amount_ptr);
  const pk = publicKeyBuffer(l.read(public_key_ptr, public_key_len));
  const [receipt, sir] = l.promiseIdxToReceiptIdxWithSir(promise_idx);
  l.payActionBase('stake', sir);
  l.ext.append_action_stake(receipt, amount, pk());
}

export function promise_batch_action_add_key_with_full_access(
  l: VMLogic,
  promise_idx: bigint,
  public_key_len: bigint,
  public_key_ptr: bigint,
  nonce: bigint,
): void {
  l.gas.payBase('base');
  l.prohibitInView('promise_batch_action_add_key_with_full_access');
  const pk = publicKeyBuffer(l.read(public_key_ptr, public_key_len));
  const [receipt, sir] = l.promiseIdxToReceiptIdxWithSir(promise_idx);
  l.payActionBase('add_full_access_key', sir);
  l.ext.append_action_add_key_with_full_access(receipt, pk(), nonce);
}

/** nearcore's split_method_names: comma-separated, no empty names. */
function splitMethodNames(raw: Uint8Array): Uint8Array[] {
  if (raw.length === 0) return [];
  const out: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i <= raw.length; i++) {
    if (i === raw.length || raw[i] === 0x2c) {
      if (i === start) throw new HostError('EmptyMethodName');
      out.push(raw.slice(start, i));
      start = i + 1;
    }
  }
  return out;
}

export function promise_batch_action_add_key_with_function_call(
  l: VMLogic,
  promise_idx: bigint,
  public_key_len: bigint,
  public_key_ptr: bigint,
  nonce: bigint,
  allowance_ptr: bigint,
  receiver_id_len: bigint,
  receiver_id_ptr: bigint,
  method_names_len: bigint,
  method_names_ptr: bigint,
): void {
  l.gas.payBase('base');
  l.prohibitInView('promise_batch_action_add_key_with_function_call');
  const pk = publicKeyBuffer(l.read(public_key_ptr, public_key_len));
  const k = functionCallKey(
    l,
    promise_idx,
    allowance_ptr,
    receiver_id_len,
    receiver_id_ptr,
    method_names_len,
    method_names_ptr,
  );
  l.ext.append_action_add_key_with_function_call(
    k.receipt,
    pk(),
    nonce,
    k.allowance,
    k.receiverId,
    k.methodNames,
  );
}

/**
 * What a function-call key's host functions read after the key, in nearcore's order (an allowance of
 * 0 is none), and the function-call key fees they pay.
 */
function functionCallKey(
  l: VMLogic,
  promise_idx: bigint,
  allowance_ptr: bigint,
  receiver_id_len: bigint,
  receiver_id_ptr: bigint,
  method_names_len: bigint,
  method_names_ptr: bigint,
) {
  const allowance = l.mem.getU128(l.gas, allowance_ptr);
  const receiverId = l.readAndParseAccountId(receiver_id_ptr, receiver_id_len);
  const methodNames = splitMethodNames(l.read(method_names_ptr, method_names_len));
  const [receipt, sir] = l.promiseIdxToReceiptIdxWithSir(promise_idx);
  const numBytes = methodNames.reduce((n, m) => n + BigInt(m.length) + 1n, 0n);
  l.payActionBase('add_function_call_key_base', sir);
  l.payActionPerByte('add_function_call_key_byte', numBytes, sir);
  return { receipt, sir, allowance: allowance > 0n ? allowance : null, receiverId, methodNames };
}

/**
 * nearcore's pay_gas_key_add_key_fees: the nonce rows' writes, then the GasKeyInfo and row bytes. The
 * host functions price the rows by `public_key_len`, where the runtime uses the key's trie id.
 */
function payGasKeyAddKeyFees(
  l: VMLogic,
  receiverId: string,
  publicKeyLen: bigint,
  numNonces: bigint,
  sir: boolean,
): void {
  const send = gasKeyAddKeyFee(l.fees, (f) => sendFee(f, sir), false, receiverId, publicKeyLen, numNonces);
  const exec = gasKeyAddKeyFee(l.fees, (f) => f.execution, true, receiverId, publicKeyLen, numNonces);
  l.gas.payActionAccumulated(0n, exec.base, 'gas_key_nonce_write_base');
  l.gas.payActionAccumulated(send.perByte, send.perByte + exec.perByte, 'gas_key_byte');
}

function nonceCount(n: bigint): bigint {
  if (n > 0xffffn) throw new HostError('IntegerOverflow');
  return n;
}

export function promise_batch_action_transfer_to_gas_key(
  l: VMLogic,
  promise_idx: bigint,
  public_key_len: bigint,
  public_key_ptr: bigint,
  amount_ptr: bigint,
): void {
  l.gas.payBase('base');
  l.prohibitInView('promise_batch_action_transfer_to_gas_key');
  const pk = publicKeyBuffer(l.read(public_key_ptr, public_key_len));
  const amount = l.mem.getU128(l.gas, amount_ptr);
  const [receipt, sir] = l.promiseIdxToReceiptIdxWithSir(promise_idx);
  const receiver = l.ext.get_receipt_receiver(receipt);
  const send = gasKeyTransferFee(l.fees, (f) => sendFee(f, sir), false, receiver, public_key_len);
  const exec = gasKeyTransferFee(l.fees, (f) => f.execution, true, receiver, public_key_len);
  l.gas.payActionAccumulated(send.base, send.base + exec.base, 'gas_key_transfer_base');
  l.gas.payActionAccumulated(send.perByte, send.perByte + exec.perByte, 'gas_key_byte');
  l.deductBalance(amount);
  l.ext.append_action_transfer_to_gas_key(receipt, pk(), amount);
}

export function promise_batch_action_add_gas_key_with_full_access(
  l: VMLogic,
  promise_idx: bigint,
  public_key_len: bigint,
  public_key_ptr: bigint,
  num_nonces: bigint,
): void {
  l.gas.payBase('base');
  l.prohibitInView('promise_batch_action_add_gas_key_with_full_access');
  const pk = publicKeyBuffer(l.read(public_key_ptr, public_key_len));
  const n = nonceCount(num_nonces);
  const [receipt, sir] = l.promiseIdxToReceiptIdxWithSir(promise_idx);
  l.payActionBase('add_full_access_key', sir);
  payGasKeyAddKeyFees(l, l.ext.get_receipt_receiver(receipt), public_key_len, n, sir);
  l.ext.append_action_add_gas_key(receipt, pk(), Number(n), null);
}

export function promise_batch_action_add_gas_key_with_function_call(
  l: VMLogic,
  promise_idx: bigint,
  public_key_len: bigint,
  public_key_ptr: bigint,
  num_nonces: bigint,
  allowance_ptr: bigint,
  receiver_id_len: bigint,
  receiver_id_ptr: bigint,
  method_names_len: bigint,
  method_names_ptr: bigint,
): void {
  l.gas.payBase('base');
  l.prohibitInView('promise_batch_action_add_gas_key_with_function_call');
  const pk = publicKeyBuffer(l.read(public_key_ptr, public_key_len));
  const n = nonceCount(num_nonces);
  const k = functionCallKey(
    l,
    promise_idx,
    allowance_ptr,
    receiver_id_len,
    receiver_id_ptr,
    method_names_len,
    method_names_ptr,
  );
  payGasKeyAddKeyFees(l, l.ext.get_receipt_receiver(k.receipt), public_key_len, n, k.sir);
  // An allowance (which a gas key may not have) is kept, to fail the receipt's validation.
  l.ext.append_action_add_gas_key(k.receipt, pk(), Number(n), {
    allowance: k.allowance,
    receiver_id: k.receiverId,
    method_names: k.methodNames,
  });
}

export function promise_batch_action_delete_key(
  l: VMLogic,
  promise_idx: bigint,
  public_key_len: bigint,
  public_key_ptr: bigint,
): void {
  l.gas.payBase('base');
  l.prohibitInView('promise_batch_action_delete_key');
  const pk = publicKeyBuffer(l.read(public_key_ptr, public_key_len));
  const [receipt, sir] = l.promiseIdxToReceiptIdxWithSir(promise_idx);
  l.payActionBase('delete_key', sir);
  l.ext.append_action_delete_key(receipt, pk());
}

export function promise_batch_action_delete_account(
  l: VMLogic,
  promise_idx: bigint,
  beneficiary_id_len: bigint,
  beneficiary_id_ptr: bigint,
): void {
  l.gas.payBase('base');
  l.prohibitInView('promise_batch_action_delete_account');
  const beneficiary = l.readAndParseAccountId(beneficiary_id_ptr, beneficiary_id_len);
  const [receipt, sir] = l.promiseIdxToReceiptIdxWithSir(promise_idx);
  l.payActionBase('delete_account', sir);
  l.ext.append_action_delete_account(receipt, beneficiary);
}
