// `query` in both forms, with nearcore's legacy "error inside result" answers for missing access keys
// and contract execution failures (clients match those strings).
import { base58Decode, HandlerError } from '@nearlite/primitives';
import type { BlockReference, QueryRequest } from '../backend.js';
import { argsError } from '../errors.js';
import {
  accountId,
  base64,
  blockReference,
  denyUnknown,
  expectObject,
  publicKey,
  requireField,
  str,
} from '../params.js';
import type { MethodHandler } from './types.js';

const REF_FIELDS = ['finality', 'block_id', 'sync_checkpoint'];
const FIELDS: Record<string, readonly string[]> = {
  view_account: ['account_id'],
  view_code: ['account_id'],
  view_state: ['account_id', 'prefix_base64', 'include_proof'],
  view_access_key: ['account_id', 'public_key'],
  view_access_key_list: ['account_id'],
  call_function: ['account_id', 'method_name', 'args_base64'],
};

function objectForm(p: Record<string, unknown>): { ref: BlockReference; req: QueryRequest } {
  const type = str(requireField(p, 'request_type'), 'a request type');
  const fields = FIELDS[type];
  if (!fields) {
    throw argsError(
      `unknown variant \`${type}\`, expected one of ${Object.keys(FIELDS)
        .map((f) => `\`${f}\``)
        .join(', ')}`,
    );
  }
  denyUnknown(p, ['request_type', ...REF_FIELDS, ...fields]);
  const ref = blockReference(p);
  const account = accountId(requireField(p, 'account_id'));
  switch (type) {
    case 'view_state': {
      const inc = p.include_proof;
      if (inc !== undefined && typeof inc !== 'boolean')
        throw argsError('invalid type for `include_proof`, expected a boolean');
      return {
        ref,
        req: {
          requestType: 'view_state',
          accountId: account,
          prefix: base64(requireField(p, 'prefix_base64')),
          includeProof: inc === true,
        },
      };
    }
    case 'view_access_key':
      return {
        ref,
        req: {
          requestType: 'view_access_key',
          accountId: account,
          publicKey: publicKey(requireField(p, 'public_key')),
        },
      };
    case 'call_function': {
      const methodName = str(requireField(p, 'method_name'), 'a method name');
      return {
        ref,
        req: {
          requestType: 'call_function',
          accountId: account,
          methodName,
          args: base64(requireField(p, 'args_base64')),
        },
      };
    }
    default:
      return {
        ref,
        req: {
          requestType: type as 'view_account' | 'view_code' | 'view_access_key_list',
          accountId: account,
        },
      };
  }
}

function decodeData(data: string): Uint8Array {
  try {
    return base58Decode(data);
  } catch {
    throw argsError('data is not base58');
  }
}

/** `[path, data]`, always at the optimistic head. */
function pathForm(params: unknown[]): { ref: BlockReference; req: QueryRequest } {
  if (params.length !== 2) throw argsError(`invalid length ${params.length}, expected [path, data]`);
  const path = str(params[0], 'a query path');
  const data = str(params[1], 'query data');
  if (path.length + data.length > 10 * 1024) throw argsError('Query data size is too large');
  const parts = path.split('/');
  const [kind, id, rest] = [parts[0], parts[1], parts.slice(2).join('/')];
  if (!id) throw argsError('Not enough query parameters provided');
  const ref: BlockReference = { finality: 'optimistic' };
  const account = accountId(id);
  switch (kind) {
    case 'account':
      return { ref, req: { requestType: 'view_account', accountId: account } };
    case 'code':
      return { ref, req: { requestType: 'view_code', accountId: account } };
    case 'contract':
      return {
        ref,
        req: { requestType: 'view_state', accountId: account, prefix: decodeData(data), includeProof: false },
      };
    case 'access_key':
      if (!rest) return { ref, req: { requestType: 'view_access_key_list', accountId: account } };
      try {
        return {
          ref,
          req: { requestType: 'view_access_key', accountId: account, publicKey: publicKey(rest) },
        };
      } catch {
        throw argsError('Invalid public key');
      }
    case 'call':
      if (!rest) throw argsError('Method name is missing');
      return {
        ref,
        req: { requestType: 'call_function', accountId: account, methodName: rest, args: decodeData(data) },
      };
    default:
      throw argsError(`Unknown path ${kind}`);
  }
}

export const query: MethodHandler = async (params, backend) => {
  const { ref, req } = Array.isArray(params) ? pathForm(params) : objectForm(expectObject(params));
  try {
    return await backend.query(ref, req);
  } catch (err) {
    if (!(err instanceof HandlerError)) throw err;
    const info = (err.info ?? {}) as { block_height?: number; block_hash?: string; vm_error?: unknown };
    if (err.cause === 'UNKNOWN_ACCESS_KEY') {
      return {
        error: String(err.data),
        logs: [],
        block_height: info.block_height,
        block_hash: info.block_hash,
      };
    }
    if (err.cause === 'CONTRACT_EXECUTION_ERROR') {
      return {
        error: `wasm execution failed with error: ${String(info.vm_error)}`,
        logs: [],
        block_height: info.block_height,
        block_hash: info.block_hash,
      };
    }
    throw err;
  }
};
