import { parseTxStatusRequest, txStatusOf } from './tx_params.js';
import type { MethodHandler } from './types.js';

/** `tx` plus the `receipts` of the outcome. */
export const EXPERIMENTAL_tx_status: MethodHandler = async (params, backend) => {
  return txStatusOf(backend, parseTxStatusRequest(params), true);
};
