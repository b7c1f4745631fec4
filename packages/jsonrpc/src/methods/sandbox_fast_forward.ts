import { expectObject, requireField, u64 } from '../params.js';
import type { MethodHandler } from './types.js';

export const sandbox_fast_forward: MethodHandler = (params, backend) =>
  backend.sandboxFastForward(u64(requireField(expectObject(params), 'delta_height'), 'u64'));
