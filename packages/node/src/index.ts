export * from './cli.js';
export * from './config.js';
export * from './follower_node.js';
export * from './home.js';
export * from './log.js';
export * from './node.js';
export * from './rpc_backend.js';
export { VERSION } from './version.js';
export * from './write_whole.js';
