import { decodeFailure, parseSendTxRequest } from './tx_params.js';
import type { MethodHandler } from './types.js';

/** The transaction hash, at once; validation failures are never reported (fire and forget). */
export const broadcast_tx_async: MethodHandler = async (params, backend) => {
  const { tx, form } = parseSendTxRequest(params);
  try {
    return await backend.broadcastTxAsync(tx);
  } catch (err) {
    throw decodeFailure(err, form);
  }
};
