// Test helpers: a follower store on disk, its backend, and JSON-RPC calls through the real dispatcher.
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { Genesis } from '@nearlite/chain';
import { FollowerBackend, type HistoryReader, HistoryStore, type UpstreamRpc } from '@nearlite/follower';
import { dispatch } from '@nearlite/jsonrpc';
import { Store } from '@nearlite/store';

import { mainnetGenesis } from '../../../test/helpers/mainnet.js';

export { MAINNET_GENESIS, mainnetGenesis } from '../../../test/helpers/mainnet.js';

export async function openFollower(
  dir: string,
  opts: {
    genesis?: Genesis;
    upstream?: UpstreamRpc | null;
    /** What the backend reads through instead of the store itself (to watch its reads). */
    readThrough?: (h: HistoryStore) => HistoryReader;
    /** How long collected rows outlive the tail's move (HistoryStore's default otherwise). */
    gcGraceMs?: number;
    /** How long a `tx` waits for its `wait_until` (10 s otherwise). */
    pollingTimeoutMs?: number;
  } = {},
): Promise<{ store: Store; history: HistoryStore; backend: FollowerBackend }> {
  const store = await Store.open(join(dir, 'data'));
  const history = new HistoryStore(store, opts.gcGraceMs === undefined ? {} : { gcGraceMs: opts.gcGraceMs });
  const backend = new FollowerBackend({
    history: opts.readThrough ? opts.readThrough(history) : history,
    genesis: opts.genesis ?? mainnetGenesis(),
    runtimeConfigView: {},
    version: { version: 'test', build: 'test', commit: 'unknown', rustc_version: 'n/a' },
    rpcAddr: '127.0.0.1:0',
    nodePublicKey: 'ed25519:11111111111111111111111111111111',
    upstream: opts.upstream ?? null,
    runView: async () => {
      throw new Error('no view runner in this test');
    },
    syncing: () => false,
    ...(opts.pollingTimeoutMs === undefined ? {} : { pollingTimeoutMs: opts.pollingTimeoutMs }),
  });
  return { store, history, backend };
}

// Answers are checked field by field against the fixtures' own JSON.
// biome-ignore lint/suspicious/noExplicitAny: parsed JSON of many shapes
type Json = any;

export interface RpcAnswer {
  readonly status: number;
  readonly body: string;
  readonly result?: Json;
  readonly error?: Json;
}

export async function rpc(backend: FollowerBackend, method: string, params: unknown): Promise<RpcAnswer> {
  const res = await dispatch({ jsonrpc: '2.0', id: 1, method, params }, backend);
  const parsed = JSON.parse(res.body) as { result?: unknown; error?: unknown };
  return { status: res.status, body: res.body, result: parsed.result, error: parsed.error };
}

/** The `result` member's exact text in an envelope the dispatcher wrote. */
export function resultText(body: string): string {
  const start = body.indexOf('"result":') + '"result":'.length;
  const end = body.lastIndexOf(',"id":');
  return body.slice(start, end);
}

/** A follow-loop logger that keeps its lines for assertions. */
export function logs() {
  const lines: string[] = [];
  return {
    lines,
    info: (m: string) => lines.push(`INFO ${m}`),
    warn: (m: string) => lines.push(`WARN ${m}`),
    error: (m: string) => lines.push(`ERROR ${m}`),
  };
}

/**
 * Polls `cond` every 10 ms for up to 60 s: a deadline for a hang, not a measure of speed (worker
 * threads starting beside a full test run on two cores have taken over 10 s).
 */
export async function until(cond: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!cond() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  if (!cond()) throw new Error(`timed out waiting for ${what}`);
}

/** A call a `jsonRpcServer` was sent. */
export interface RpcCall {
  readonly method: string;
  readonly params: Record<string, unknown>;
}

/**
 * A JSON-RPC server on 127.0.0.1 (an upstream for a follower's tests) answering each call with the
 * members `answer` gives for it (`result` or `error`); it records the calls in order.
 */
export async function jsonRpcServer(
  t: Tap.Test,
  answer: (call: RpcCall) => object | Promise<object>,
): Promise<{ readonly url: string; readonly calls: RpcCall[] }> {
  const calls: RpcCall[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', async () => {
      const { method, params, id } = JSON.parse(body) as RpcCall & { id: unknown };
      const call = { method, params };
      calls.push(call);
      const reply = await answer(call);
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id, ...reply }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  const addr = server.address();
  return { url: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`, calls };
}
