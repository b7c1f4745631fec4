import { blockId, structFields } from '../params.js';
import type { MethodHandler } from './types.js';

/** `{block_id: id | null}` (absent: the head) or `[id | null]`. */
export const EXPERIMENTAL_validators_ordered: MethodHandler = (params, backend) => {
  const id = structFields(params, 'RpcValidatorsOrderedRequest', ['block_id']).block_id;
  return backend.validatorsOrdered(id === null || id === undefined ? null : blockId(id));
};
