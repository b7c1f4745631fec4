import { argsError } from '../errors.js';
import { expectObject, requireField } from '../params.js';
import type { MethodHandler } from './types.js';

export const sandbox_patch_state: MethodHandler = (params, backend) => {
  const records = requireField(expectObject(params), 'records');
  if (!Array.isArray(records)) throw argsError('invalid type for `records`, expected a sequence');
  return backend.sandboxPatchState(records);
};
