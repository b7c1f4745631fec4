// The HTTP face: routes, body rules, envelopes, the path form, CORS, and hostile bodies.
import { request } from 'node:http';
import t from 'tap';
import { TIMESTAMP } from './fixtures/fake_backend.js';
import { get, harness } from './fixtures/http.js';

const h = await harness(t);
const notARequest = {
  name: 'REQUEST_VALIDATION_ERROR',
  cause: { name: 'PARSE_ERROR', info: { error_message: 'JSON RPC Request format was expected' } },
  code: -32700,
  message: 'Parse error',
  data: 'JSON RPC Request format was expected',
};

t.test('a request is answered in nearcore key order, id echoed verbatim', async (t) => {
  for (const id of ['dontcare', 123, null, { a: [1] }, 1.5]) {
    const r = await h.rpc('status', [], id);
    t.equal(r.status, 200);
    t.same(Object.keys(r.json), ['jsonrpc', 'result', 'id']);
    t.same(r.json.id, id);
    t.match(r.headers.get('content-type'), /^application\/json/);
  }
  const err = await h.rpc('nope', [], 7);
  t.same(Object.keys(err.json), ['jsonrpc', 'error', 'id']);
  t.same(Object.keys(err.json.error), ['name', 'cause', 'code', 'message', 'data']);
  t.equal(err.json.id, 7);
});

t.test('u64 values above 2^53 are written exactly', async (t) => {
  const r = await h.rpc('block', { finality: 'final' });
  t.match(r.text, `"timestamp":${TIMESTAMP}`);
});

t.test('anything that is not a single request is PARSE_ERROR with id null, HTTP 400', async (t) => {
  const bodies = [
    [{ jsonrpc: '2.0', id: 1, method: 'status' }], // batch
    { jsonrpc: '2.0', method: 'status', params: [] }, // notification
    { jsonrpc: '1.0', id: 1, method: 'status' },
    { jsonrpc: 2, id: 1, method: 'status' },
    { jsonrpc: '2.0', id: 1, method: 'status', extra: true },
    { jsonrpc: '2.0', id: 1, method: 5 },
    { jsonrpc: '2.0', id: 1, result: {} }, // a response
    'status',
    null,
  ];
  for (const b of bodies) {
    const r = await h.post('/', JSON.stringify(b));
    t.equal(r.status, 400, JSON.stringify(b));
    t.same(r.json, { jsonrpc: '2.0', error: notARequest, id: null });
  }
});

t.test('a key named twice at the top is no request; inside params the last one stands', async (t) => {
  // nearcore's Request is a derived struct: a duplicate field fails it, and the untagged Message falls
  // through to its catch-all. Params are a serde_json Value, whose map keeps the last value.
  const twice = [
    '{"jsonrpc":"2.0","id":1,"method":"status","method":"status","params":[]}',
    '{"jsonrpc":"2.0","id":1,"id":2,"method":"status","params":[]}',
    '{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"method":"status"}',
    '{"jsonrpc":"2.0","id":1,"method":"block","params":{},"params":{"finality":"final"}}',
    '{"jsonrpc":"2.0","id":1.0,"method":"status","params":[],"params":[]}',
  ];
  for (const b of twice) {
    const r = await h.post('/', b);
    t.equal(r.status, 400, b);
    t.same(r.json, { jsonrpc: '2.0', error: notARequest, id: null }, b);
  }
  const inParams = await h.post(
    '/',
    '{"jsonrpc":"2.0","id":1,"method":"block","params":{"finality":"nope","finality":"final"}}',
  );
  t.equal(inParams.status, 200);
  t.match(inParams.text, `"timestamp":${TIMESTAMP}`);
  const bare = await h.post('/block', '{"finality":"nope","finality":"final"}');
  t.equal(bare.status, 200, 'bare params are a value: the last key stands');
  const commas = await h.post(
    '/',
    '{"jsonrpc":"2.0","id":[1,2,{"a":1,"b":2}],"method":"status","params":[]}',
  );
  t.equal(commas.status, 200, 'commas below the top level are not members');
});

t.test('missing params are null', async (t) => {
  const r = await h.post('/', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'gas_price' }));
  t.equal(r.status, 400);
  t.equal(r.json.error.data, 'Failed parsing args: invalid type: null, expected struct RpcGasPriceRequest');
});

