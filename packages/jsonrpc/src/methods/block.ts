import { argsError } from '../errors.js';
import { blockId, blockReference, isObj } from '../params.js';
import type { MethodHandler } from './types.js';

export const block: MethodHandler = (params, backend) => {
  if (Array.isArray(params)) {
    if (params.length !== 1) throw argsError(`invalid length ${params.length}, expected 1 element`);
    return backend.block({ blockId: blockId(params[0]) });
  }
  if (!isObj(params)) throw argsError('invalid type: expected a block reference');
  return backend.block(blockReference(params));
};
