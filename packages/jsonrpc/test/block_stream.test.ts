// The /v0 block stream routes over real HTTP: what the provider answers is written as is, with
// neardata's headers; a failing provider is a 500 reported to the operator, never a crash; a client
// that goes away aborts the provider's wait.
import { type BlockStreamAnswer, type BlockStreamProvider, startRpcServer } from '@nearlite/jsonrpc';
import t from 'tap';
import { fakeBackend } from './fixtures/fake_backend.js';

async function serve(
  t: typeof import('tap')['default'],
  provider?: BlockStreamProvider,
  access?: { apiKeys?: string[]; requestsPerSecond?: number },
) {
  const reported: string[] = [];
  const server = await startRpcServer({
    backend: fakeBackend(),
    host: '127.0.0.1',
    port: 0,
    ...(provider ? { blockStream: provider } : {}),
    ...(access ? { access } : {}),
    onInternalError: (_err, where) => reported.push(where),
  });
  t.teardown(() => server.close());
  return { url: server.url, reported };
}

t.test('answers, redirects and headers', async (t) => {
  const seen: [number, boolean][] = [];
  const provider: BlockStreamProvider = {
    async block(height, optimistic): Promise<BlockStreamAnswer> {
      seen.push([height, optimistic]);
      if (height === 7) return { ok: true, json: 'null', final: true };
      if (height === 8) return { ok: false, status: 404, error: 'Too low', type: 'BLOCK_HEIGHT_TOO_LOW' };
      return { ok: true, json: `{"block":{"height":${height}},"shards":[]}`, final: !optimistic };
    },
    finalHeight: () => 10,
    optimisticHeight: () => 12,
    firstHeight: () => 3,
  };
  const { url } = await serve(t, provider);
  const get = (p: string) => fetch(`${url}${p}`, { redirect: 'manual' });

  const b = await get('/v0/block/9');
  t.equal(b.status, 200);
  t.equal(await b.text(), '{"block":{"height":9},"shards":[]}');
  t.equal(b.headers.get('content-type'), 'application/json; charset=utf-8');
  t.equal(b.headers.get('cache-control'), 'public, max-age=31536000', 'a final block never changes');
  const o = await get('/v0/block_opt/12');
  t.equal(o.status, 200);
  t.equal(o.headers.get('cache-control'), null, 'an optimistic block is not cached');
  t.same(seen, [
    [9, false],
    [12, true],
  ]);
  const n = await get('/v0/block/7');
  t.equal(await n.text(), 'null');
  t.equal(n.headers.get('cache-control'), 'public, max-age=86400');
  const low = await get('/v0/block/8');
  t.equal(low.status, 404);
  t.same(await low.json(), { error: 'Too low', type: 'BLOCK_HEIGHT_TOO_LOW' });
  t.equal(low.headers.get('cache-control'), 'public, max-age=86400', 'out of range for good, as neardata');
  for (const bad of ['x', '-1', '1.5', '123456789012345678901']) {
    const r = await get(`/v0/block/${bad}`);
    t.equal(r.status, 400, bad);
    t.equal(await r.text(), '"Invalid argument"');
  }
  t.equal(seen.length, 4, 'bad heights never reach the provider');
  for (const [path, location] of [
    ['/v0/last_block/final', '/v0/block/10'],
    ['/v0/last_block/optimistic', '/v0/block_opt/12'],
    ['/v0/first_block', '/v0/block/3'],
  ] as const) {
    const r = await get(path);
    t.equal(r.status, 302, path);
    t.equal(r.headers.get('location'), location);
  }
  t.equal(
    (await get('/v0/first_block')).headers.get('cache-control'),
    'no-store',
    'the first block of a node that collects garbage moves',
  );
  const archival = await serve(t, { ...provider, firstHeightFixed: true });
  const fixed = await fetch(`${archival.url}/v0/first_block`, { redirect: 'manual' });
  t.equal(fixed.headers.get('cache-control'), 'public, max-age=86400', "an archival node's does not");
});

