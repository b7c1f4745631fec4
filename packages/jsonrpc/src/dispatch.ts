// JSON-RPC dispatch without any HTTP: envelope checks, method lookup, params parsing, the backend
// call and nearcore's error mapping. The server only parses bytes and writes the string back.
import { stringifyJson } from '@nearlite/primitives';
import type { RpcBackend } from './backend.js';
import { methodNotFound, parseError, type RpcError, toRpcError } from './errors.js';
import { METHODS } from './methods/index.js';
import { isObj } from './params.js';

export interface DispatchResult {
  readonly status: number;
  readonly body: string;
}

const ENVELOPE_KEYS = new Set(['jsonrpc', 'method', 'id', 'params']);
const NOT_A_REQUEST = 'JSON RPC Request format was expected';

function respond(id: unknown, result: unknown): DispatchResult {
  return { status: 200, body: stringifyJson({ jsonrpc: '2.0', result, id }) };
}

function fail(id: unknown, err: RpcError): DispatchResult {
  return { status: err.status, body: stringifyJson({ jsonrpc: '2.0', error: err.body, id }) };
}

/** Validates a request envelope; returns null when the value is not a JSON-RPC request. */
function envelope(body: unknown): { id: unknown; method: string; params: unknown } | null {
  if (!isObj(body)) return null;
  for (const k of Object.keys(body)) if (!ENVELOPE_KEYS.has(k)) return null;
  if (body.jsonrpc !== '2.0' || !('id' in body) || typeof body.method !== 'string') return null;
  return { id: body.id, method: body.method, params: body.params ?? null };
}

export async function call(
  method: string,
  params: unknown,
  id: unknown,
  backend: RpcBackend,
): Promise<DispatchResult> {
  if (!Object.hasOwn(METHODS, method)) return fail(id, methodNotFound(method));
  try {
    const result = await METHODS[method]!(params, backend);
    return respond(id, result);
  } catch (err) {
    return fail(
      id,
      toRpcError(err, params, () => backend.headHeight()),
    );
  }
}

/** `POST /` with an already-parsed JSON body. */
export async function dispatch(body: unknown, backend: RpcBackend): Promise<DispatchResult> {
  const req = envelope(body);
  if (!req) return fail(null, parseError(NOT_A_REQUEST));
  return call(req.method, req.params, req.id, backend);
}

/**
 * `POST /<method>`: the body is either a full envelope whose method must match the path, or the
 * params themselves (the answer then has id null).
 */
export async function dispatchPath(
  method: string,
  body: unknown,
  backend: RpcBackend,
): Promise<DispatchResult> {
  if (isObj(body) && 'jsonrpc' in body) {
    const req = envelope(body);
    if (!req) return fail(null, parseError(NOT_A_REQUEST));
    if (req.method !== method) {
      return fail(
        req.id,
        parseError(`method \`${req.method}\` in the body does not match the path /${method}`),
      );
    }
    return call(method, req.params, req.id, backend);
  }
  return call(method, body ?? null, null, backend);
}
