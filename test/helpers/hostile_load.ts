// Generated hostile requests against a running node: mutated params for every method, malformed
// envelopes and bodies, odd paths and verbs, bit-flipped and truncated signed transactions, beside
// slow clients holding half-sent requests. Every answer must be a JSON-RPC envelope or one of
// nearcore's documented HTTP refusals, with no stack trace, file path or framework internals in it.
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { METHODS } from '@nearlite/jsonrpc';
import type { Test } from 'tap';
import type { RunningNode } from './node.js';
import { httpRequest } from './post.js';
import { rng } from './rng.js';

/** Where this checkout lives: a path of it in an answer is a leak, wherever it was cloned. */
const ROOT = join(import.meta.dirname, '..', '..').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const LEAK = new RegExp(
  `node_modules|${ROOT}|\\.ts:\\d+|\\.js:\\d+|\\bat [A-Za-z.<>]+ \\(|FST_ERR|fastify|TypeError|ReferenceError|RangeError|Cannot read prop|undefined is not|\\[object Object\\]`,
);

export interface HostileLoadOptions {
  /**
   * The INTERNAL_ERROR messages (HTTP 500) this node is documented to answer with, such as a
   * front end's refusal of writes without an upstream; any other 500 is a fault.
   */
  readonly documented?: RegExp;
  /** Requests a round (10,000 unless given). */
  readonly requests?: number;
}

/**
 * Two rounds of generated requests from 16 clients, beside 8 slow ones: every answer a JSON-RPC
 * envelope or a documented refusal with nothing leaked, memory back to its level after the second
 * round, and the node still serving.
 */
