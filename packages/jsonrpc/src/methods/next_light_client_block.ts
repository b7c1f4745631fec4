import type { CryptoHash } from '@nearlite/primitives';
import { cryptoHash, isObj, requireField } from '../params.js';
import { invalidLength, invalidType } from '../serde.js';
import type { MethodHandler } from './types.js';

const STRUCT = 'struct RpcLightClientNextBlockRequest';

/** `{last_block_hash}` or the legacy `[last_block_hash]`. */
export function parseNextLightClientBlockRequest(params: unknown): CryptoHash {
  if (Array.isArray(params)) {
    if (params.length !== 1) throw invalidLength(params.length, `${STRUCT} with 1 element`);
    return cryptoHash(params[0]);
  }
  if (!isObj(params)) throw invalidType(params, STRUCT);
  return cryptoHash(requireField(params, 'last_block_hash'));
}

/** `{}` when the client is already up to date (nearcore flattens a None). */
export const next_light_client_block: MethodHandler = async (params, backend) =>
  (await backend.nextLightClientBlock(parseNextLightClientBlockRequest(params))) ?? {};
