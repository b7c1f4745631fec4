// Storage API over the External, with nearcore's key/value byte costs and storage-usage bookkeeping.
import { HostError } from '../errors.js';
import type { VMLogic } from '../logic.js';

/** nearcore's INLINE_DISK_VALUE_THRESHOLD: values above it cost an extra large-read overhead. */
const INLINE_DISK_VALUE_THRESHOLD = 4000;

function checkKey(l: VMLogic, key: Uint8Array): void {
  const limit = l.config.limit_config.max_length_storage_key;
  if (BigInt(key.length) > limit)
    throw new HostError({ KeyLengthExceeded: { length: BigInt(key.length), limit } });
}

export function storage_write(
  l: VMLogic,
  key_len: bigint,
  key_ptr: bigint,
  value_len: bigint,
  value_ptr: bigint,
  register_id: bigint,
): bigint {
  l.gas.payBase('base');
  l.prohibitInView('storage_write');
  l.gas.payBase('storage_write_base');
  const key = l.read(key_ptr, key_len);
  checkKey(l, key);
  const value = l.read(value_ptr, value_len);
  const limit = l.config.limit_config.max_length_storage_value;
  if (BigInt(value.length) > limit) {
    throw new HostError({ ValueLengthExceeded: { length: BigInt(value.length), limit } });
  }
  l.gas.payPer('storage_write_key_byte', BigInt(key.length));
  l.gas.payPer('storage_write_value_byte', BigInt(value.length));
  const evicted = l.ext.storage_set(l.gas, key, value);
  l.observeRecordedStorage();
  if (evicted !== null) {
    l.currentStorageUsage = l.currentStorageUsage - BigInt(evicted.length) + BigInt(value.length);
    l.setRegister(register_id, evicted);
    return 1n;
  }
  const extra = l.fees.storage_usage_config.num_extra_bytes_record;
  l.currentStorageUsage += BigInt(value.length + key.length) + extra;
  return 0n;
}

export function storage_read(l: VMLogic, key_len: bigint, key_ptr: bigint, register_id: bigint): bigint {
  l.gas.payBase('base');
  l.gas.payBase('storage_read_base');
  const key = l.read(key_ptr, key_len);
  checkKey(l, key);
  l.gas.payPer('storage_read_key_byte', BigInt(key.length));
  const value = l.ext.storage_get(l.gas, key);
  if (value !== null) {
    l.gas.payPer('storage_read_value_byte', BigInt(value.length));
    if (value.length > INLINE_DISK_VALUE_THRESHOLD) {
      l.gas.payBase('storage_large_read_overhead_base');
      l.gas.payPer('storage_large_read_overhead_byte', BigInt(value.length));
    }
    l.ext.storage_value_read?.(key, value);
  }
  l.observeRecordedStorage();
  if (value === null) return 0n;
  l.setRegister(register_id, value);
  return 1n;
}

export function storage_remove(l: VMLogic, key_len: bigint, key_ptr: bigint, register_id: bigint): bigint {
  l.gas.payBase('base');
  l.prohibitInView('storage_remove');
  l.gas.payBase('storage_remove_base');
  const key = l.read(key_ptr, key_len);
  checkKey(l, key);
  l.gas.payPer('storage_remove_key_byte', BigInt(key.length));
  const removed = l.ext.storage_remove(l.gas, key);
  l.observeRecordedStorage();
  if (removed === null) return 0n;
  const extra = l.fees.storage_usage_config.num_extra_bytes_record;
  l.currentStorageUsage -= BigInt(removed.length + key.length) + extra;
  l.setRegister(register_id, removed);
  return 1n;
}

export function storage_has_key(l: VMLogic, key_len: bigint, key_ptr: bigint): bigint {
  l.gas.payBase('base');
  l.gas.payBase('storage_has_key_base');
  const key = l.read(key_ptr, key_len);
  checkKey(l, key);
  l.gas.payPer('storage_has_key_byte', BigInt(key.length));
  const found = l.ext.storage_has_key(l.gas, key);
  l.observeRecordedStorage();
  return found ? 1n : 0n;
}

function deprecated(method_name: string): never {
  throw new HostError({ Deprecated: { method_name } });
}

export function storage_iter_prefix(_l: VMLogic, _len: bigint, _ptr: bigint): bigint {
  deprecated('storage_iter_prefix');
}

export function storage_iter_range(_l: VMLogic, _a: bigint, _b: bigint, _c: bigint, _d: bigint): bigint {
  deprecated('storage_iter_range');
}

export function storage_iter_next(_l: VMLogic, _id: bigint, _k: bigint, _v: bigint): bigint {
  deprecated('storage_iter_next');
}
