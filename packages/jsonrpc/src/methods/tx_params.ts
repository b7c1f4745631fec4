// Params shared by the transaction methods, with nearcore's split between the array forms (errors
// worded "Failed to decode transaction: …") and the object forms (plain serde errors). The RPC layer
// checks base64; the backend decodes borsh and throws RpcParseError, which `decodeFailure` words.
import { decodeSignedTransaction } from '@nearlite/primitives';
import type { RpcBackend, TxExecutionStatus, TxStatusQuery } from '../backend.js';
import { Base64DecodeError, decodeBase64 } from '../base64.js';
import { argsError, parseError, RpcParseError } from '../errors.js';
import { accountId, cryptoHash, expectStruct, str, waitUntil } from '../params.js';
import { invalidLength, missingField, noUntaggedMatch } from '../serde.js';

/** How a transaction reached us decides how its decode failure is worded. */
export type TxForm = 'array' | 'send_object' | 'status_object';

export interface SignedTxParams {
  readonly tx: Uint8Array;
  readonly waitUntil: TxExecutionStatus;
  readonly form: TxForm;
}

/** The array forms' base64 step (`decode_signed_transaction`). */
function arrayTxBytes(v: unknown): Uint8Array {
  const s = str(v);
  try {
    return decodeBase64(s);
  } catch (err) {
    if (err instanceof Base64DecodeError) throw parseError(`Failed to decode transaction: ${err.message}`);
    throw err;
  }
}

/** `{signed_tx_base64, wait_until?}`, `[base64]`; two strings are refused as nearcore does. */
export function parseSendTxRequest(params: unknown): SignedTxParams {
  if (Array.isArray(params)) {
    if (params.length === 1) {
      return { tx: arrayTxBytes(params[0]), waitUntil: 'EXECUTED_OPTIMISTIC', form: 'array' };
    }
    if (params.length === 2) {
      str(params[0]);
      str(params[1]);
      throw parseError('Unable to parse send request: too many params passed');
    }
    if (params.length === 0) throw invalidLength(0, 'struct RpcSendTransactionRequest with 2 elements');
    // serde reads the struct's two fields from the first two elements, then refuses the rest: each
    // field's own failure comes first, the borsh of the transaction included.
    const tx = signedTxField(params[0]);
    try {
      decodeSignedTransaction(tx);
    } catch (err) {
      // Any failure to read it, as the backend words a transaction it cannot decode.
      throw argsError(`the value could not decoded from borsh due to: ${(err as Error).message}`);
    }
    waitUntil({ wait_until: params[1] });
    throw argsError(`invalid length ${params.length}, expected fewer elements in array`);
  }
  const o = expectStruct(params, 'RpcSendTransactionRequest');
  if (!Object.hasOwn(o, 'signed_tx_base64')) throw missingField('signed_tx_base64');
  return { tx: signedTxField(o.signed_tx_base64), waitUntil: waitUntil(o), form: 'send_object' };
}

/** `signed_tx_base64`'s base64 step, worded by SignedTransaction's own Deserialize (core/primitives/src/transaction.rs). */
function signedTxField(v: unknown): Uint8Array {
  const s = str(v);
  try {
    return decodeBase64(s);
  } catch (err) {
    if (!(err instanceof Base64DecodeError)) throw err;
    throw argsError(`the value could not decoded from base64 due to: ${err.message}`);
  }
}

export interface TxStatusParams {
  readonly query: TxStatusQuery;
  readonly waitUntil: TxExecutionStatus;
  readonly form: TxForm;
  /**
   * The hash form, when the object also holds one: the untagged TransactionInfo tries it when the
   * signed transaction's borsh does not decode.
   */
  readonly fallback?: TxStatusQuery;
}

/** `{tx_hash, sender_account_id}` or `{signed_tx_base64}` (+ wait_until), `[hash, sender]`, `[base64]`. */
export function parseTxStatusRequest(params: unknown): TxStatusParams {
  if (Array.isArray(params) && params.length === 1) {
    return {
      query: { signedTx: arrayTxBytes(params[0]) },
      waitUntil: 'EXECUTED_OPTIMISTIC',
      form: 'array',
    };
  }
  if (Array.isArray(params) && params.length === 2) {
    const txHash = cryptoHash(params[0]);
    return {
      query: { txHash, senderAccountId: accountId(params[1]) },
      waitUntil: 'EXECUTED_OPTIMISTIC',
      form: 'array',
    };
  }
  const o = expectStruct(params, 'RpcTransactionStatusRequest');
  const w = waitUntil(o);
  // The untagged TransactionInfo: a signed transaction first, then hash + sender.
  const signed = typeof o.signed_tx_base64 === 'string' ? tryBase64(o.signed_tx_base64) : null;
  const byHash = hashForm(o);
  if (signed !== null) {
    const query = { signedTx: signed };
    return { query, waitUntil: w, form: 'status_object', ...(byHash ? { fallback: byHash } : {}) };
  }
  if (byHash === null) throw noUntaggedMatch('TransactionInfo');
  return { query: byHash, waitUntil: w, form: 'status_object' };
}

function hashForm(o: Readonly<Record<string, unknown>>): TxStatusQuery | null {
  try {
    return { txHash: cryptoHash(o.tx_hash), senderAccountId: accountId(o.sender_account_id) };
  } catch {
    return null;
  }
}

/** `tx` and `EXPERIMENTAL_tx_status`: the status, the hash form tried when the borsh does not decode. */
export async function txStatusOf(backend: RpcBackend, p: TxStatusParams, withReceipts: boolean) {
  try {
    return await backend.txStatus(p.query, p.waitUntil, withReceipts);
  } catch (err) {
    if (err instanceof RpcParseError && p.fallback)
      return backend.txStatus(p.fallback, p.waitUntil, withReceipts);
    throw decodeFailure(err, p.form);
  }
}

function tryBase64(s: string): Uint8Array | null {
  try {
    return decodeBase64(s);
  } catch {
    return null;
  }
}

/** Rewords a backend's borsh failure for the params form the transaction came in. */
export function decodeFailure(err: unknown, form: TxForm): unknown {
  if (!(err instanceof RpcParseError)) return err;
  if (form === 'array') return parseError(`Failed to decode transaction: ${err.message}`);
  if (form === 'send_object')
    return argsError(`the value could not decoded from borsh due to: ${err.message}`);
  return argsError('data did not match any variant of untagged enum TransactionInfo');
}
