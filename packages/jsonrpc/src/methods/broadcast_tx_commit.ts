import { decodeFailure, parseSendTxRequest } from './tx_params.js';
import type { MethodHandler } from './types.js';

/** `send_tx` with `wait_until` parsed but ignored: always EXECUTED_OPTIMISTIC. */
export const broadcast_tx_commit: MethodHandler = async (params, backend) => {
  const { tx, form } = parseSendTxRequest(params);
  try {
    return await backend.sendTx(tx, 'EXECUTED_OPTIMISTIC');
  } catch (err) {
    throw decodeFailure(err, form);
  }
};
