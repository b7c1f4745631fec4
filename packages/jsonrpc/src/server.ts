// The HTTP face of the RPC (fastify is imported only in this package): body limits and parsing,
// routes, CORS. Everything JSON-RPC is in dispatch(); replies are written as ready-made strings.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { stringifyJson } from '@nearlite/primitives';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import { type AccessConfig, AccessControl, withGasMeter } from './access.js';
import type { RpcBackend } from './backend.js';
import { type BlockStreamProvider, registerBlockStreamRoutes } from './block_stream.js';
import { parseJsonBytes } from './body.js';
import { type DispatchResult, dispatch, idJson, requestedCall } from './dispatch.js';
import { internalError, parseError } from './errors.js';
import { lazyRequestLogger } from './request_logger.js';

const requestRefused = () => parseError('The request could not be read');

export interface RpcServerOptions {
  readonly backend: RpcBackend;
  readonly host: string;
  /** 0 picks a free port; the chosen one is in the result. */
  readonly port: number;
  /** Largest accepted body in bytes (nearcore's json_payload_max_size, 10 MiB); larger is 413. */
  readonly bodyLimit?: number;
  /** fastify's logger option; off by default. */
  readonly logger?: FastifyServerOptions['logger'];
  /** A pino instance for fastify to log through (its errors with request ids); no per-request lines. */
  readonly loggerInstance?: FastifyBaseLogger;
  /** Every internal failure, with the method (or HTTP route) it happened in; see DispatchOptions. */
  readonly onInternalError?: (err: unknown, where: string) => void;
  /** API keys and per-client limits; absent: open and unlimited. */
  readonly access?: AccessConfig;
  /** Every answered call, for metrics (see DispatchOptions.observe). */
  readonly observe?: (method: string, outcome: string, seconds: number) => void;
  /** `GET /metrics`: the exposition text (open, like /health). */
  readonly metrics?: () => Promise<{ readonly contentType: string; readonly body: string }>;
  /**
   * nearcore's `rpc.prometheus_addr`: a second listener serving `GET /metrics` and nothing else, for
   * a scraper kept off the RPC's address; the RPC's own `/metrics` stays.
   */
  readonly metricsListen?: { readonly host: string; readonly port: number };
  /** The chain's block stream, served neardata-style under `GET /v0/…`; absent: no such routes. */
  readonly blockStream?: BlockStreamProvider;
  /**
   * `rpc.cors_allowed_origins`: absent or `["*"]`, any origin (nearcore's `CorsLayer::permissive()`);
   * otherwise the browser pages of these origins only (nearcore's list: methods GET and POST, headers
   * authorization, accept and content-type, preflights cached an hour).
   */
  readonly corsAllowedOrigins?: readonly string[];
  /** How long a client may take to send a whole request (`REQUEST_TIMEOUT_MS` by default). */
  readonly requestTimeoutMs?: number;
  /** How often Node checks requests against that timeout (its own 30 s by default). */
  readonly timeoutCheckEveryMs?: number;
  /** Connections held at once; more are closed as they come. Absent: no cap. */
  readonly maxConnections?: number;
}

/**
 * A client that opens a connection and never finishes its request holds it only this long: Node's
 * own default, which fastify turns off. Long enough for a body at the 10 MiB limit over a slow
 * uplink (~0.3 Mbit/s); the connection cap, not this, keeps such clients from the descriptors the
 * database needs. Answering takes as long as it takes (a `tx` waits for its block), so only
 * receiving is timed.
 */
export const REQUEST_TIMEOUT_MS = 300_000;

export interface RpcServer {
  readonly url: string;
  readonly port: number;
  /** The metrics listener's address, when `metricsListen` asked for one. */
  readonly metricsUrl?: string;
  close(): Promise<void>;
}

const JSON_CT = 'application/json';
const TEXT_CT = 'text/plain; charset=utf-8';

function reply(r: FastifyReply, status: number, type: string, body: string | Buffer): FastifyReply {
  return r.code(status).header('content-type', type).header('access-control-allow-origin', '*').send(body);
}

