import type { MethodHandler } from './types.js';

/** Params are ignored, whatever they are, as nearcore's handler takes `()`. */
export const client_config: MethodHandler = (_params, backend) => backend.clientConfig();
