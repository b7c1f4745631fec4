import { argsError } from '../errors.js';
import { blockId, isObj } from '../params.js';
import type { MethodHandler } from './types.js';

export const gas_price: MethodHandler = (params, backend) => {
  let id: unknown = null;
  if (Array.isArray(params)) {
    if (params.length > 1) throw argsError(`invalid length ${params.length}, expected 1 element`);
    id = params[0] ?? null;
  } else if (isObj(params)) id = params.block_id ?? null;
  else if (params !== null && params !== undefined)
    throw argsError('invalid type: expected [block_id] or {block_id}');
  return backend.gasPrice(id === null ? null : blockId(id));
};