t.test('body rules: content type, syntax, size, depth', async (t) => {
  const ok = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'status', params: [] });
  for (const ct of ['application/json; charset=utf-8', 'application/vnd.api+json', 'APPLICATION/JSON']) {
    t.equal((await h.post('/', ok, ct)).status, 200, ct);
  }
  for (const ct of ['text/plain', 'application/x-www-form-urlencoded', null]) {
    const r = await h.post('/', ok, ct);
    t.equal(r.status, 415, String(ct));
    t.equal(r.text, 'Expected request with `Content-Type: application/json`');
  }
  const bad = await h.post('/', '{"jsonrpc": "2.0",');
  t.equal(bad.status, 400);
  t.equal(
    bad.text,
    'Failed to parse the request body as JSON: EOF while parsing a value at line 1 column 18',
  );
  t.equal(bad.json, undefined, 'plain text, not an envelope');
  const empty = await h.post('/', '');
  t.equal(empty.status, 400);
  t.equal(
    empty.text,
    'Failed to parse the request body as JSON: EOF while parsing a value at line 1 column 0',
  );
  // Inside a value, serde_path_to_error names the value's path first.
  const inParams = await h.post('/', '{"jsonrpc":"2.0","id":1,"method":"block","params":{"finality":final}}');
  t.equal(
    inParams.text,
    'Failed to parse the request body as JSON: params.finality: expected ident at line 1 column 64',
  );
  const trailing = await h.post('/', '{"jsonrpc":"2.0","id":1,"method":"status","params":[]} {}');
  t.equal(trailing.status, 400, 'nothing may follow the request (axum 0.8.5 and later)');
  t.equal(trailing.text, 'Failed to parse the request body as JSON: trailing characters at line 1 column 56');

  const big = await h.post(
    '/',
    `{"jsonrpc":"2.0","id":1,"method":"status","params":"${'x'.repeat(10 * 1024 * 1024)}"}`,
  );
  t.equal(big.status, 413);

  const deep = await h.post('/', `${'['.repeat(200_000)}${']'.repeat(200_000)}`);
  t.equal(deep.status, 400);
  // serde_json refuses the 128th level, at its bracket; the path is the 127 arrays around it.
  t.equal(
    deep.text,
    `Failed to parse the request body as JSON: ${'[0]'.repeat(127)}: recursion limit exceeded at line 1 column 128`,
  );
  const levels = (n: number) =>
    `{"jsonrpc":"2.0","method":"status","params":[],"id":${'['.repeat(n - 1)}${']'.repeat(n - 1)}}`;
  t.equal((await h.post('/', levels(127))).status, 200, '127 levels are read');
  const level128 = await h.post('/', levels(128));
  t.equal(level128.status, 400, 'the 128th is not');
  t.equal(
    level128.text,
    `Failed to parse the request body as JSON: id${'[0]'.repeat(126)}: recursion limit exceeded at line 1 column ${levels(128).indexOf('"id":') + 5 + 127}`,
  );
  const deepId = `{"jsonrpc":"2.0","method":"status","id":${'['.repeat(5000)}${']'.repeat(5000)}}`;
  t.equal((await h.post('/', deepId)).status, 400);
  const inString = JSON.stringify({ jsonrpc: '2.0', id: '['.repeat(1000), method: 'status', params: [] });
  t.equal((await h.post('/', inString)).status, 200, 'brackets inside strings do not count');
  t.equal((await h.rpc('status', [])).status, 200, 'still serving');
});

// Not a measure of speed: read in one pass, these bodies take a fraction of a second; read again
// from each escape on (as they were), ~4 MB of `\n` took 45 s and the 9 MB ones minutes each, with
// every other request (and the chain) waiting.
t.test(
  'a body of escapes is read in one pass and its strings kept exactly',
  { timeout: 60_000 },
  async (t) => {
    for (const [written, text] of [
      ['\\n', '\n'],
      ['\\"', '"'],
      ['\\\\', '\\'],
      ['\\ud83d\\ude00', '\u{1f600}'],
      ['\\u0041\\"', 'A"'],
    ] as const) {
      const n = Math.floor((9 * 1024 * 1024) / (written.length + 1));
      const body = `{"jsonrpc":"2.0","method":"status","params":[],"id":"${written.repeat(n)}"}`;
      const r = await h.post('/', body);
      t.equal(r.status, 200, written);
      t.equal(r.json.id, text.repeat(n), `${written}: the id echoed as written`);
    }
    t.equal((await h.rpc('status', [])).status, 200, 'still serving');
  },
);