t.test('a failing provider is a 500 the operator hears about', async (t) => {
  const { url, reported } = await serve(t, {
    block: async () => {
      throw new Error('disk on fire');
    },
    finalHeight: () => 1,
    optimisticHeight: () => 1,
    firstHeight: () => 0,
  });
  const r = await fetch(`${url}/v0/block/1`);
  t.equal(r.status, 500);
  t.same(await r.json(), { error: 'The block could not be read', type: 'INTERNAL_ERROR' });
  t.same(reported, ['GET /v0/block']);
  const again = await fetch(`${url}/v0/last_block/final`, { redirect: 'manual' });
  t.equal(again.status, 302, 'the server keeps serving');
});

t.test('a client going away aborts the wait', async (t) => {
  let aborted!: () => void;
  const wasAborted = new Promise<void>((resolve) => {
    aborted = resolve;
  });
  let called!: () => void;
  const wasCalled = new Promise<void>((resolve) => {
    called = resolve;
  });
  const { url } = await serve(t, {
    block: (_h, _o, signal) =>
      new Promise((resolve) => {
        called();
        signal.addEventListener('abort', () => {
          aborted();
          resolve({ ok: false, status: 404, error: 'gone', type: 'BLOCK_DOES_NOT_EXIST' });
        });
      }),
    finalHeight: () => 1,
    optimisticHeight: () => 1,
    firstHeight: () => 0,
  });
  const client = new AbortController();
  const req = fetch(`${url}/v0/block/5`, { signal: client.signal }).catch((e: Error) => e.name);
  await wasCalled;
  client.abort();
  t.equal(await req, 'AbortError');
  await wasAborted;
  t.pass('the provider saw the abort');
});

t.test('no provider, no /v0 routes', async (t) => {
  const { url } = await serve(t);
  t.equal((await fetch(`${url}/v0/block/1`)).status, 404);
});

t.test('with API keys the routes need one, in the path or a header; a rate limit holds too', async (t) => {
  const provider: BlockStreamProvider = {
    async block(height): Promise<BlockStreamAnswer> {
      return { ok: true, json: `{"block":{"height":${height}},"shards":[]}`, final: true };
    },
    finalHeight: () => 10,
    optimisticHeight: () => 12,
    firstHeight: () => 3,
  };
  const { url } = await serve(t, provider, { apiKeys: ['k1'] });
  const get = (p: string, headers: Record<string, string> = {}) =>
    fetch(`${url}${p}`, { redirect: 'manual', headers });
  for (const p of ['/v0/block/9', '/v0/block_opt/9', '/v0/last_block/final', '/v0/first_block']) {
    const r = await get(p);
    t.equal(r.status, 401, `${p} without a key`);
    t.same(await r.json(), { error: 'an API key is required', type: 'UNAUTHORIZED' });
  }
  t.equal((await get('/k2/v0/block/9')).status, 401, 'an unknown key');
  const keyed = await get('/k1/v0/block/9');
  t.equal(keyed.status, 200, 'the key in the path');
  t.equal(await keyed.text(), '{"block":{"height":9},"shards":[]}');
  t.equal((await get('/v0/block/9', { 'x-api-key': 'k1' })).status, 200, 'the key in a header');
  const final = await get('/k1/v0/last_block/final');
  t.equal(final.headers.get('location'), '/k1/v0/block/10', 'a redirect keeps the key');
  t.equal((await get('/k1/v0/last_block/optimistic')).headers.get('location'), '/k1/v0/block_opt/12');

  const open = await serve(t, provider);
  t.equal((await fetch(`${open.url}/k1/v0/block/9`)).status, 404, 'no key routes without keys');
  const limited = await serve(t, provider, { requestsPerSecond: 2 });
  const statuses: number[] = [];
  for (let i = 0; i < 8; i++) statuses.push((await fetch(`${limited.url}/v0/block/9`)).status);
  t.ok(statuses.includes(429), `past the rate some are refused: ${statuses.join(',')}`);
});
