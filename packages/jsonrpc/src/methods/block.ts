import type { BlockReference } from '../backend.js';
import { blockId, blockReferenceEnum } from '../params.js';
import type { MethodHandler } from './types.js';

/**
 * `{<block ref>}` or the legacy `[block_id]`. nearcore reads the BlockReference enum from the params
 * themselves (chain/jsonrpc/src/api/blocks.rs), so the object holds exactly one key.
 */
export function parseBlockRequest(params: unknown): BlockReference {
  if (Array.isArray(params) && params.length === 1) return { blockId: blockId(params[0]) };
  return blockReferenceEnum(params);
}

export const block: MethodHandler = (params, backend) => backend.block(parseBlockRequest(params));
