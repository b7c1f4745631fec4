// API keys in the path or a header, and per-client limits, answered as JSON-RPC envelopes.
import { AccessControl } from '@nearlite/jsonrpc';
import t from 'tap';
import { harness } from './fixtures/http.js';

t.test('without keys everything is open', async (t) => {
  const h = await harness(t);
  t.equal((await h.rpc('status', [])).status, 200);
  t.equal((await h.post('/k1/status', '{}')).status, 404, 'no key routes without keys');
});

t.test('with keys: in the path, in the path form, in a header; unknown or missing is 401', async (t) => {
  const h = await harness(t, { access: { apiKeys: ['k1', 'k2'] } });
  const env = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'status', params: [] });
  const missing = await h.post('/', env);
  t.equal(missing.status, 401);
  t.same(missing.json.error.cause, {
    name: 'UNAUTHORIZED',
    info: { error_message: 'an API key is required' },
  });
  t.equal(missing.json.id, null);
  t.equal((await h.post('/k1', env)).status, 200, '/<key>');
  t.equal((await h.post('/k2/status', '[]')).status, 200, '/<key>/<method>');
  const wrong = await h.post('/k3/status', '[]');
  t.equal(wrong.status, 401);
  t.equal(wrong.json.error.data, 'unknown API key');
  t.equal((await h.post('/status', '[]')).status, 401, 'a method path without a key');
  const header = await fetch(`${h.server.url}/status`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'k1' },
    body: '[]',
  });
  t.equal(header.status, 200, 'x-api-key header');
  const open = await fetch(`${h.server.url}/status`);
  t.equal(open.status, 200, 'GET /status stays open');
});

t.test('requests per second: a token bucket per client, 429 past it', async (t) => {
  let now = 0;
  const a = new AccessControl({ requestsPerSecond: 3 }, () => now);
  const results = Array.from({ length: 5 }, () => a.admit(undefined, undefined, '1.1.1.1').ok);
  t.same(results, [true, true, true, false, false], 'a second of burst, then refused');
  t.ok(a.admit(undefined, undefined, '2.2.2.2').ok, 'another client has its own bucket');
  now += 1000 / 3;
  t.ok(a.admit(undefined, undefined, '1.1.1.1').ok, 'a token back after a third of a second');
  t.notOk(a.admit(undefined, undefined, '1.1.1.1').ok);
  const h = await harness(t, { access: { requestsPerSecond: 2 } });
  const statuses: number[] = [];
  for (let i = 0; i < 10; i++) statuses.push((await h.rpc('status', [])).status);
  t.ok(statuses.includes(429), `some refused: ${statuses.join(',')}`);
  const refused = await h.rpc('status', []);
  if (refused.status === 429) t.equal(refused.json.error.cause.name, 'TOO_MANY_REQUESTS');
});

t.test('view-call gas per second: charged after each call, refused while spent', async (t) => {
  let now = 0;
  const a = new AccessControl({ viewGasPerSecond: 100n }, () => now);
  const release = a.beginViewCall('c');
  t.ok(release, 'a full bucket admits');
  release!();
  a.chargeGas('c', 150n);
  t.equal(a.beginViewCall('c'), null, 'spent: refused');
  t.ok(a.beginViewCall('d'), 'another client has its own bucket');
  now += 1000;
  t.ok(a.beginViewCall('c'), 'a second later it has refilled past zero');
});

t.test('view calls in flight per client', async (t) => {
  const a = new AccessControl({ concurrentViewCalls: 2 });
  const r1 = a.beginViewCall('c');
  const r2 = a.beginViewCall('c');
  t.ok(r1 && r2);
  t.equal(a.beginViewCall('c'), null, 'a third is refused');
  t.ok(a.beginViewCall('d'), 'another client is not');
  r1!();
  t.ok(a.beginViewCall('c'), 'a slot comes back when a call ends');
  const h = await harness(t, { access: { concurrentViewCalls: 1 } });
  for (let i = 0; i < 3; i++) {
    const r = await h.rpc('query', {
      request_type: 'call_function',
      account_id: 'a.near',
      method_name: 'get',
      args_base64: '',
      finality: 'final',
    });
    t.not(r.status, 429, 'one at a time is within the limit');
  }
  // A second view call while the first runs is refused, the answer naming the request it refuses.
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const query = h.backend.query.bind(h.backend);
  h.backend.query = async (ref, req) => {
    await held;
    return query(ref, req);
  };
  const params = {
    request_type: 'call_function',
    account_id: 'a.near',
    method_name: 'get',
    args_base64: '',
    finality: 'final',
  };
  const first = h.rpc('query', params, 'first');
  await new Promise((r) => setTimeout(r, 100));
  const second = await h.rpc('query', params, 'second');
  t.equal(second.status, 429);
  t.equal(second.json.error.cause.name, 'TOO_MANY_REQUESTS');
  t.equal(second.json.id, 'second', 'the refusal carries the request id');
  // The path form is judged by the path's method and the params it carries: a `method` key a client
  // adds to the bare params is one of the params, and does not pass the call off as another method.
  for (const [path, body] of [
    ['/query', params],
    ['/query', { method: 'x', ...params }],
    ['/query', { method: 'query', ...params }],
    ['/EXPERIMENTAL_call_function', { method: 'x', ...params }],
    ['/query', { jsonrpc: '2.0', id: 'full', method: 'query', params }],
  ] as const) {
    const r = await h.post(path, JSON.stringify(body));
    t.equal(r.status, 429, `${path} ${JSON.stringify(body).slice(0, 40)}: refused`);
  }
  release();
  t.equal((await first).status, 200);
});
