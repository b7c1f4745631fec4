// Context API: who is calling, with what input, at which block.
import type { VMLogic } from '../logic.js';

const enc = new TextEncoder();

export function current_account_id(l: VMLogic, register_id: bigint): void {
  l.gas.payBase('base');
  l.setRegister(register_id, enc.encode(l.context.current_account_id));
}

export function signer_account_id(l: VMLogic, register_id: bigint): void {
  l.gas.payBase('base');
  l.prohibitInView('signer_account_id');
  l.setRegister(register_id, enc.encode(l.context.signer_account_id));
}

export function signer_account_pk(l: VMLogic, register_id: bigint): void {
  l.gas.payBase('base');
  l.prohibitInView('signer_account_pk');
  l.setRegister(register_id, l.context.signer_account_pk);
}

export function predecessor_account_id(l: VMLogic, register_id: bigint): void {
  l.gas.payBase('base');
  l.prohibitInView('predecessor_account_id');
  l.setRegister(register_id, enc.encode(l.context.predecessor_account_id));
}

export function input(l: VMLogic, register_id: bigint): void {
  l.gas.payBase('base');
  l.setRegister(register_id, l.context.input, !l.config.deterministic_account_ids);
}

/** The chain's id as UTF-8 (protocol 85's `chain_id_host_fn`); allowed in view calls. */
export function chain_id(l: VMLogic, register_id: bigint): void {
  l.gas.payBase('base');
  l.setRegister(register_id, enc.encode(l.context.chain_id));
}

export function block_index(l: VMLogic): bigint {
  l.gas.payBase('base');
  return l.context.block_height;
}

export function block_timestamp(l: VMLogic): bigint {
  l.gas.payBase('base');
  return l.context.block_timestamp;
}

export function epoch_height(l: VMLogic): bigint {
  l.gas.payBase('base');
  return l.context.epoch_height;
}

export function storage_usage(l: VMLogic): bigint {
  l.gas.payBase('base');
  return l.currentStorageUsage;
}
