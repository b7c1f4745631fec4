import { argsError } from '../errors.js';
import { cryptoHash, isObj, requireField } from '../params.js';
import type { MethodHandler } from './types.js';

export const next_light_client_block: MethodHandler = (params, backend) => {
  let last: unknown;
  if (Array.isArray(params)) last = params[0];
  else if (isObj(params)) last = requireField(params, 'last_block_hash');
  else throw argsError('invalid type: expected {last_block_hash}');
  return backend.nextLightClientBlock(cryptoHash(last)) ?? {};
};
