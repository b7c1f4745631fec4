// Shared params of the transaction methods.
import type { TxExecutionStatus, TxStatusQuery } from '../backend.js';
import { argsError } from '../errors.js';
import { accountId, base64, cryptoHash, isObj, waitUntil } from '../params.js';

/** `{signed_tx_base64, wait_until?}` or `[base64]`. */
export function signedTxParams(params: unknown): { tx: Uint8Array; waitUntil: TxExecutionStatus } {
  if (Array.isArray(params)) {
    if (params.length !== 1) {
      throw argsError(
        params.length === 2
          ? 'Unable to parse send request: too many params passed'
          : 'Unable to parse send request',
      );
    }
    return { tx: txBytes(params[0]), waitUntil: 'EXECUTED_OPTIMISTIC' };
  }
  if (!isObj(params)) throw argsError('invalid type: expected {signed_tx_base64}');
  if (params.signed_tx_base64 === undefined) throw argsError('missing field `signed_tx_base64`');
  return { tx: txBytes(params.signed_tx_base64), waitUntil: waitUntil(params.wait_until) };
}

function txBytes(v: unknown): Uint8Array {
  if (typeof v !== 'string') throw argsError('invalid type: expected a base64-encoded transaction');
  try {
    return base64(v);
  } catch {
    throw argsError(`Failed to decode transaction: invalid base64`);
  }
}

/** `tx` / `EXPERIMENTAL_tx_status` params. */
export function txStatusParams(params: unknown): { query: TxStatusQuery; waitUntil: TxExecutionStatus } {
  if (Array.isArray(params)) {
    if (params.length === 2)
      return {
        query: { txHash: cryptoHash(params[0]), senderAccountId: accountId(params[1]) },
        waitUntil: 'EXECUTED_OPTIMISTIC',
      };
    if (params.length === 1)
      return { query: { signedTx: txBytes(params[0]) }, waitUntil: 'EXECUTED_OPTIMISTIC' };
    throw argsError(`invalid length ${params.length}, expected [tx_hash, sender_account_id]`);
  }
  if (!isObj(params)) throw argsError('invalid type: expected {tx_hash, sender_account_id}');
  const w = waitUntil(params.wait_until);
  if (params.signed_tx_base64 !== undefined)
    return { query: { signedTx: txBytes(params.signed_tx_base64) }, waitUntil: w };
  if (params.tx_hash === undefined) throw argsError('missing field `tx_hash`');
  if (params.sender_account_id === undefined) throw argsError('missing field `sender_account_id`');
  return {
    query: { txHash: cryptoHash(params.tx_hash), senderAccountId: accountId(params.sender_account_id) },
    waitUntil: w,
  };
}
