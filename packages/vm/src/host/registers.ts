// Registers API: blobs the guest can move without copying them through its own memory.
import type { VMLogic } from '../logic.js';
import { U64_MAX } from '../vmstate.js';

export function read_register(l: VMLogic, register_id: bigint, ptr: bigint): void {
  l.gas.payBase('base');
  const data = l.registers.get(l.gas, register_id);
  l.mem.set(l.gas, ptr, data);
}

export function register_len(l: VMLogic, register_id: bigint): bigint {
  l.gas.payBase('base');
  return l.registers.getLen(register_id) ?? U64_MAX;
}

export function write_register(l: VMLogic, register_id: bigint, data_len: bigint, data_ptr: bigint): void {
  l.gas.payBase('base');
  const data = l.mem.view(l.gas, data_ptr, data_len);
  l.setRegister(register_id, data);
}
