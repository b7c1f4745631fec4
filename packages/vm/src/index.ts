export type { CompiledContract } from './cache.js';
export { ContractCache } from './cache.js';
export { cacheKey, compileContract } from './compile.js';
export type { ExtCost, ExtCostsConfig, LimitConfig, VMConfig } from './config.js';
export { EXT_COMPUTE_COSTS, EXT_COSTS, parseVMConfig, prepareConfigKey, VMConfigError } from './config.js';
export type { PromiseResult, ReturnData, ViewConfig, VMContext, VMOutcome } from './context.js';
export type {
  CompilationError,
  FunctionCallError,
  HostErrorValue,
  MethodResolveError,
  PrepareError,
  WasmTrap,
} from './errors.js';
export {
  byteSize,
  functionCallErrorMessage,
  HostError,
  hostErrorMessage,
  VMRunnerError,
  VMRunnerErrorCode,
} from './errors.js';
export type { External, ReceiptIndex, StorageAccessTracker } from './external.js';
export type { Fee, RuntimeFeesConfig } from './fees.js';
export { ActionCosts, parseFeesConfig, sendFee, transferFeeParts, transferFees } from './fees.js';
export { type GasKeyFee, gasKeyAddKeyFee, gasKeyTransferFee } from './gas_key_fees.js';
export { GLOBAL_CONTRACT_FEES, GLOBAL_CONTRACT_STORAGE_AMOUNT_PER_BYTE } from './global_contract_fees.js';
export type { HostFunctionDef, HostFunctionGate, WasmValType } from './imports.js';
export {
  HOST_FUNCTION_GATES,
  IMPORT_TABLE,
  offerSandboxHostFunctions,
  SANDBOX_IMPORT_TABLE,
} from './imports.js';
export { keptInstances } from './instance_pool.js';
export { ProfileDataV3 } from './profile.js';
export type { RunFunctionArgs } from './runner.js';
export { runFunction } from './runner.js';
