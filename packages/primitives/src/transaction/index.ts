export * from './action.js';
export * from './ids.js';
export * from './receipt.js';
export * from './state_init.js';
export * from './state_stored_receipt.js';
export * from './transaction.js';
export * from './verify.js';
export * from './views.js';
