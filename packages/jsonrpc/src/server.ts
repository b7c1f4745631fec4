// The HTTP face of the RPC (fastify is imported only in this package): parsing, limits, routes, CORS.

import { stringifyJson } from '@nearlite/primitives';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import type { RpcBackend } from './backend.js';
import { type DispatchResult, dispatch, dispatchPath } from './dispatch.js';

export interface RpcServerOptions {
  readonly backend: RpcBackend;
  readonly host: string;
  readonly port: number;
  /** Largest accepted body (nearcore's json_payload_max_size, 10 MiB). */
  readonly bodyLimit?: number;
}

export interface RpcServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

function send(reply: FastifyReply, r: DispatchResult): FastifyReply {
  return reply.code(r.status).header('content-type', 'application/json').send(r.body);
}

function text(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).header('content-type', 'text/plain; charset=utf-8').send(body);
}

/** Parses the raw body, answering nearcore's plain-text errors for non-JSON. */
function parseBody(req: FastifyRequest, reply: FastifyReply): { ok: true; value: unknown } | { ok: false } {
  const type = req.headers['content-type'] ?? '';
  if (!JSON_TYPE.test(type)) {
    text(reply, 415, 'Expected request with `Content-Type: application/json`');
    return { ok: false };
  }
  try {
    return { ok: true, value: JSON.parse(req.body as string) };
  } catch (err) {
    text(reply, 400, `Failed to parse the request body as JSON: ${(err as Error).message}`);
    return { ok: false };
  }
}

export async function startRpcServer(o: RpcServerOptions): Promise<RpcServer> {
  const app = Fastify({ bodyLimit: o.bodyLimit ?? 10 * 1024 * 1024, logger: false });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  app.setErrorHandler((err: { statusCode?: number; message: string }, _req, reply) => {
    const status = err.statusCode ?? 500;
    if (status === 413) return text(reply, 413, 'Failed to buffer the request body: length limit exceeded');
    return text(reply, status >= 400 && status < 600 ? status : 500, err.message);
  });
  app.addHook('onSend', async (_req, reply) => {
    reply.header('access-control-allow-origin', '*');
    reply.header('access-control-expose-headers', '*');
  });
  app.options('*', async (_req, reply) =>
    reply
      .code(204)
      .header('access-control-allow-methods', 'GET, POST, HEAD, OPTIONS')
      .header('access-control-allow-headers', '*')
      .send(),
  );

  const { backend } = o;
  app.post('/', async (req, reply) => {
    const body = parseBody(req, reply);
    if (!body.ok) return reply;
    return send(reply, await dispatch(body.value, backend));
  });
  app.post<{ Params: { method: string } }>('/:method', async (req, reply) => {
    const body = parseBody(req, reply);
    if (!body.ok) return reply;
    return send(reply, await dispatchPath(req.params.method, body.value, backend));
  });
  const bare = (fn: () => unknown) => async (_req: FastifyRequest, reply: FastifyReply) => {
    try {
      return reply
        .code(200)
        .header('content-type', 'application/json')
        .send(stringifyJson(fn() ?? null));
    } catch {
      return reply.code(503).send('');
    }
  };
  app.get(
    '/status',
    bare(() => backend.status()),
  );
  app.get(
    '/health',
    bare(() => backend.health()),
  );
  app.get(
    '/network_info',
    bare(() => backend.networkInfo()),
  );
  app.get('/', async (_req, reply) => text(reply, 405, 'Method Not Allowed'));

  await app.listen({ host: o.host, port: o.port });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : o.port;
  const host = o.host.includes(':') ? `[${o.host}]` : o.host;
  return { url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`, port, close: () => app.close() };
}
