import type { BlockId } from '../backend.js';
import { blockId, isObj } from '../params.js';
import { invalidLength, invalidType } from '../serde.js';
import type { MethodHandler } from './types.js';

const STRUCT = 'struct RpcGasPriceRequest';

/** `{block_id: id | null}` or, serde reading the struct from a sequence, `[id | null]`. */
export function parseGasPriceRequest(params: unknown): BlockId | null {
  let id: unknown;
  if (Array.isArray(params)) {
    if (params.length === 0) throw invalidLength(0, `${STRUCT} with 1 element`);
    if (params.length > 1) throw invalidLength(params.length, 'fewer elements in array');
    id = params[0];
  } else if (isObj(params)) {
    id = params.block_id;
  } else {
    throw invalidType(params, STRUCT);
  }
  return id === null || id === undefined ? null : blockId(id);
}

export const gas_price: MethodHandler = (params, backend) => backend.gasPrice(parseGasPriceRequest(params));
