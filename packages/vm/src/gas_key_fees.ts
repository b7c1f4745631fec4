// The gas-key action fees (GasKeys, protocol 85). nearcore's runtime_config view has no field for
// them, so they come from its parameter file (core/parameters/res/runtime_configs/parameters.yaml:
// action_gas_key_transfer, action_gas_key_byte, action_gas_key_nonce_write_base), unchanged at 86.
// The formulas are nearcore's (core/parameters/src/cost.rs), shared by the runtime, which prices a
// key by its trie id, and the host functions, which price it by its borsh length.
import { GAS_KEY_INFO_LEN } from '@nearlite/primitives';
import type { Fee, RuntimeFeesConfig } from './fees.js';
import { fee } from './global_contract_fees.js';

export const GAS_KEY_FEES = {
  gas_key_transfer_base: fee(115_123_062_500n, 115_123_062_500n, 235_676_644_250n),
  gas_key_byte: fee(59_357_464n, 59_357_464n, 101_435_400n),
  gas_key_nonce_write_base: fee(0n, 0n, 64_196_736_000n),
} as const;

/** A gas-key fee in nearcore's two parts: its base and its per-byte cost, each already multiplied. */
export interface GasKeyFee {
  readonly base: bigint;
  readonly perByte: bigint;
}

/** nearcore's access_key_key_len: the column, the receiver's id, the separator and the key's bytes. */
const accessKeyKeyLen = (receiverId: string, keyLen: bigint): bigint =>
  2n + BigInt(Buffer.byteLength(receiverId)) + keyLen;

/** nearcore's AccessKey::min_gas_key_borsh_len: a nonce, the permission tag and a GasKeyInfo. */
const MIN_GAS_KEY_BORSH_LEN = BigInt(8 + 1 + GAS_KEY_INFO_LEN);

/**
 * TransferToGasKey and WithdrawFromGasKey (gas_key_transfer_send_fee / _exec_fee): sent, a base and
 * the key's bytes; run, a base and the bytes of the key's trie row it reads and writes. `pick`
 * chooses the fee's part: a send fee (sender is receiver or not) or the execution one.
 */
export function gasKeyTransferFee(
  fees: RuntimeFeesConfig,
  pick: (f: Fee) => bigint,
  exec: boolean,
  receiverId: string,
  keyLen: bigint,
): GasKeyFee {
  const f = fees.fees;
  const bytes = exec ? accessKeyKeyLen(receiverId, keyLen) + MIN_GAS_KEY_BORSH_LEN : keyLen;
  return { base: pick(f.gas_key_transfer_base), perByte: pick(f.gas_key_byte) * bytes };
}

/**
 * What a gas key adds to an AddKey's fees (gas_key_add_key_send_fee / _exec_fee): its GasKeyInfo's
 * bytes when sent; when run, a write of each nonce's row (key, u16 index, u64 value).
 */
export function gasKeyAddKeyFee(
  fees: RuntimeFeesConfig,
  pick: (f: Fee) => bigint,
  exec: boolean,
  receiverId: string,
  keyLen: bigint,
  numNonces: bigint,
): GasKeyFee {
  const f = fees.fees;
  if (!exec) return { base: 0n, perByte: pick(f.gas_key_byte) * BigInt(GAS_KEY_INFO_LEN) };
  return {
    base: numNonces * f.gas_key_nonce_write_base.execution,
    perByte: numNonces * f.gas_key_byte.execution * (accessKeyKeyLen(receiverId, keyLen) + 2n + 8n),
  };
}