type Report = (err: unknown, where: string) => void;

/** A refusal by the access rules, as a JSON-RPC envelope. */
function refuse(r: FastifyReply, status: 401 | 429, message: string, id = 'null'): FastifyReply {
  const cause = status === 401 ? 'UNAUTHORIZED' : 'TOO_MANY_REQUESTS';
  const body = {
    name: 'REQUEST_VALIDATION_ERROR',
    cause: { name: cause, info: { error_message: message } },
    code: -32000,
    message: status === 401 ? 'Unauthorized' : 'Too Many Requests',
    data: message,
  };
  return reply(r, status, JSON_CT, `{"jsonrpc":"2.0","error":${stringifyJson(body)},"id":${id}}`);
}

/**
 * A view call runs contract code: its slots are limited per client. Judged by the method and params
 * dispatch will call, not by keys a client may add to the body (a `method` inside the bare params of
 * `POST /query` is a params key, and must not pass the call for another method).
 */
function isViewCall(body: unknown, pathMethod: string | undefined, topLevelCommas: number): boolean {
  const call = requestedCall(body, pathMethod, topLevelCommas);
  if (call === null) return false;
  const { method, params } = call;
  if (method === 'EXPERIMENTAL_call_function') return true;
  if (method !== 'query' || typeof params !== 'object' || params === null) return false;
  if (Array.isArray(params)) return typeof params[0] === 'string' && params[0].startsWith('call/');
  return (params as Record<string, unknown>).request_type === 'call_function';
}

let turn: Promise<void> | undefined;
/**
 * Resolves once the event loop's turn has handled every request that arrived with this one, so their
 * answers go out back to back. The first write wakes an idle client; the ones after it find the
 * client already running. On a machine where waking an idle core is dear (a virtual one), writing
 * each answer as soon as it is ready made each write pay for a wake-up: 60 µs of the RPC thread per
 * answer under load, against 7 µs when they are written together.
 */
function endOfTurn(): Promise<void> {
  turn ??= new Promise((resolve) =>
    setImmediate(() => {
      turn = undefined;
      resolve();
    }),
  );
  return turn;
}

async function answer(
  req: FastifyRequest,
  r: FastifyReply,
  backend: RpcBackend,
  report: Report,
  access: AccessControl,
  route: { readonly pathKey?: string; readonly pathMethod?: string },
  observe?: (method: string, outcome: string, seconds: number) => void,
) {
  const { pathMethod } = route;
  const headerKey = req.headers['x-api-key'];
  const admitted = access.admit(route.pathKey, typeof headerKey === 'string' ? headerKey : undefined, req.ip);
  if (!admitted.ok) return refuse(r, admitted.status, admitted.message);
  const body = parseJsonBytes(req.headers['content-type'], req.body as Uint8Array);
  if (!body.ok) return reply(r, body.status, TEXT_CT, body.text);
  let release: () => void = () => undefined;
  if (access.limitsViewCalls && isViewCall(body.value, pathMethod, body.topLevelCommas)) {
    const slot = access.beginViewCall(admitted.client);
    if (!slot) {
      // Refused once the body is read: the answer names the request, as its own answer would.
      const v = body.value as { jsonrpc?: unknown; id?: unknown };
      const id = 'jsonrpc' in v ? (idJson(v.id) ?? 'null') : 'null';
      return refuse(r, 429, 'too many view calls in flight, or their gas per second is spent', id);
    }
    release = slot;
  }
  let res: DispatchResult;
  try {
    const run = () =>
      dispatch(body.value, backend, {
        onInternalError: report,
        ...(observe ? { observe } : {}),
        ...(pathMethod === undefined ? {} : { pathMethod }),
        topLevelCommas: body.topLevelCommas,
      });
    // The meter is an AsyncLocalStorage, which on Node 20 turns on promise hooks for the whole
    // process: every promise of every request would pay for them. Only a gas budget needs it.
    if (access.metersGas) {
      const metered = await withGasMeter(run);
      res = metered.value;
      if (metered.gas > 0n) access.chargeGas(admitted.client, metered.gas);
    } else {
      res = await run();
    }
  } catch (err) {
    report(err, pathMethod ?? 'dispatch');
    const e = internalError((err as Error).message);
    res = { status: e.status, body: stringifyJson({ jsonrpc: '2.0', error: e.body, id: null }) };
  } finally {
    release();
  }
  await endOfTurn();
  return reply(r, res.status, JSON_CT, res.body);
}

