// Host functions nearlite links (so contracts importing them instantiate) but does not implement yet:
// calling one is a node limitation, not a contract fault, so it surfaces as a VMRunnerError.
import type { ExtCost } from '../config.js';
import { VMRunnerError } from '../errors.js';
import type { VMLogic } from '../logic.js';

function unsupported(l: VMLogic, base: ExtCost, name: string): never {
  l.gas.payBase(base);
  throw new VMRunnerError('WasmUnknownError', `host function ${name} is not implemented by nearlite`);
}

export const bls12381_p1_sum = (l: VMLogic, _len: bigint, _ptr: bigint, _reg: bigint): bigint =>
  unsupported(l, 'bls12381_p1_sum_base', 'bls12381_p1_sum');
export const bls12381_p2_sum = (l: VMLogic, _len: bigint, _ptr: bigint, _reg: bigint): bigint =>
  unsupported(l, 'bls12381_p2_sum_base', 'bls12381_p2_sum');
export const bls12381_g1_multiexp = (l: VMLogic, _len: bigint, _ptr: bigint, _reg: bigint): bigint =>
  unsupported(l, 'bls12381_g1_multiexp_base', 'bls12381_g1_multiexp');
export const bls12381_g2_multiexp = (l: VMLogic, _len: bigint, _ptr: bigint, _reg: bigint): bigint =>
  unsupported(l, 'bls12381_g2_multiexp_base', 'bls12381_g2_multiexp');
export const bls12381_map_fp_to_g1 = (l: VMLogic, _len: bigint, _ptr: bigint, _reg: bigint): bigint =>
  unsupported(l, 'bls12381_map_fp_to_g1_base', 'bls12381_map_fp_to_g1');
export const bls12381_map_fp2_to_g2 = (l: VMLogic, _len: bigint, _ptr: bigint, _reg: bigint): bigint =>
  unsupported(l, 'bls12381_map_fp2_to_g2_base', 'bls12381_map_fp2_to_g2');
export const bls12381_pairing_check = (l: VMLogic, _len: bigint, _ptr: bigint): bigint =>
  unsupported(l, 'bls12381_pairing_base', 'bls12381_pairing_check');
export const bls12381_p1_decompress = (l: VMLogic, _len: bigint, _ptr: bigint, _reg: bigint): bigint =>
  unsupported(l, 'bls12381_p1_decompress_base', 'bls12381_p1_decompress');
export const bls12381_p2_decompress = (l: VMLogic, _len: bigint, _ptr: bigint, _reg: bigint): bigint =>
  unsupported(l, 'bls12381_p2_decompress_base', 'bls12381_p2_decompress');
