import { argsError } from '../errors.js';
import { blockId, cryptoHash, isObj } from '../params.js';
import type { MethodHandler } from './types.js';

export const validators: MethodHandler = (params, backend) => {
  if (params === null || params === undefined) return backend.validators(null);
  if (Array.isArray(params)) {
    if (params.length !== 1) throw argsError(`invalid length ${params.length}, expected 1 element`);
    return backend.validators(params[0] === null ? null : { blockId: blockId(params[0]) });
  }
  if (!isObj(params)) throw argsError('invalid type: expected an epoch reference');
  if (params.epoch_id !== undefined) return backend.validators({ epochId: cryptoHash(params.epoch_id) });
  if (params.block_id !== undefined) return backend.validators({ blockId: blockId(params.block_id) });
  if ('latest' in params) return backend.validators(null);
  throw argsError('expected `epoch_id`, `block_id` or `latest`');
};
