import type { MethodHandler } from './types.js';

/** Params are ignored, whatever they are (near-api-js sends `[]`, jsonrpc-client `null`). */
export const status: MethodHandler = (_params, backend) => backend.status();
