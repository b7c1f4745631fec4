import type { EpochReference } from '../backend.js';
import { argsError } from '../errors.js';
import { blockId, cryptoHash, externallyTagged } from '../params.js';
import { invalidType } from '../serde.js';
import type { MethodHandler } from './types.js';

const EPOCH_REFERENCE = ['epoch_id', 'block_id', 'latest'] as const;

/**
 * The legacy `[block_id]` / `[null]` (latest), else the EpochReference enum read from the params
 * themselves (chain/jsonrpc/src/api/validator.rs): `{epoch_id}`, `{block_id}`, `{latest: null}` or
 * `"latest"`, one key only.
 */
export function parseValidatorRequest(params: unknown): EpochReference {
  if (Array.isArray(params) && params.length === 1) {
    return params[0] === null ? null : { blockId: blockId(params[0]) };
  }
  const [variant, value] = externallyTagged(params, EPOCH_REFERENCE);
  if (variant === 'latest') {
    // A unit variant: no value, or null in the map form.
    if (value !== undefined && value !== null) throw invalidType(value, 'unit');
    return null;
  }
  if (value === undefined) throw argsError('invalid type: unit variant, expected newtype variant');
  return variant === 'block_id' ? { blockId: blockId(value) } : { epochId: cryptoHash(value) };
}

export const validators: MethodHandler = (params, backend) =>
  backend.validators(parseValidatorRequest(params));
