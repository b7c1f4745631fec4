export * from './apply.js';
export * from './bandwidth_scheduler.js';
export * from './config/default_runtime_config.js';
export * from './config/network_view_config.js';
export * from './config/runtime_config.js';
export * from './congestion_control.js';
export * from './errors.js';
export * from './execution_metadata.js';
export * from './fees.js';
export * from './function_call.js';
export {
  contractStorageUsage,
  type ResolvedContract,
  resolveContract,
} from './global_contracts.js';
export * from './outcome.js';
export { postponeIfWaiting } from './postponed.js';
export type { PreparedTransactions, PrepareLimits } from './prepare_transactions.js';
export { setPromiseYieldReceipt } from './promise_yield.js';
export { encodeQueueIndices } from './queue_indices.js';
export { type NewReceipt, RuntimeExt } from './receipt_builder.js';
export { EMPTY_ED25519_KEY, type NewReceiptSpec } from './receipt_spec.js';
export { storageShortfall, ZERO_BALANCE_ACCOUNT_STORAGE_LIMIT } from './state.js';
export * from './validator_accounts.js';
export * from './verifier.js';
export * from './view_call.js';
export * from './vm_context.js';
export * from './vm_error.js';
