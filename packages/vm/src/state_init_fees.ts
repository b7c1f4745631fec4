// The DeterministicStateInit (NEP-616) action fees. Like the global-contract fees, nearcore's
// runtime_config view has no field for them; the numbers are those of
// core/parameters/res/runtime_configs/parameters.yaml as 85.yaml left them, unchanged at 86.
import { fee } from './global_contract_fees.js';

export const STATE_INIT_FEES = {
  deterministic_state_init_base: fee(500_000_000_000n, 500_000_000_000n, 7_430_000_000_000n),
  deterministic_state_init_entry: fee(0n, 0n, 200_000_000_000n),
  deterministic_state_init_byte: fee(72_000_000n, 72_000_000n, 70_000_000n),
} as const;
