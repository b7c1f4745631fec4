export * from './header_errors.js';
export * from './header_hash.js';
export * from './message.js';
export * from './normalize.js';
export * from './source.js';
export * from './sources/file.js';
export * from './verify.js';
