import { maybeBlockIdStruct } from '../params.js';
import type { MethodHandler } from './types.js';

/** `{block_id: id | null}` (absent: the head) or `[id | null]`. */
export const EXPERIMENTAL_validators_ordered: MethodHandler = (params, backend) =>
  backend.validatorsOrdered(maybeBlockIdStruct(params, 'RpcValidatorsOrderedRequest'));
