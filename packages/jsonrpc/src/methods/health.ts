import type { MethodHandler } from './types.js';

/** `null` when healthy; the backend throws NO_NEW_BLOCKS / NODE_IS_SYNCING otherwise. */
export const health: MethodHandler = async (_params, backend) => {
  await backend.health();
  return null;
};