/** nearcore's openapi_json_handler (chain/jsonrpc/src/lib.rs) sends the spec with this type. */
const OPENAPI_CT = 'application/json; charset=utf-8';
let openapiText: Buffer | undefined;

/**
 * The OpenAPI spec nearcore compiles in (chain/jsonrpc/openapi/openapi.json), this package's
 * `openapi.json`, read on the first request: its 600 kB stay out of the start-up path.
 */
async function openapiJson(): Promise<Buffer> {
  openapiText ??= await readFile(createRequire(import.meta.url).resolve('@nearlite/jsonrpc/openapi.json'));
  return openapiText;
}

const envelope = (e: ReturnType<typeof internalError>) =>
  `{"jsonrpc":"2.0","error":${stringifyJson(e.body)},"id":null}`;

const CORS_VARY = 'origin, access-control-request-method, access-control-request-headers';

/**
 * An origin list in place of any origin: every answer, written with `*` as the permissive layer's are,
 * names the request's origin instead when it is listed and no origin when it is not. Only a node with
 * a list pays for the hook.
 */
function restrictOrigins(app: FastifyInstance, allowed: ReadonlySet<string>): void {
  app.addHook(
    'onSend',
    (req: FastifyRequest, r: FastifyReply, payload: unknown, done: (err: null, p: unknown) => void) => {
      const origin = req.headers.origin;
      if (typeof origin === 'string' && allowed.has(origin)) r.header('access-control-allow-origin', origin);
      else r.removeHeader('access-control-allow-origin');
      r.header('vary', CORS_VARY);
      done(null, payload);
    },
  );
}

/** `GET /status|/health|/network_info`: the bare result, or 503 with an empty body on any error. */
function bare(fn: () => unknown) {
  return async (_req: FastifyRequest, r: FastifyReply) => {
    let text: string | undefined;
    try {
      text = stringifyJson((await fn()) ?? null);
    } catch {
      return reply(r, 503, TEXT_CT, '');
    }
    return reply(r, 200, JSON_CT, text ?? 'null');
  };
}

// No route declares a schema, so fastify's default compilers (ajv, fast-json-stringify) would never
// run; leaving them out keeps their loading off the node's start-up.
const unused = (what: string) => () => () => {
  throw new Error(`this server declares no ${what} schemas`);
};
const compilersFactory = { buildValidator: unused('validation'), buildSerializer: unused('serialization') };

/** What Node's HTTP layer refuses, by its error code; anything else is 400. */
const CLIENT_ERROR_STATUS: Readonly<Record<string, readonly [number, string]>> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large'],
  // The request was not received whole within the request timeout (or its headers within theirs).
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout'],
};

