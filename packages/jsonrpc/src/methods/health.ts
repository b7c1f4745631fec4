import type { MethodHandler } from './types.js';

export const health: MethodHandler = (_params, backend) => {
  backend.health();
  return null;
};