t.test('numbers are read and echoed as serde_json reads and writes them', async (t) => {
  // serde_json keeps a JSON number as a u64, a negative i64 or an f64 (a fraction, an exponent,
  // `-0`, or an integer beyond both) and writes each back as it is: nearcore echoes the id so.
  const echoes: [string, string][] = [
    ['1.0', '1.0'],
    ['1e2', '100.0'],
    ['1.50', '1.5'],
    ['-0', '-0.0'],
    ['9007199254740993', '9007199254740993'],
    ['18446744073709551615', '18446744073709551615'],
    ['18446744073709551616', '1.8446744073709552e19'],
    ['-9223372036854775808', '-9223372036854775808'],
    ['[1.0,{"a":9007199254740993}]', '[1.0,{"a":9007199254740993}]'],
  ];
  for (const [sent, echoed] of echoes) {
    const r = await h.post('/', `{"jsonrpc":"2.0","id":${sent},"method":"status","params":[]}`);
    t.equal(r.status, 200, sent);
    t.ok(r.text.endsWith(`,"id":${echoed}}`), `id ${sent} is echoed as ${echoed}`);
  }
  // serde_json refuses a float beyond f64 at the literal's last character (`{"a":1e400}` at column 10).
  const bad = await h.post('/', '{"jsonrpc":"2.0","id":1e400,"method":"status","params":[]}');
  t.equal(bad.status, 400);
  t.equal(bad.text, 'Failed to parse the request body as JSON: id: number out of range at line 1 column 27');

  // A body of a million floats costs what JSON.parse costs: past the first 1,024 they are doubles.
  const many = await h.post(
    '/',
    `{"jsonrpc":"2.0","id":[${Array(1_000_000).fill('1.0').join(',')}],"method":"status"}`,
  );
  t.equal(many.status, 200);
  t.ok(
    many.text.endsWith(
      `,"id":[${Array(1024).fill('1.0').join(',')},${Array(1_000_000 - 1024)
        .fill('1')
        .join(',')}]}`,
    ),
  );

  // A string is never read as a number, whatever it holds, escaped quotes included.
  const strings = await h.post('/', '{"jsonrpc":"2.0","id":"1.0","method":"status","params":[]}');
  t.ok(strings.text.endsWith(',"id":"1.0"}'));
  const quoted = String.raw`"q\"[1.0,9007199254740993\\"`;
  const inQuotes = await h.post('/', `{"jsonrpc":"2.0","id":${quoted},"method":"status","params":[]}`);
  t.equal(inQuotes.json.id, 'q"[1.0,9007199254740993\\', 'an escaped quote does not end the string');
  const nul = await h.post('/', '{"jsonrpc":"2.0","id":["\\u0000:0", 1.0],"method":"status","params":[]}');
  t.ok(nul.text.endsWith(',"id":["\\u0000:0",1.0]}'), nul.text);
});

t.test('a body that is not UTF-8 is a 400 parse error, not text with replacement characters', async (t) => {
  const head = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"status","params":["');
  for (const bad of [[0xff], [0xc3, 0x28], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80]]) {
    const body = Buffer.concat([head, Buffer.from(bad), Buffer.from('"]}')]);
    const r = await fetch(h.server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    t.equal(r.status, 400, `bytes ${bad.map((b) => b.toString(16)).join(' ')}`);
    t.equal(
      await r.text(),
      // serde_json checks a string's UTF-8 once it has read the closing quote.
      `Failed to parse the request body as JSON: params[0]: invalid unicode code point at line 1 column ${head.length + bad.length + 1}`,
    );
  }
  const fine = Buffer.from('{"jsonrpc":"2.0","id":"é😀","method":"status","params":[]}');
  const ok = await fetch(h.server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: fine,
  });
  t.equal(ok.status, 200, 'valid multi-byte UTF-8 is fine');
  t.match(await ok.text(), /"id":"é😀"}$/);
  // serde_json reads a leading byte-order mark as a character, where no JSON value starts.
  const bom = await fetch(h.server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), fine]),
  });
  t.equal(bom.status, 400, 'a body after a byte-order mark');
  t.equal(await bom.text(), 'Failed to parse the request body as JSON: expected value at line 1 column 1');
});

