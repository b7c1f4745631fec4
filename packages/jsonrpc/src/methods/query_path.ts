// The soft-deprecated `query` form `[path, data]` (nearcore's parse_path_data): always at the
// optimistic head, `data` base58, and errors worded without the "Failed parsing args" prefix.
import { accountIdError, base58Decode } from '@nearlite/primitives';
import type { BlockReference, QueryRequest } from '../backend.js';
import { bs58CharFailure, bs58Message } from '../bs58.js';
import { parseError } from '../errors.js';
import { publicKey, str } from '../params.js';

const QUERY_DATA_MAX_SIZE = 10 * 1024;
/** bs58 decoding of the whole text, as nearcore does, then its size against `maxLen`. */
function decodeData(data: string, maxLen: number): Uint8Array {
  const bad = bs58CharFailure(data);
  if (bad) throw parseError(bs58Message(bad));
  // Every base58 digit past the first carries at least 5.8 bits, so longer input cannot fit; this
  // also keeps the quadratic decoder away from megabytes of digits.
  let zeros = 0;
  while (zeros < data.length && data[zeros] === '1') zeros++;
  const minLen = zeros + Math.floor(((data.length - zeros - 1) * 733) / 1000);
  if (minLen > maxLen) throw parseError('Query data size is too large');
  const bytes = base58Decode(data);
  if (bytes.length > maxLen) throw parseError('Query data size is too large');
  return bytes;
}

export function parseQueryPath(
  pathValue: unknown,
  dataValue: unknown,
): { ref: BlockReference; req: QueryRequest } {
  const path = str(pathValue);
  const data = str(dataValue);
  const maxLen = Math.max(0, QUERY_DATA_MAX_SIZE - Buffer.byteLength(path, 'utf8'));
  // splitn(3, '/'): the third part keeps any further slashes.
  const first = path.indexOf('/');
  if (first < 0) throw parseError('Not enough query parameters provided');
  const command = path.slice(0, first);
  const second = path.indexOf('/', first + 1);
  const account = second < 0 ? path.slice(first + 1) : path.slice(first + 1, second);
  const extra = second < 0 ? null : path.slice(second + 1);
  const accountErr = accountIdError(account);
  if (accountErr !== null) throw parseError(accountErr);
  const ref: BlockReference = { finality: 'optimistic' };
  switch (command) {
    case 'account':
      return { ref, req: { requestType: 'view_account', accountId: account } };
    case 'code':
      return { ref, req: { requestType: 'view_code', accountId: account } };
    case 'access_key': {
      if (extra === null) return { ref, req: { requestType: 'view_access_key_list', accountId: account } };
      let pk: string;
      try {
        pk = publicKey(extra);
      } catch {
        throw parseError('Invalid public key');
      }
      return { ref, req: { requestType: 'view_access_key', accountId: account, publicKey: pk } };
    }
    case 'contract':
      return {
        ref,
        req: {
          requestType: 'view_state',
          accountId: account,
          prefix: decodeData(data, maxLen),
          includeProof: false,
        },
      };
    case 'call':
      if (extra === null) throw parseError('Method name is missing');
      return {
        ref,
        req: {
          requestType: 'call_function',
          accountId: account,
          methodName: extra,
          args: decodeData(data, maxLen),
        },
      };
    default:
      throw parseError(`Unknown path ${command}`);
  }
}
