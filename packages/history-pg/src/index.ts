export * from './errors.js';
export * from './key_shard.js';
export * from './pg_history.js';
export { SCHEMA_VERSION } from './schema.js';
export { prefixEnd, scanQuery } from './shard_db.js';
