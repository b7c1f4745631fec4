import { decodeFailure, parseSendTxRequest } from './tx_params.js';
import type { MethodHandler } from './types.js';

export const send_tx: MethodHandler = async (params, backend) => {
  const { tx, waitUntil, form } = parseSendTxRequest(params);
  try {
    return await backend.sendTx(tx, waitUntil);
  } catch (err) {
    throw decodeFailure(err, form);
  }
};
