import { txStatusParams } from './tx_params.js';
import type { MethodHandler } from './types.js';

export const tx: MethodHandler = (params, backend) => {
  const { query, waitUntil } = txStatusParams(params);
  return backend.txStatus(query, waitUntil, false);
};