t.test('an unpaired surrogate escape is refused as serde_json refuses it', async (t) => {
  // serde_json reads strings as UTF-8, so a `\u` surrogate escape must come paired (de.rs
  // parse_unicode_escape); the column is the bytes read when it gives up. JSON.parse keeps them.
  const body = (s: string) => `{"jsonrpc":"2.0","id":"${s}","method":"status","params":[]}`;
  const at = body('').indexOf('"id":"') + 6; // the string's first character
  const cases: [string, string, number][] = [
    ['\\udc00', 'lone leading surrogate in hex escape', at + 6],
    ['\\ud800', 'unexpected end of hex escape', at + 7],
    ['\\ud800x', 'unexpected end of hex escape', at + 7],
    ['\\ud800\\n', 'unexpected end of hex escape', at + 8],
    ['\\ud800\\u0041', 'lone leading surrogate in hex escape', at + 12],
    ['é\\udc00', 'lone leading surrogate in hex escape', at + 8],
  ];
  for (const [s, what, column] of cases) {
    const r = await h.post('/', body(s));
    t.equal(r.status, 400, s);
    t.equal(r.text, `Failed to parse the request body as JSON: id: ${what} at line 1 column ${column}`, s);
  }
  const pair = await h.post('/', body('\\ud83d\\ude00'));
  t.equal(pair.status, 200, 'a pair is a character');
  t.equal(pair.json.id, '😀');
  const escaped = await h.post('/', body('\\\\udc00'));
  t.equal(escaped.json.id, '\\udc00', 'an escaped backslash before u is no escape');
});

t.test('the path form: bare params or a matching envelope', async (t) => {
  const bare = await h.post('/status', '{}');
  t.equal(bare.status, 200);
  t.equal(bare.json.id, null);
  t.equal(bare.json.result.chain_id, 'test-chain-jX8xP');

  const blk = await h.post('/block', JSON.stringify({ finality: 'final' }));
  t.same(h.backend.last(), ['block', { finality: 'final' }]);
  t.equal(blk.json.result.header.height, 1200);

  const env = await h.post(
    '/block',
    JSON.stringify({ jsonrpc: '2.0', id: 'x', method: 'block', params: [1200] }),
  );
  t.equal(env.json.id, 'x');
  t.same(h.backend.last(), ['block', { blockId: 1200 }]);

  const noMethod = await h.post('/gas_price', JSON.stringify({ jsonrpc: '2.0', id: 3, params: [null] }));
  t.equal(noMethod.status, 200);
  t.equal(noMethod.json.id, 3);

  const mismatch = await h.post('/block', JSON.stringify({ jsonrpc: '2.0', id: 'x', method: 'status' }));
  t.equal(mismatch.status, 400);
  t.equal(mismatch.json.error.cause.name, 'PARSE_ERROR');
  t.equal(mismatch.json.id, 'x');

  const unknown = await h.post('/nope', '{}');
  t.equal(unknown.status, 400);
  t.equal(unknown.json.error.cause.name, 'METHOD_NOT_FOUND');
  t.equal((await h.post('/status', '{}', 'text/plain')).status, 415);
});

t.test('GET /status, /health, /network_info: bare results; 503 with an empty body on error', async (t) => {
  const s = await get(`${h.server.url}/status`);
  t.equal(s.status, 200);
  t.equal(s.json.chain_id, 'test-chain-jX8xP');
  const health = await get(`${h.server.url}/health`);
  t.equal(health.status, 200);
  t.equal(health.text, 'null');
  t.equal((await get(`${h.server.url}/network_info`)).json.num_active_peers, 0);
  const head = await get(`${h.server.url}/status`, 'HEAD');
  t.equal(head.status, 200);
  t.equal(head.text, '');

  h.backend.healthy = false;
  t.teardown(() => {
    h.backend.healthy = true;
  });
  for (const path of ['/status', '/health']) {
    const r = await get(h.server.url + path);
    t.equal(r.status, 503, path);
    t.equal(r.text, '');
  }
  const rpcHealth = await h.rpc('health', null);
  t.equal(rpcHealth.status, 200, 'the RPC method reports the handler error in the envelope');
  t.same(rpcHealth.json.error.cause, { name: 'NO_NEW_BLOCKS', info: { elapsed: { secs: 30, nanos: 0 } } });
});

