import { maybeBlockIdStruct } from '../params.js';
import type { MethodHandler } from './types.js';

/** `{block_id: id | null}` or, serde reading the struct from a sequence, `[id | null]`. */
export const gas_price: MethodHandler = (params, backend) =>
  backend.gasPrice(maybeBlockIdStruct(params, 'RpcGasPriceRequest'));