export async function startRpcServer(o: RpcServerOptions): Promise<RpcServer> {
  const app = Fastify({
    bodyLimit: o.bodyLimit ?? 10 * 1024 * 1024,
    requestTimeout: o.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
    ...(o.timeoutCheckEveryMs !== undefined
      ? { http: { connectionsCheckingInterval: o.timeoutCheckEveryMs } }
      : {}),
    ...(o.loggerInstance
      ? {
          loggerInstance: o.loggerInstance,
          logController: new LogController({ disableRequestLogging: true }),
          childLoggerFactory: lazyRequestLogger,
        }
      : { logger: o.logger ?? false }),
    schemaController: { compilersFactory },
    // What Node's HTTP parser refuses (oversized headers or URL, malformed framing) never reaches a
    // route: it is answered here, still with a JSON-RPC body, and the connection closed.
    clientErrorHandler: (err: NodeJS.ErrnoException, socket) => {
      if (!socket.writable) return void socket.destroy();
      const [status, reason] = CLIENT_ERROR_STATUS[err.code ?? ''] ?? [400, 'Bad Request'];
      const body = envelope(requestRefused());
      socket.end(
        `HTTP/1.1 ${status} ${reason}\r\n` +
          `Content-Type: ${JSON_CT}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
    // A URL the router cannot decode is refused before any route or error handler runs.
    frameworkErrors: (_err, _req, r) => {
      reply(r, 400, JSON_CT, envelope(requestRefused()));
    },
  });
  const { backend } = o;
  const report: Report = o.onInternalError ?? (() => undefined);
  // One parser for every type: the raw bytes; UTF-8, the JSON rules (and 415) are applied per route.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  app.setErrorHandler((err: { statusCode?: number; message: string; code?: string }, req, r) => {
    const status = err.statusCode ?? 500;
    if (status === 413)
      return reply(r, 413, TEXT_CT, 'Failed to buffer the request body: length limit exceeded');
    if (status === 415)
      return reply(r, 415, TEXT_CT, 'Expected request with `Content-Type: application/json`');
    // Anything else the HTTP layer refuses (a malformed URL or header, a broken body stream) is a
    // JSON-RPC parse error with a fixed text: fastify's own codes and messages never reach clients.
    if (status >= 400 && status < 500) return reply(r, status, JSON_CT, envelope(requestRefused()));
    report(err, `${req.method} ${req.routeOptions.url ?? 'request'}`);
    return reply(r, 500, JSON_CT, envelope(internalError('the request could not be handled')));
  });
  // nearcore's router has `/` for POST alone: axum answers any other method there 405. Every one
  // reaches this handler, those fastify has no name for (TRACE, PROPFIND…) included.
  app.setNotFoundHandler((req, r) =>
    req.url === '/' || req.url.startsWith('/?')
      ? reply(r, 405, TEXT_CT, 'Method Not Allowed')
      : reply(r, 404, TEXT_CT, ''),
  );
  const allowed =
    o.corsAllowedOrigins && !(o.corsAllowedOrigins.length === 1 && o.corsAllowedOrigins[0] === '*')
      ? new Set(o.corsAllowedOrigins)
      : null;
  if (allowed) restrictOrigins(app, allowed);
  // CorsLayer::permissive(): any origin, method and header; preflights answered here.
  app.options('*', (req, r) => {
    if (allowed)
      return r
        .code(200)
        .header('access-control-allow-methods', 'GET,POST')
        .header('access-control-allow-headers', 'authorization,accept,content-type')
        .header('access-control-max-age', '3600')
        .send('');
    const method = req.headers['access-control-request-method'] ?? '*';
    const headers = req.headers['access-control-request-headers'] ?? '*';
    return r
      .code(200)
      .header('access-control-allow-origin', '*')
      .header('access-control-allow-methods', method)
      .header('access-control-allow-headers', headers)
      .header('access-control-expose-headers', '*')
      .send('');
  });

  const access = new AccessControl(o.access ?? {});
  const { observe } = o;
  app.post('/', (req, r) => answer(req, r, backend, report, access, {}, observe));
  // With keys configured, one segment is a key (`/<key>`) when it is one, a method otherwise.
  app.post<{ Params: { method: string } }>('/:method', (req, r) => {
    const segment = req.params.method;
    const route = access.isKey(segment) ? { pathKey: segment } : { pathMethod: segment };
    return answer(req, r, backend, report, access, route, observe);
  });
  app.post<{ Params: { key: string; method: string } }>('/:key/:method', (req, r) => {
    if (!access.keysRequired) return reply(r, 404, TEXT_CT, '');
    const route = { pathKey: req.params.key, pathMethod: req.params.method };
    return answer(req, r, backend, report, access, route, observe);
  });
  app.get(
    '/status',
    bare(() => backend.status()),
  );
  app.get(
    '/health',
    bare(async () => {
      await backend.health();
      return null;
    }),
  );
  app.get(
    '/network_info',
    bare(() => backend.networkInfo()),
  );
  app.get('/openapi.json', async (_req, r) => reply(r, 200, OPENAPI_CT, await openapiJson()));
  const metrics = o.metrics;
  if (metrics) {
    app.get('/metrics', async (_req, r) => {
      const m = await metrics();
      return reply(r, 200, m.contentType, m.body);
    });
  }
  if (o.blockStream) {
    registerBlockStreamRoutes(
      app,
      o.blockStream,
      report,
      (req, pathKey) => {
        const headerKey = req.headers['x-api-key'];
        return access.admit(pathKey, typeof headerKey === 'string' ? headerKey : undefined, req.ip);
      },
      access.keysRequired,
    );
  }

  if (o.maxConnections !== undefined) {
    app.server.maxConnections = o.maxConnections;
    // A connection refused at the cap makes room: the idle kept-alive ones are closed (their clients
    // open new ones when they next ask), so one client's pool of idle sockets cannot lock others out.
    app.server.on('drop', () => app.server.closeIdleConnections());
  }
  // Node checks neither timeout while the headers' one (60 s) is the longer.
  app.server.headersTimeout = Math.min(app.server.headersTimeout, o.requestTimeoutMs ?? REQUEST_TIMEOUT_MS);
  await app.listen({ host: o.host, port: o.port });
  const { url, port } = listening(app, o.host, o.port);
  if (!(o.metricsListen && metrics)) return { url, port, close: () => closeServer(app) };
  let scrape: Awaited<ReturnType<typeof startMetricsListener>>;
  try {
    scrape = await startMetricsListener(o.metricsListen, metrics);
  } catch (err) {
    await app.close();
    // The RPC's listener is up by now: say which one could not start.
    const { host, port: at } = o.metricsListen;
    throw new Error(`the metrics listener on ${host}:${at}: ${(err as Error).message}`, { cause: err });
  }
  return {
    url,
    port,
    metricsUrl: scrape.url,
    close: async () => {
      await scrape.close();
      await closeServer(app);
    },
  };
}

/** How long a close waits for requests in flight before it ends their connections (actix's shutdown_timeout, which nearcore's RPC sets to 5 s). */
export const SHUTDOWN_TIMEOUT_MS = 5_000;

/**
 * Closes the server once its requests are answered. A connection busy when the close begins (a
 * client waiting on a transaction, answered as the node stops) turns idle after it, and Node closes
 * only those idle at the start: each is closed as it turns idle, rather than kept to the keep-alive
 * timeout (72 s) with the stop waiting on it. What is still in flight after the shutdown timeout (a
 * client that never finishes its request) is cut off, as nearcore's RPC does.
 */
async function closeServer(app: FastifyInstance): Promise<void> {
  const sweep = setInterval(() => app.server.closeIdleConnections(), 50);
  const cut = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_TIMEOUT_MS);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
    clearTimeout(cut);
  }
}

function listening(app: FastifyInstance, host: string, given: number): { url: string; port: number } {
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr !== null ? addr.port : given;
  const shown = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return { url: `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`, port };
}

/** `GET /metrics` alone on an address of its own; anything else there is 404. */
async function startMetricsListener(
  at: { readonly host: string; readonly port: number },
  metrics: () => Promise<{ readonly contentType: string; readonly body: string }>,
): Promise<{ url: string; close: () => Promise<void> }> {
  const app = Fastify({ logger: false, schemaController: { compilersFactory } });
  app.get('/metrics', async (_req, r) => {
    const m = await metrics();
    return r.code(200).header('content-type', m.contentType).send(m.body);
  });
  app.setNotFoundHandler((_req, r) => r.code(404).header('content-type', TEXT_CT).send(''));
  app.setErrorHandler((_err, _req, r) => r.code(500).header('content-type', TEXT_CT).send(''));
  await app.listen({ host: at.host, port: at.port });
  return { url: listening(app, at.host, at.port).url, close: () => app.close() };
}
