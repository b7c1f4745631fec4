import { argsError } from '../errors.js';
import { isObj, requireField, u64 } from '../params.js';
import { invalidLength, invalidType } from '../serde.js';
import type { MethodHandler } from './types.js';

const STRUCT = 'struct RpcSandboxFastForwardRequest';

/** The most blocks one `sandbox_fast_forward` produces; larger jumps take several calls. */
export const MAX_FAST_FORWARD = 100_000;

/** `{delta_height}` (or `[delta_height]`: serde reads a struct from a sequence too). */
export function parseFastForwardRequest(params: unknown): number {
  if (Array.isArray(params)) {
    if (params.length !== 1) throw invalidLength(params.length, `${STRUCT} with 1 element`);
    return u64(params[0]);
  }
  if (!isObj(params)) throw invalidType(params, STRUCT);
  return u64(requireField(params, 'delta_height'));
}

export const sandbox_fast_forward: MethodHandler = (params, backend) => {
  const delta = parseFastForwardRequest(params);
  // Blocks are produced one by one: an unbounded delta would hold the node for as long as it asks.
  if (delta > MAX_FAST_FORWARD)
    throw argsError(`delta_height ${delta} is above the maximum of ${MAX_FAST_FORWARD} blocks per call`);
  return backend.sandboxFastForward!(delta);
};
