// The neardata-style block stream routes (`GET /v0/…`) that every node serves for its own chain.
// The RPC package only routes and writes HTTP; what a height answers comes from the provider the node
// passes in (built by @nearlite/stream), so this package needs nothing from the stream.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export type BlockStreamAnswer =
  /** 200 with this JSON text: the block's StreamerMessage, or `null` for a height without block. */
  | { readonly ok: true; readonly json: string; readonly final: boolean }
  /** neardata's refusal body `{"error", "type"}` with its status. */
  | { readonly ok: false; readonly status: 404 | 500; readonly error: string; readonly type: string };

export interface BlockStreamProvider {
  /**
   * The message at `height`: final blocks only, or also the not-yet-final head blocks when
   * `optimistic`. May wait briefly for a height about to be produced; `signal` aborts when the client
   * goes away.
   */
  block(height: number, optimistic: boolean, signal: AbortSignal): Promise<BlockStreamAnswer>;
  finalHeight(): number;
  optimisticHeight(): number;
  /** The lowest height whose block is kept. */
  firstHeight(): number;
  /**
   * Whether `firstHeight` never moves (an archival node): only then may caches keep the first_block
   * redirect, as neardata's do. A node that collects garbage raises it every epoch.
   */
  readonly firstHeightFixed?: boolean;
}

const JSON_UTF8 = 'application/json; charset=utf-8';
// Blocks never change (neardata caches them for a year); a `null` height only a day, as neardata.
const FOREVER = 'public, max-age=31536000';
const A_DAY = 'public, max-age=86400';
const NO_STORE = 'no-store';
const OUT_OF_RANGE = new Set(['BLOCK_HEIGHT_TOO_HIGH', 'BLOCK_HEIGHT_TOO_LOW']);
const HEIGHT = /^\d{1,20}$/;

function send(r: FastifyReply, status: number, body: string, cache?: string): FastifyReply {
  r.code(status).header('content-type', JSON_UTF8).header('access-control-allow-origin', '*');
  if (cache) r.header('cache-control', cache);
  return r.send(body);
}

function redirect(r: FastifyReply, location: string, cache?: string): FastifyReply {
  r.code(302).header('location', location).header('access-control-allow-origin', '*');
  if (cache) r.header('cache-control', cache);
  return r.send('');
}

/** The node's access rules for one request: its key (from the path or `x-api-key`) and rate. */
export type BlockStreamGate = (
  req: FastifyRequest,
  pathKey: string | undefined,
) => { readonly ok: true } | { readonly ok: false; readonly status: 401 | 429; readonly message: string };

type Params = { height?: string; key?: string };

/**
 * The routes at `/v0/…`, and at `/<key>/v0/…` for a node with API keys: a follower then follows
 * `http://node/<key>`, whose redirects keep the key. Each request passes the node's access rules.
 */
export function registerBlockStreamRoutes(
  app: FastifyInstance,
  provider: BlockStreamProvider,
  report: (err: unknown, where: string) => void,
  gate: BlockStreamGate = () => ({ ok: true }),
  keyed = false,
): void {
  /** The route's handler behind the gate; a refusal in neardata's error shape. */
  const gated =
    (handler: (req: FastifyRequest, r: FastifyReply, base: string) => unknown) =>
    (req: FastifyRequest, r: FastifyReply) => {
      const key = (req.params as Params).key;
      const decision = gate(req, key);
      if (!decision.ok) {
        const type = decision.status === 401 ? 'UNAUTHORIZED' : 'TOO_MANY_REQUESTS';
        return send(r, decision.status, JSON.stringify({ error: decision.message, type }));
      }
      return handler(req, r, key === undefined ? '' : `/${encodeURIComponent(key)}`);
    };
  const block = (optimistic: boolean) => async (req: FastifyRequest, r: FastifyReply) => {
    const raw = (req.params as Params).height ?? '';
    if (!HEIGHT.test(raw)) return send(r, 400, '"Invalid argument"');
    const aborted = new AbortController();
    const onClose = () => aborted.abort();
    req.raw.once('close', onClose);
    try {
      const a = await provider.block(Number(raw), optimistic, aborted.signal);
      // A height out of range stays so (GC only raises the first kept one): a day, as neardata.
      if (!a.ok)
        return send(
          r,
          a.status,
          JSON.stringify({ error: a.error, type: a.type }),
          OUT_OF_RANGE.has(a.type) ? A_DAY : undefined,
        );
      const cache = a.json === 'null' ? A_DAY : a.final ? FOREVER : undefined;
      return send(r, 200, a.json, cache);
    } catch (err) {
      report(err, `GET /v0/${optimistic ? 'block_opt' : 'block'}`);
      return send(r, 500, JSON.stringify({ error: 'The block could not be read', type: 'INTERNAL_ERROR' }));
    } finally {
      req.raw.off('close', onClose);
    }
  };
  for (const prefix of keyed ? ['', '/:key'] : ['']) {
    app.get(`${prefix}/v0/block/:height`, gated(block(false)));
    app.get(`${prefix}/v0/block_opt/:height`, gated(block(true)));
    app.get(
      `${prefix}/v0/last_block/final`,
      gated((_req, r, base) => redirect(r, `${base}/v0/block/${provider.finalHeight()}`)),
    );
    app.get(
      `${prefix}/v0/last_block/optimistic`,
      gated((_req, r, base) => redirect(r, `${base}/v0/block_opt/${provider.optimisticHeight()}`)),
    );
    app.get(
      `${prefix}/v0/first_block`,
      gated((_req, r, base) =>
        redirect(
          r,
          `${base}/v0/block/${provider.firstHeight()}`,
          provider.firstHeightFixed ? A_DAY : NO_STORE,
        ),
      ),
    );
  }
}
