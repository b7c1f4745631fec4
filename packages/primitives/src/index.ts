export * from './account.js';
export * from './account_id.js';
export * from './base58.js';
export * from './borsh.js';
export * from './errors.js';
export * from './hash.js';
export * from './json.js';
export * from './public_key.js';
