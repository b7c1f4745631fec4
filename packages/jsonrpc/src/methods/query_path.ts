// The soft-deprecated `query` form `[path, data]` (nearcore's parse_path_data): always at the
// optimistic head, `data` base58, and errors worded without the "Failed parsing args" prefix.
import { accountIdError, base58Decode, base58Digit } from '@nearlite/primitives';
import type { BlockReference, QueryRequest } from '../backend.js';
import { bs58CharFailure, bs58Message } from '../bs58.js';
import { parseError } from '../errors.js';
import { publicKey, str } from '../params.js';

const QUERY_DATA_MAX_SIZE = 10 * 1024;

/**
 * nearcore's parse_bs58_data: bs58 decodes digit by digit from the left into a buffer of `maxLen`
 * bytes (or the text's length, if shorter), so a bad character is reported only if the digits
 * before it fit; past as many as fill the buffer, the data is too large.
 */
function decodeData(data: string, maxLen: number): Uint8Array {
  const bad = bs58CharFailure(data);
  if (bad) {
    // Every character before the first bad one is a base58 digit, one byte each.
    const capacity = Math.min(maxLen, Buffer.byteLength(data, 'utf8'));
    if (digitsOverflow(data.slice(0, bad.kind === 'BufferTooSmall' ? 0 : bad.index), capacity))
      throw parseError('Query data size is too large');
    throw parseError(bs58Message(bad));
  }
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

/**
 * Whether decoding these base58 digits overflows `capacity` bytes before the input ends. Leading
 * '1's add their zero bytes only once every digit is read, so they never overflow it here.
 */
function digitsOverflow(digits: string, capacity: number): boolean {
  let start = 0;
  while (start < digits.length && digits[start] === '1') start++;
  const n = digits.length - start;
  if (n === 0) return false;
  // n digits hold at least (n − 1)·log2(58) > 5.85·(n − 1) bits: far past the buffer, no need to count.
  if (5.85 * (n - 1) > 8 * capacity) return true;
  // Nine digits at a time (58^9 < 2^53): a few thousand steps at most, below the bound above.
  let v = 0n;
  for (let i = start; i < digits.length; i += 9) {
    const chunk = digits.slice(i, i + 9);
    let part = 0;
    for (const c of chunk) part = part * 58 + base58Digit(c.charCodeAt(0));
    v = v * 58n ** BigInt(chunk.length) + BigInt(part);
  }
  return Math.ceil(v.toString(16).length / 2) > capacity;
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