t.test('other methods on / are refused; unknown paths are 404', async (t) => {
  t.equal((await get(`${h.server.url}/`)).status, 405);
  t.equal((await get(`${h.server.url}/`, 'PUT')).status, 405);
  t.equal((await get(`${h.server.url}/metrics-nope`)).status, 404);
  // Methods fastify has no route for at all, which fetch will not send.
  const status = (method: string, path: string) =>
    new Promise<number | undefined>((resolve, reject) =>
      request(`${h.server.url}${path}`, { method }, (res) => {
        res.resume();
        resolve(res.statusCode);
      })
        .on('error', reject)
        .end(),
    );
  for (const method of ['TRACE', 'PROPFIND', 'HEAD']) t.equal(await status(method, '/'), 405, method);
  t.equal(await status('TRACE', '/?x=1'), 405, 'with a query');
  t.equal(await status('TRACE', '/elsewhere'), 404, 'elsewhere');
});

t.test('CORS is permissive', async (t) => {
  const pre = await fetch(`${h.server.url}/`, {
    method: 'OPTIONS',
    headers: {
      origin: 'https://wallet.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
    },
  });
  t.ok(pre.status === 200 || pre.status === 204);
  t.equal(pre.headers.get('access-control-allow-origin'), '*');
  t.equal(pre.headers.get('access-control-allow-methods'), 'POST');
  t.equal(pre.headers.get('access-control-allow-headers'), 'content-type');
  const r = await h.rpc('status', []);
  t.equal(r.headers.get('access-control-allow-origin'), '*');
  t.equal((await h.post('/', '{', 'application/json')).headers.get('access-control-allow-origin'), '*');
  const listedStar = await harness(t, { corsAllowedOrigins: ['*'] });
  t.equal(
    (await listedStar.rpc('status', [])).headers.get('access-control-allow-origin'),
    '*',
    '["*"] is any origin',
  );
});

t.test('CORS with a list of origins: only those are named, on every answer', async (t) => {
  const app = 'https://app.example';
  const h = await harness(t, { corsAllowedOrigins: [app, 'http://localhost:5173'] });
  const call = (
    origin?: string,
    path = '/',
    body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'status', params: [] }),
  ) =>
    fetch(`${h.server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) },
      body,
    });
  const listed = await call(app);
  t.equal(listed.status, 200);
  t.equal(listed.headers.get('access-control-allow-origin'), app, 'a listed origin is named');
  t.match(listed.headers.get('vary') ?? '', /origin/);
  const other = await call('https://evil.example');
  t.equal(other.status, 200, 'the answer itself is the same');
  t.equal(other.headers.get('access-control-allow-origin'), null, 'an unlisted origin is not');
  t.equal((await call()).headers.get('access-control-allow-origin'), null, 'nor a request without one');
  const refused = await call(app, '/', '{');
  t.equal(refused.status, 400);
  t.equal(refused.headers.get('access-control-allow-origin'), app, 'errors too');
  t.equal((await call(app, '/nope')).headers.get('access-control-allow-origin'), app, 'and 404s');
  const preflight = (origin: string) =>
    fetch(`${h.server.url}/`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-custom',
      },
    });
  const pre = await preflight(app);
  t.equal(pre.status, 200);
  t.equal(pre.headers.get('access-control-allow-origin'), app);
  t.equal(
    pre.headers.get('access-control-allow-methods'),
    'GET,POST',
    "nearcore's methods, not the asked one",
  );
  t.equal(pre.headers.get('access-control-allow-headers'), 'authorization,accept,content-type');
  t.equal(pre.headers.get('access-control-max-age'), '3600');
  t.equal((await preflight('https://evil.example')).headers.get('access-control-allow-origin'), null);
  const status = await fetch(`${h.server.url}/status`, { headers: { origin: app } });
  t.equal(status.headers.get('access-control-allow-origin'), app, 'GET routes too');
});
