import { decodeFailure, parseTxStatusRequest } from './tx_params.js';
import type { MethodHandler } from './types.js';

export const tx: MethodHandler = async (params, backend) => {
  const { query, waitUntil, form } = parseTxStatusRequest(params);
  try {
    return await backend.txStatus(query, waitUntil, false);
  } catch (err) {
    throw decodeFailure(err, form);
  }
};
