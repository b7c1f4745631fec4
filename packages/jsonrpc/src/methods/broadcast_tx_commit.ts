import { signedTxParams } from './tx_params.js';
import type { MethodHandler } from './types.js';

export const broadcast_tx_commit: MethodHandler = (params, backend) =>
  backend.sendTx(signedTxParams(params).tx, 'EXECUTED_OPTIMISTIC');
