import { blockReference, expectStruct } from '../params.js';
import type { MethodHandler } from './types.js';

/** Every state change in a block, by kind (nearcore's changes_in_block). */
export const block_effects: MethodHandler = (params, backend) =>
  backend.changesInBlock(blockReference(expectStruct(params, 'RpcStateChangesInBlockRequest')));
