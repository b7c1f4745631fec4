import { decodeFailure, parseTxStatusRequest } from './tx_params.js';
import type { MethodHandler } from './types.js';

/** `tx` plus the `receipts` of the outcome. */
export const EXPERIMENTAL_tx_status: MethodHandler = async (params, backend) => {
  const { query, waitUntil, form } = parseTxStatusRequest(params);
  try {
    return await backend.txStatus(query, waitUntil, true);
  } catch (err) {
    throw decodeFailure(err, form);
  }
};
