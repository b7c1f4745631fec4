import type { MethodHandler } from './types.js';

export const status: MethodHandler = (_params, backend) => backend.status();
