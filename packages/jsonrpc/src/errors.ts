// nearcore's JSON-RPC error shapes and HTTP codes (chain/jsonrpc-primitives/src/errors.rs).
import { HandlerError } from '@nearlite/primitives';

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

/** Thrown by a backend when request bytes (a transaction) cannot be decoded: PARSE_ERROR, HTTP 400. */
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

/** A params deserialization failure, worded like serde's through nearcore. */
export function argsError(message: string): RpcError {
  return parseError(`Failed parsing args: ${message}`);
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

export function internalError(message: string): RpcError {
  return new RpcError(500, {
    name: 'INTERNAL_ERROR',
    cause: { name: 'INTERNAL_ERROR', info: { error_message: message } },
    code: -32000,
    message: 'Server error',
    data: message,
  });
}

/** HANDLER_ERROR; HTTP 408 for timeouts, 422 for UNKNOWN_BLOCK below the head (nearcore's rule). */
export function handlerError(err: HandlerError, params: unknown, headHeight: () => number): RpcError {
  let status = 200;
  if (err.cause === 'TIMEOUT_ERROR') status = 408;
  else if (err.cause === 'UNKNOWN_BLOCK') {
    const p = params as { block_id?: unknown } | null;
    const id = p && typeof p === 'object' && !Array.isArray(p) ? p.block_id : undefined;
    if (typeof id === 'number' && Number.isInteger(id) && id >= 0 && id < headHeight()) status = 422;
  }
  const cause: { name: string; info?: unknown } = { name: err.cause };
  if (err.info !== undefined) cause.info = err.info;
  const body: RpcErrorBody = { name: 'HANDLER_ERROR', cause, code: -32000, message: 'Server error' };
  if (err.data !== undefined) body.data = err.data;
  return new RpcError(status, body);
}

export function toRpcError(err: unknown, params: unknown, headHeight: () => number): RpcError {
  if (err instanceof RpcError) return err;
  if (err instanceof RpcParseError) return parseError(err.message);
  if (err instanceof HandlerError) return handlerError(err, params, headHeight);
  return internalError(err instanceof Error ? err.message : String(err));
}
