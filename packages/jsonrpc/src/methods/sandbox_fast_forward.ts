import { sandboxFailure } from '../errors.js';
import { isObj, requireField, u64 } from '../params.js';
import { invalidLength, invalidType } from '../serde.js';
import type { MethodHandler } from './types.js';

const STRUCT = 'struct RpcSandboxFastForwardRequest';

/** `{delta_height}` (or `[delta_height]`: serde reads a struct from a sequence too). */
export function parseFastForwardRequest(params: unknown): number | bigint {
  if (Array.isArray(params)) {
    if (params.length !== 1) throw invalidLength(params.length, `${STRUCT} with 1 element`);
    return u64(params[0]);
  }
  if (!isObj(params)) throw invalidType(params, STRUCT);
  return u64(requireField(params, 'delta_height'));
}

/**
 * The node bounds the delta by what its epochs make of it (it throws RpcParseError above that), as
 * it produces the blocks while the call waits.
 */
export const sandbox_fast_forward: MethodHandler = async (params, backend) => {
  const delta = parseFastForwardRequest(params);
  try {
    return await backend.sandboxFastForward!(delta);
  } catch (err) {
    throw sandboxFailure(err);
  }
};
