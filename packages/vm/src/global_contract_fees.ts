// The global-contract action fees. nearcore's runtime_config view (what EXPERIMENTAL_protocol_config
// prints and what the other fees are parsed from) has no field for them, so they come from the
// parameter file that introduced them (core/parameters/res/runtime_configs/77.yaml), unchanged
// since, at protocol 86.
import type { Fee } from './fees.js';

/** A fee as the parameter files give it: send_sir, send_not_sir, execution. */
export const fee = (send_sir: bigint, send_not_sir: bigint, execution: bigint): Fee => ({
  send_sir,
  send_not_sir,
  execution,
});

export const GLOBAL_CONTRACT_FEES = {
  deploy_global_contract_base: fee(184_765_750_000n, 184_765_750_000n, 184_765_750_000n),
  deploy_global_contract_byte: fee(6_812_999n, 47_683_715n, 70_000_000n),
  use_global_contract_base: fee(184_765_750_000n, 184_765_750_000n, 184_765_750_000n),
  use_global_contract_byte: fee(6_812_999n, 47_683_715n, 64_572_944n),
} as const;

/** `global_contract_storage_amount_per_byte`: the deployer pays this per code byte, burnt. */
export const GLOBAL_CONTRACT_STORAGE_AMOUNT_PER_BYTE = 100_000_000_000_000_000_000n;
