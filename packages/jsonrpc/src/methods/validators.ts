import type { EpochReference } from '../backend.js';
import { argsError } from '../errors.js';
import { blockId, cryptoHash, expectStruct } from '../params.js';
import { invalidType } from '../serde.js';
import type { MethodHandler } from './types.js';

/** `{epoch_id}`, `{block_id}`, `{latest: null}`, or the legacy `[block_id]` / `[null]` (latest). */
export function parseValidatorRequest(params: unknown): EpochReference {
  if (Array.isArray(params) && params.length === 1) {
    return params[0] === null ? null : { blockId: blockId(params[0]) };
  }
  const o = expectStruct(params, 'RpcValidatorRequest');
  // The flattened EpochReference takes the first of its keys present (serde_json's sorted maps).
  if (Object.hasOwn(o, 'block_id')) return { blockId: blockId(o.block_id) };
  if (Object.hasOwn(o, 'epoch_id')) return { epochId: cryptoHash(o.epoch_id) };
  if (Object.hasOwn(o, 'latest')) {
    if (o.latest !== null) throw invalidType(o.latest, 'unit');
    return null;
  }
  throw argsError('no variant of enum EpochReference found in flattened data');
}

export const validators: MethodHandler = (params, backend) =>
  backend.validators(parseValidatorRequest(params));
