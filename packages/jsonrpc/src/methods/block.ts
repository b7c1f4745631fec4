import type { BlockReference } from '../backend.js';
import { blockId, blockReference, expectStruct } from '../params.js';
import type { MethodHandler } from './types.js';

/** `{<block ref>}` or the legacy `[block_id]`. */
export function parseBlockRequest(params: unknown): BlockReference {
  if (Array.isArray(params) && params.length === 1) return { blockId: blockId(params[0]) };
  return blockReference(expectStruct(params, 'RpcBlockRequest'));
}

export const block: MethodHandler = (params, backend) => backend.block(parseBlockRequest(params));
