export * from './columns.js';
export * from './errors.js';
export * from './keys.js';
export * from './lru.js';
export * from './metadata.js';
export * from './shared_reader.js';
export * from './store.js';
export * from './store_update.js';