export async function hostileLoad(
  t: Test,
  node: RunningNode,
  goodTx: Buffer,
  { documented, requests = 10_000 }: HostileLoadOptions = {},
): Promise<void> {
  const r = rng(1337);
  const pick = <T>(a: readonly T[]): T => a[Math.floor(r() * a.length)]!;
  const methods = Object.keys(METHODS);
  const atoms: unknown[] = [
    null,
    true,
    false,
    0,
    -1,
    1.5,
    2 ** 53 + 2,
    1e308,
    '',
    'final',
    'optimistic',
    'x'.repeat(3000),
    '\u0000nl:0',
    '\ud800',
    'test.near',
    'A!',
    '11111111111111111111111111111111',
    [],
    {},
    [[[[]]]],
    { finality: 'final' },
    { block_id: -5 },
    { block_id: 'zzz' },
    { block_id: 2 ** 64 },
    {
      request_type: 'call_function',
      account_id: 'test.near',
      method_name: 'x',
      args_base64: '%%%',
      finality: 'final',
    },
    { request_type: 'view_state', account_id: 'test.near', prefix_base64: 'AA==', block_id: 1 },
    { changes_type: 'data_changes', account_ids: ['test.near'], key_prefix_base64: 7, finality: 'final' },
    { records: [{ Account: { account_id: 'x.near', account: { amount: {} } } }] },
    { delta_height: 2 ** 60 },
  ];
  const mutate = (v: unknown, depth = 0): unknown => {
    if (depth > 3 || r() < 0.3) return pick(atoms);
    if (r() < 0.5) return Array.from({ length: Math.floor(r() * 4) }, () => mutate(v, depth + 1));
    const keys = [
      'finality',
      'block_id',
      'account_id',
      'request_type',
      'tx_hash',
      'sender_account_id',
      'signed_tx_base64',
      'wait_until',
      'shard_id',
      'chunk_id',
      'changes_type',
      'records',
      'receipt_id',
      'type',
      '__proto__',
      'constructor',
    ];
    const o: Record<string, unknown> = {};
    for (let i = Math.floor(r() * 5); i > 0; i--) o[pick(keys)] = mutate(v, depth + 1);
    return o;
  };
  const txVariant = () => {
    const b = Buffer.from(goodTx);
    const kind = r();
    if (kind < 0.4) b[Math.floor(r() * b.length)]! ^= 1 << Math.floor(r() * 8);
    else if (kind < 0.7) return b.subarray(0, Math.floor(r() * b.length)).toString('base64');
    else if (kind < 0.8) return Buffer.concat([b, Buffer.from([1, 2, 3])]).toString('base64');
    return b.toString('base64');
  };
  // Valid requests of every kind, on the node's own head, each sent with one part changed: the
  // handlers' own checks are reached, not only the envelope's and the params' shape.
  const templates = await validRequests(node);
  const mutateOne = (params: unknown): unknown => {
    const copy = structuredClone(params);
    const paths = leafPaths(copy);
    if (paths.length === 0) return pick(atoms);
    const path = pick(paths);
    let parent = copy as Record<string, unknown>;
    for (const k of path.slice(0, -1)) parent = parent[k] as Record<string, unknown>;
    const last = path.at(-1)!;
    const how = r();
    if (how < 0.15) delete parent[last];
    else if (how < 0.25 && !Array.isArray(parent))
      parent[pick(['extra', 'block_id', 'finality', 'shard_id'])] = pick(atoms);
    else parent[last] = pick(atoms);
    return copy;
  };
  type Req = { path: string; verb: string; type: string | null; body: string | Uint8Array | null };
  const post = (body: string | Uint8Array, path = '/', type: string | null = 'application/json'): Req => ({
    path,
    verb: 'POST',
    type,
    body,
  });
  const generators: (() => Req)[] = [
    () => post(JSON.stringify({ jsonrpc: '2.0', id: mutate(0), method: pick(methods), params: mutate(0) })),
    () => {
      const [method, params] = pick(templates);
      return post(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: mutateOne(params) }));
    },
    () =>
      post(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          // Waiting methods would mostly wait out the polling timeout; they get random params above.
          method: pick(['send_tx', 'broadcast_tx_async', 'broadcast_tx_commit']),
          params:
            r() < 0.5
              ? [txVariant()]
              : { signed_tx_base64: txVariant(), wait_until: pick(['NONE', 'NONE', 'INCLUDED', 'bogus']) },
        }),
      ),
    () => post(JSON.stringify(mutate(0))),
    () => post(`{"jsonrpc":"2.0","id":1,"method":"status","params":[${'['.repeat(Math.floor(r() * 300))}`),
    () => post(Buffer.from(Array.from({ length: Math.floor(r() * 64) }, () => Math.floor(r() * 256)))),
    () => post(JSON.stringify(mutate(0)), `/${pick(methods)}`),
    () =>
      post(
        '{}',
        pick([
          '/%',
          '/%E0%A4%A',
          `/${'a'.repeat(5000)}`,
          '/a/b/c',
          '/..%2f..%2fetc%2fpasswd',
          '/status?x=%zz',
        ]),
      ),
    () =>
      post(
        '{"jsonrpc":"2.0","id":1,"method":"status","params":[]}',
        '/',
        pick([null, 'text/plain', 'application/xml', 'multipart/form-data; boundary=x']),
      ),
    () => ({
      path: pick(['/', '/status', '/health', '/metrics', '/nope', '/network_info']),
      verb: pick(['GET', 'PUT', 'DELETE', 'PATCH', 'HEAD']),
      type: null,
      body: null,
    }),
  ];

  const rssMb = () => {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${node.proc.pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  };
  const rssBefore = rssMb();
  // Slow clients: connections that send half a request and then hold on, through all the load.
  const url = new URL(node.url);
  const slow = Array.from({ length: 8 }, (_, i) => {
    const s = connect(Number(url.port), url.hostname, () => {
      s.write(
        i % 2 === 0
          ? 'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: appl'
          : 'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"jsonrpc"',
      );
    });
    s.on('error', () => undefined);
    return s;
  });
  t.teardown(() => {
    for (const s of slow) s.destroy();
  });
  const TOTAL = requests;
  const problems: string[] = [];
  const statuses = new Map<number, number>();
  let sent = 0;
  const worker = async () => {
    while (sent < TOTAL) {
      sent++;
      const req = pick(generators)();
      const headers: Record<string, string> = {};
      if (req.type !== null) headers['content-type'] = req.type;
      let status: number;
      let text: string;
      let type: string;
      try {
        // A string without a type goes as text/plain, as fetch would send it.
        if (req.type === null && typeof req.body === 'string')
          headers['content-type'] = 'text/plain;charset=UTF-8';
        const body = req.body !== null && req.verb !== 'GET' && req.verb !== 'HEAD' ? req.body : undefined;
        ({ status, type, text } = await httpRequest(node.url + req.path, req.verb, headers, body));
      } catch (err) {
        problems.push(`${req.verb} ${req.path.slice(0, 40)}: no answer (${(err as Error).message})`);
        continue;
      }
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      const what = `${req.verb} ${req.path.slice(0, 40)} → ${status} ${text.slice(0, 160)}`;
      if (LEAK.test(text)) problems.push(`leak: ${what}`);
      if (status >= 500 && status !== 503 && !(status === 500 && documentedRefusal(text, documented)))
        problems.push(`server error: ${what}`);
      if (type.startsWith('application/json') && text.length > 0) {
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          problems.push(`not JSON: ${what}`);
          continue;
        }
        const isEnvelope =
          typeof body === 'object' && body !== null && (body as { jsonrpc?: unknown }).jsonrpc === '2.0';
        const isBare = req.verb === 'GET' && status === 200;
        if (!isEnvelope && !isBare) problems.push(`not an envelope: ${what}`);
        const error = isEnvelope ? (body as { error?: unknown }).error : undefined;
        if (error !== undefined && !isNearcoreError(error))
          problems.push(`not nearcore's error shape: ${what}`);
      } else if (
        ![400, 404, 405, 413, 415, 503].includes(status) &&
        !(status === 200 && req.verb !== 'POST')
      ) {
        problems.push(`undocumented refusal: ${what}`);
      }
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  t.same(problems.slice(0, 20), [], `${TOTAL} requests; statuses ${JSON.stringify([...statuses])}`);
  // Nothing a request left behind keeps growing: a second round of the same load leaves memory
  // where the first did, within what V8's heap growth allows.
  const rssAfterFirst = rssMb();
  sent = 0;
  await Promise.all(Array.from({ length: 16 }, worker));
  const rssAfterSecond = rssMb();
  t.same(problems.slice(0, 20), [], 'the second round is answered as well');
  t.ok(
    rssAfterSecond < Math.max(rssAfterFirst * 1.25, rssAfterFirst + 64),
    `memory back to its level: ${Math.round(rssBefore)} → ${Math.round(rssAfterFirst)} → ${Math.round(rssAfterSecond)} MB`,
  );
  t.comment(`${slow.filter((s) => !s.destroyed).length} slow clients still holding their connections`);
  const alive = await node.rpc('status', []);
  t.equal(alive.status, 200, 'the node is alive and serving, slow clients or not');
}

/**
 * An INTERNAL_ERROR envelope whose message is one the caller named as documented: in the cause, or
 * in `data` for the transaction methods, whose cause nearcore leaves without it.
 */
function documentedRefusal(text: string, documented: RegExp | undefined): boolean {
  if (!documented) return false;
  try {
    const body = JSON.parse(text) as {
      error?: { cause?: { name?: string; info?: { error_message?: string } }; data?: unknown };
    };
    const cause = body.error?.cause;
    if (cause?.name !== 'INTERNAL_ERROR') return false;
    const data = body.error?.data;
    return (
      documented.test(cause.info?.error_message ?? '') || (typeof data === 'string' && documented.test(data))
    );
  } catch {
    return false;
  }
}

/** nearcore's error object: a name, a cause with a name, a numeric code and a message. */
function isNearcoreError(e: unknown): boolean {
  const x = e as {
    name?: unknown;
    cause?: { name?: unknown } | null;
    code?: unknown;
    message?: unknown;
  } | null;
  return (
    typeof x?.name === 'string' &&
    typeof x.cause?.name === 'string' &&
    typeof x.code === 'number' &&
    typeof x.message === 'string'
  );
}

/** The paths to every value in `v` (object keys and array indexes), for changing one of them. */
function leafPaths(v: unknown, path: string[] = []): string[][] {
  if (v === null || typeof v !== 'object') return path.length > 0 ? [path] : [];
  const inner = Object.keys(v).flatMap((k) => leafPaths((v as Record<string, unknown>)[k], [...path, k]));
  return path.length > 0 ? [path, ...inner] : inner;
}

/** A valid request of every method and query kind, on the node's head (any node kind). */
async function validRequests(node: RunningNode): Promise<[string, unknown][]> {
  const head = (
    await node.rpc<{
      header: { height: number; hash: string; epoch_id: string };
      chunks: { chunk_hash: string }[];
    }>('block', { finality: 'final' })
  ).body.result!;
  const { height, hash } = head.header;
  const chunk = head.chunks[0]!.chunk_hash;
  const account = 'test.near';
  const key = 'ed25519:11111111111111111111111111111111';
  const final = { finality: 'final' };
  return [
    ['query', { request_type: 'view_account', account_id: account, ...final }],
    ['query', { request_type: 'view_code', account_id: account, block_id: height }],
    [
      'query',
      { request_type: 'view_state', account_id: account, prefix_base64: '', include_proof: true, ...final },
    ],
    ['query', { request_type: 'view_access_key', account_id: account, public_key: key, block_id: hash }],
    ['query', { request_type: 'view_access_key_list', account_id: account, ...final }],
    [
      'query',
      { request_type: 'call_function', account_id: account, method_name: 'x', args_base64: 'e30=', ...final },
    ],
    ['query', { request_type: 'view_gas_key_nonces', account_id: account, public_key: key, ...final }],
    ['query', { request_type: 'view_global_contract_code', code_hash: hash, ...final }],
    ['query', { request_type: 'view_global_contract_code_by_account_id', account_id: account, ...final }],
    ['query', [`account/${account}`, '']],
    ['query', [`access_key/${account}/${key}`, '']],
    ['block', { block_id: height }],
    ['block', [hash]],
    ['chunk', { chunk_id: chunk }],
    ['chunk', { block_id: height, shard_id: 0 }],
    ['tx', { tx_hash: hash, sender_account_id: account, wait_until: 'NONE' }],
    ['EXPERIMENTAL_tx_status', { tx_hash: hash, sender_account_id: account, wait_until: 'NONE' }],
    ['EXPERIMENTAL_receipt', { receipt_id: hash }],
    ['EXPERIMENTAL_changes', { changes_type: 'account_changes', account_ids: [account], block_id: height }],
    [
      'EXPERIMENTAL_changes',
      { changes_type: 'data_changes', account_ids: [account], key_prefix_base64: '', ...final },
    ],
    [
      'EXPERIMENTAL_changes',
      {
        changes_type: 'single_access_key_changes',
        keys: [{ account_id: account, public_key: key }],
        ...final,
      },
    ],
    ['EXPERIMENTAL_changes_in_block', { block_id: height }],
    ['validators', { block_id: height }],
    ['validators', { epoch_id: head.header.epoch_id }],
    ['EXPERIMENTAL_validators_ordered', { block_id: height }],
    [
      'light_client_proof',
      { type: 'transaction', transaction_hash: hash, sender_id: account, light_client_head: hash },
    ],
    [
      'light_client_proof',
      { type: 'receipt', receipt_id: hash, receiver_id: account, light_client_head: hash },
    ],
    ['next_light_client_block', { last_block_hash: hash }],
    ['gas_price', [height]],
    ['EXPERIMENTAL_protocol_config', { block_id: hash }],
    ['EXPERIMENTAL_congestion_level', { block_id: height, shard_id: 0 }],
    ['EXPERIMENTAL_congestion_level', { chunk_id: chunk }],
    ['EXPERIMENTAL_maintenance_windows', { account_id: account }],
    ['EXPERIMENTAL_view_account', { account_id: account, ...final }],
    ['EXPERIMENTAL_view_state', { account_id: account, prefix_base64: '', ...final }],
    ['EXPERIMENTAL_call_function', { account_id: account, method_name: 'x', args_base64: '', ...final }],
    ['EXPERIMENTAL_receipt_to_tx', { receipt_id: hash }],
  ];
}
