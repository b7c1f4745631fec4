// JSON-RPC dispatch without any HTTP: envelope checks, method lookup, params parsing, the backend
// call and nearcore's error mapping, down to the response text. The server only moves bytes.
import { HandlerError, stringifyJson } from '@nearlite/primitives';
import type { RpcBackend } from './backend.js';
import { internalError, methodNotFound, parseError, RpcError, RpcParseError, toRpcError } from './errors.js';
import { METHODS, SANDBOX_METHODS } from './methods/index.js';
import { QUERY_REQUEST_TYPES } from './methods/query.js';
import { isObj } from './params.js';

export interface DispatchResult {
  readonly status: number;
  /** The response envelope, serialized. */
  readonly body: string;
}

export interface DispatchOptions {
  /**
   * The method named by the URL (`POST /<method>`). The body is then either a full envelope, whose
   * `method` (if any) must equal this one, or the bare params (answered with id null).
   */
  readonly pathMethod?: string;
  /**
   * Told of every failure that is not a request's fault (an exception nothing typed), with the
   * method it happened in, so an operator sees what a client only sees as INTERNAL_ERROR.
   */
  readonly onInternalError?: (err: unknown, method: string) => void;
  /**
   * Told of every answered call: its method (`query.<request_type>` for queries), `ok` or the error's
   * cause name, and seconds taken.
   */
  readonly observe?: (method: string, outcome: string, seconds: number) => void;
  /**
   * The commas between the body's top-level members as written (body.ts). Where the parsed envelope
   * has no more keys than that, a key was named twice and the parser kept the last: nearcore's
   * `Request` is a derived struct that refuses a duplicate field, so that body is not a request.
   * Bare params (the path form) are a JSON value, where the last one stands, as in serde_json's.
   */
  readonly topLevelCommas?: number;
}

const ENVELOPE_KEYS = new Set(['jsonrpc', 'method', 'id', 'params']);
const NOT_A_REQUEST = 'JSON RPC Request format was expected';

interface Request {
  readonly id: unknown;
  readonly method: string | undefined;
  readonly params: unknown;
}

/**
 * nearcore's `Request` (deny_unknown_fields, no field twice; `id` required; `params` defaults to
 * null), or null.
 */
function envelope(body: unknown, topLevelCommas: number): Request | null {
  if (!isObj(body)) return null;
  let keys = 0;
  for (const k in body) {
    if (!ENVELOPE_KEYS.has(k)) return null;
    keys++;
  }
  if (keys <= topLevelCommas) return null;
  if (body.jsonrpc !== '2.0' || !Object.hasOwn(body, 'id')) return null;
  if (body.method !== undefined && typeof body.method !== 'string') return null;
  return { id: body.id, method: body.method, params: body.params ?? null };
}

/**
 * The id as serde_json writes back what it read (a float as an f64, an integer above 2^53 exactly);
 * null (and a parse error) if it cannot be written back.
 */
export function idJson(id: unknown): string | null {
  try {
    return stringifyJson(id) ?? null;
  } catch {
    return null;
  }
}

function fail(id: string, err: RpcError): DispatchResult {
  return { status: err.status, body: `{"jsonrpc":"2.0","error":${stringifyJson(err.body)},"id":${id}}` };
}

async function call(
  method: string,
  params: unknown,
  id: string,
  backend: RpcBackend,
  report: (err: unknown, method: string) => void,
  observe: ((method: string, outcome: string, seconds: number) => void) | undefined,
): Promise<DispatchResult> {
  if (!observe) return callOnce(method, params, id, backend, report);
  const started = performance.now();
  const res = await callOnce(method, params, id, backend, report);
  // nearcore answers some errors (query's) with HTTP 200: the envelope says which it is.
  const outcome = res.body.startsWith(ERROR_START) ? (OUTCOME_RE.exec(res.body)?.[1] ?? 'error') : 'ok';
  observe(metricName(method, params), outcome, (performance.now() - started) / 1000);
  return res;
}

const REQUEST_TYPES: ReadonlySet<string> = new Set(QUERY_REQUEST_TYPES);

