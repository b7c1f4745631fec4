// The gas-key action fees (GasKeys, protocol 85). nearcore's runtime_config view has no field for
// them, so they come from its parameter file (core/parameters/res/runtime_configs/parameters.yaml:
// action_gas_key_transfer, action_gas_key_byte, action_gas_key_nonce_write_base), unchanged at 86.
import { fee } from './global_contract_fees.js';

export const GAS_KEY_FEES = {
  gas_key_transfer_base: fee(115_123_062_500n, 115_123_062_500n, 235_676_644_250n),
  gas_key_byte: fee(59_357_464n, 59_357_464n, 101_435_400n),
  gas_key_nonce_write_base: fee(0n, 0n, 64_196_736_000n),
} as const;
