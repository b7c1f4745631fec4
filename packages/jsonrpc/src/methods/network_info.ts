import type { MethodHandler } from './types.js';

export const network_info: MethodHandler = (_params, backend) => backend.networkInfo();
