export { type AccessConfig, AccessControl, type AccessDecision, chargeViewGas } from './access.js';
export type * from './backend.js';
export type { BlockStreamAnswer, BlockStreamProvider } from './block_stream.js';
export * from './dispatch.js';
export { RpcError, type RpcErrorBody, RpcParseError } from './errors.js';
export { METHODS, type MethodHandler } from './methods/index.js';
export * from './server.js';
