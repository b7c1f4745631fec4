import { blockReference, expectObject } from '../params.js';
import type { MethodHandler } from './types.js';

export const block_effects: MethodHandler = (params, backend) =>
  backend.changesInBlock(blockReference(expectObject(params)));
