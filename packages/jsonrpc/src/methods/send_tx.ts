import { signedTxParams } from './tx_params.js';
import type { MethodHandler } from './types.js';

export const send_tx: MethodHandler = (params, backend) => {
  const { tx, waitUntil } = signedTxParams(params);
  return backend.sendTx(tx, waitUntil);
};
