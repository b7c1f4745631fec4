// nearcore's JSON-RPC error shapes and HTTP codes (chain/jsonrpc-primitives/src/errors.rs and the
// HTTP mapping of chain/jsonrpc/src/lib.rs). Field order on the wire is name, cause, code, message, data.
import { HandlerError, InternalError } from '@nearlite/primitives';
import { internalErrorParts, NO_ERROR_MESSAGE } from './internal_error.js';

export interface RpcErrorBody {
  name: 'REQUEST_VALIDATION_ERROR' | 'HANDLER_ERROR' | 'INTERNAL_ERROR';
  cause: { name: string; info?: unknown };
  code: number;
  message: string;
  data?: unknown;
}

/** An error ready for the wire: the body of `error` and the HTTP status. */
export class RpcError extends Error {
  override readonly name = 'RpcError';
  constructor(
    readonly status: number,
    readonly body: RpcErrorBody,
  ) {
    super(body.message);
  }
}

/**
 * Thrown by a backend when client bytes it was handed (a borsh SignedTransaction) do not decode.
 * The message is the decoder's own text, without any prefix: the transaction methods wrap it the way
 * nearcore does for the params form used ("Failed to decode transaction: …" for `[base64]`,
 * "Failed parsing args: …" for `{signed_tx_base64}`). Always PARSE_ERROR, HTTP 400.
 */
export class RpcParseError extends Error {
  override readonly name = 'RpcParseError';
}

export function parseError(message: string): RpcError {
  return new RpcError(400, {
    name: 'REQUEST_VALIDATION_ERROR',
    cause: { name: 'PARSE_ERROR', info: { error_message: message } },
    code: -32700,
    message: 'Parse error',
    data: message,
  });
}

/** A params deserialization failure (nearcore prefixes every serde error this way). */
export function argsError(message: string): RpcError {
  return parseError(`Failed parsing args: ${message}`);
}

/**
 * What a sandbox method throws for a failure of its call. nearcore answers every one as its error
 * enum's InternalError (RpcSandboxPatchStateError, RpcSandboxFastForwardError): a refusal of the
 * node's becomes that, typed, so it is not logged as a fault. A bad param stays PARSE_ERROR;
 * anything else is rethrown as it is, for the operator's log.
 */
export function sandboxFailure(err: unknown): unknown {
  if (err instanceof RpcParseError) return argsError(err.message);
  if (err instanceof InternalError) return HandlerError.internal(err.message);
  return err;
}

export function methodNotFound(method: string): RpcError {
  return new RpcError(400, {
    name: 'REQUEST_VALIDATION_ERROR',
    cause: { name: 'METHOD_NOT_FOUND', info: { method_name: method } },
    code: -32601,
    message: 'Method not found',
    data: method,
  });
}

export function internalError(message: string, data: unknown = message): RpcError {
  const body: RpcErrorBody = {
    name: 'INTERNAL_ERROR',
    cause: { name: 'INTERNAL_ERROR', info: { error_message: message } },
    code: -32000,
    message: 'Server error',
  };
  if (data !== undefined) body.data = data;
  return new RpcError(500, body);
}

/** nearcore's 422 rule: object params whose `block_id` is an unsigned integer below the head. */
function isBlockBelowHead(params: unknown, headHeight: () => number): boolean {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return false;
  const id = (params as { block_id?: unknown }).block_id;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) return false;
  try {
    return id < headHeight();
  } catch {
    return false;
  }
}

/** `method`'s INTERNAL_ERROR for `message`: its cause and legacy `data` as its nearcore enum makes them. */
export function methodInternalError(method: string, message: string): RpcError {
  const { errorMessage, data } = internalErrorParts(method, message);
  return internalError(errorMessage, data);
}

/** HANDLER_ERROR; HTTP 408 for timeouts, 422 for UNKNOWN_BLOCK below the head. */
export function handlerError(
  err: HandlerError,
  params: unknown,
  headHeight: () => number,
  method: string,
): RpcError {
  if (err.cause === 'INTERNAL_ERROR') {
    // nearcore lifts an INTERNAL_ERROR variant out of HANDLER_ERROR, keeping only error_message.
    const msg = err.info?.error_message;
    return typeof msg === 'string'
      ? methodInternalError(method, msg)
      : internalError(NO_ERROR_MESSAGE, err.data);
  }
  let status = 200;
  if (err.cause === 'TIMEOUT_ERROR') status = 408;
  else if (err.cause === 'UNKNOWN_BLOCK' && isBlockBelowHead(params, headHeight)) status = 422;
  const cause: { name: string; info?: unknown } = { name: err.cause };
  if (err.info !== undefined) cause.info = err.info;
  const body: RpcErrorBody = { name: 'HANDLER_ERROR', cause, code: -32000, message: 'Server error' };
  if (err.data !== undefined) body.data = err.data;
  return new RpcError(status, body);
}

/** Maps anything `method` threw to the wire error. */
export function toRpcError(
  err: unknown,
  params: unknown,
  headHeight: () => number,
  method: string,
): RpcError {
  if (err instanceof RpcError) return err;
  if (err instanceof RpcParseError) return parseError(err.message);
  if (err instanceof HandlerError) return handlerError(err, params, headHeight, method);
  return methodInternalError(method, err instanceof Error ? err.message : String(err));
}
