// `query` in both forms, with nearcore's legacy "error inside a result" answers for a missing access
// key and a failed contract call (process_query_response): clients match those strings.
import { bytesEqualAt, HandlerError, rustDebug } from '@nearlite/primitives';
import type { BlockReference, QueryRequest } from '../backend.js';
import { parseError } from '../errors.js';
import {
  accountId,
  base64,
  blockReference,
  bool,
  cryptoHash,
  expectStruct,
  type Obj,
  optionalField,
  publicKey,
  requireField,
  str,
} from '../params.js';
import { invalidType, invalidValue, missingField, unknownVariant } from '../serde.js';
import { parseQueryPath } from './query_path.js';
import type { MethodHandler } from './types.js';

/** nearcore's QueryRequest variants, in its order (the order its unknown-variant error lists). */
export const QUERY_REQUEST_TYPES = [
  'view_account',
  'view_code',
  'view_state',
  'view_access_key',
  'view_access_key_list',
  'view_gas_key_nonces',
  'call_function',
  'view_global_contract_code',
  'view_global_contract_code_by_account_id',
] as const;

/** serde's NonZeroU32: a u32, then not zero. */
function nonZeroU32(v: unknown): number {
  if (typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v) && (v < 0 || v > 0xffff_ffff)))
    throw invalidValue(v, 'u32');
  if (typeof v !== 'number' || !Number.isInteger(v)) throw invalidType(v, 'a nonzero u32');
  if (v === 0) throw invalidValue(v, 'a nonzero u32');
  return v;
}

/** The internally tagged `QueryRequest` (tag `request_type`), fields in nearcore's order. */
export function parseQueryRequest(p: Obj): QueryRequest {
  if (!Object.hasOwn(p, 'request_type')) throw missingField('request_type');
  const type = p.request_type;
  if (typeof type !== 'string') throw invalidType(type, 'variant identifier');
  switch (type) {
    case 'view_account':
    case 'view_code':
    case 'view_access_key_list':
    case 'view_global_contract_code_by_account_id':
      return { requestType: type, accountId: accountId(requireField(p, 'account_id')) };
    case 'view_global_contract_code':
      return { requestType: type, codeHash: cryptoHash(requireField(p, 'code_hash')) };
    case 'view_state': {
      const account = accountId(requireField(p, 'account_id'));
      const prefix = base64(requireField(p, 'prefix_base64'));
      const afterKey = optionalField(p, 'after_key_base64', base64) ?? null;
      const limit = optionalField(p, 'limit', nonZeroU32) ?? null;
      const includeProof = Object.hasOwn(p, 'include_proof') ? bool(p.include_proof) : false;
      // nearcore's validate_view_state_pagination, after the params parse: no "Failed parsing args".
      if (includeProof && (afterKey !== null || limit !== null))
        throw parseError(
          'include_proof is not supported with paginated view_state (after_key_base64 / limit)',
        );
      if (afterKey !== null && !bytesEqualAt(prefix, afterKey, 0))
        throw parseError('after_key_base64 must start with prefix_base64');
      return {
        requestType: type,
        accountId: account,
        prefix,
        includeProof,
        ...(afterKey !== null || limit !== null ? { page: { afterKey, limit } } : {}),
      };
    }
    case 'view_access_key':
    case 'view_gas_key_nonces':
      return {
        requestType: type,
        accountId: accountId(requireField(p, 'account_id')),
        publicKey: publicKey(requireField(p, 'public_key')),
      };
    case 'call_function':
      return {
        requestType: type,
        accountId: accountId(requireField(p, 'account_id')),
        methodName: str(requireField(p, 'method_name')),
        args: base64(requireField(p, 'args_base64')),
      };
    default:
      throw unknownVariant(type, QUERY_REQUEST_TYPES);
  }
}

export function parseRpcQueryRequest(params: unknown): { ref: BlockReference; req: QueryRequest } {
  if (Array.isArray(params) && params.length === 2) return parseQueryPath(params[0], params[1]);
  const p = expectStruct(params, 'RpcQueryRequest');
  const ref = blockReference(p);
  return { ref, req: parseQueryRequest(p) };
}

/** The legacy result for the two errors nearcore answers as a success, or null for any other. */
export function legacyQueryResult(err: HandlerError): object | null {
  const info = err.info ?? {};
  let error: string;
  if (err.cause === 'UNKNOWN_ACCESS_KEY') {
    error = `access key ${String(info.public_key)} does not exist while viewing`;
  } else if (err.cause === 'CONTRACT_EXECUTION_ERROR') {
    // Backends put the whole text in data; failing that, it is made from the error in vm_error.
    error =
      typeof err.data === 'string'
        ? err.data
        : `wasm execution failed with error: ${rustDebug(info.vm_error)}`;
  } else {
    return null;
  }
  return { error, logs: [], block_height: info.block_height, block_hash: info.block_hash };
}

export const query: MethodHandler = async (params, backend) => {
  const { ref, req } = parseRpcQueryRequest(params);
  try {
    return await backend.query(ref, req);
  } catch (err) {
    const legacy = err instanceof HandlerError ? legacyQueryResult(err) : null;
    if (legacy === null) throw err;
    return legacy;
  }
};
