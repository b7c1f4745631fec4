import { parseTxStatusRequest, txStatusOf } from './tx_params.js';
import type { MethodHandler } from './types.js';

export const tx: MethodHandler = async (params, backend) => {
  return txStatusOf(backend, parseTxStatusRequest(params), false);
};
