import { signedTxParams } from './tx_params.js';
import type { MethodHandler } from './types.js';

export const broadcast_tx_async: MethodHandler = (params, backend) =>
  backend.broadcastTxAsync(signedTxParams(params).tx);