/** The method as metrics name it: `query` split by request type; only names from fixed sets. */
function metricName(method: string, params: unknown): string {
  if (!Object.hasOwn(METHODS, method)) return 'unknown';
  if (method !== 'query') return method;
  const t = isObj(params) ? params.request_type : undefined;
  return typeof t === 'string' && REQUEST_TYPES.has(t) ? `query.${t}` : 'query';
}

/** The error's cause name, read back from the answer (no answer is parsed twice otherwise). */
const OUTCOME_RE = /"cause":\{"name":"([A-Z_]+)"/;
const ERROR_START = '{"jsonrpc":"2.0","error":';

async function callOnce(
  method: string,
  params: unknown,
  id: string,
  backend: RpcBackend,
  report: (err: unknown, method: string) => void,
): Promise<DispatchResult> {
  if (!Object.hasOwn(METHODS, method)) return fail(id, methodNotFound(method));
  if (Object.hasOwn(SANDBOX_METHODS, method) && backend[SANDBOX_METHODS[method]!] === undefined)
    return fail(id, methodNotFound(method));
  let result: unknown;
  try {
    result = await METHODS[method]!(params, backend);
  } catch (err) {
    if (!isTyped(err)) report(err, method);
    try {
      return fail(
        id,
        toRpcError(err, params, () => backend.headHeight(), method),
      );
    } catch (inner) {
      report(inner, method);
      return fail(id, internalError(`failed to serialize an error: ${(inner as Error).message}`));
    }
  }
  let text: string | undefined;
  try {
    text = stringifyJson(result);
  } catch (err) {
    report(err, method);
    return fail(id, internalError(`failed to serialize the result: ${(err as Error).message}`));
  }
  return { status: 200, body: `{"jsonrpc":"2.0","result":${text ?? 'null'},"id":${id}}` };
}

/** In the path form (`POST /<method>`), a body that is no JSON-RPC request is the method's params. */
function isBareParams(body: unknown, pathMethod: string | undefined): pathMethod is string {
  return pathMethod !== undefined && !(isObj(body) && Object.hasOwn(body, 'jsonrpc'));
}

/**
 * The method and params `dispatch` will call for this body, or null where it answers an error
 * instead: what a gate in front of it (the view-call limits) must judge the request by, whatever
 * else the body holds.
 */
export function requestedCall(
  body: unknown,
  pathMethod: string | undefined,
  topLevelCommas = 0,
): { readonly method: string; readonly params: unknown } | null {
  if (isBareParams(body, pathMethod)) return { method: pathMethod, params: body ?? null };
  const req = envelope(body, topLevelCommas);
  const method = req?.method ?? pathMethod;
  if (req === null || method === undefined || (pathMethod !== undefined && method !== pathMethod))
    return null;
  return { method, params: req.params };
}

/** Answers one parsed request body (`POST /`, or `POST /<method>` with `opts.pathMethod`). */
export async function dispatch(
  body: unknown,
  backend: RpcBackend,
  opts: DispatchOptions = {},
): Promise<DispatchResult> {
  const { pathMethod } = opts;
  const report = opts.onInternalError ?? (() => undefined);
  if (isBareParams(body, pathMethod)) {
    return call(pathMethod, body ?? null, 'null', backend, report, opts.observe);
  }
  const req = envelope(body, opts.topLevelCommas ?? 0);
  const id = req === null ? null : idJson(req.id);
  if (req === null || id === null) return fail('null', parseError(NOT_A_REQUEST));
  const method = req.method ?? pathMethod;
  if (method === undefined) return fail('null', parseError(NOT_A_REQUEST));
  if (pathMethod !== undefined && method !== pathMethod) {
    return fail(id, parseError(`method \`${method}\` in the body does not match the path /${pathMethod}`));
  }
  return call(method, req.params, id, backend, report, opts.observe);
}

/** Errors that answer for themselves: the request's fault, or a domain error nearcore names. */
function isTyped(err: unknown): boolean {
  return err instanceof RpcError || err instanceof RpcParseError || err instanceof HandlerError;
}
