// The three block sources over the same real NEAR Lake block (fixtures/lake: a localnet block from
// near-lake-framework-rs's test data): a Lake directory, an S3 bucket (s3rver on 127.0.0.1) and a
// neardata-style HTTP server. Transient failures are retried and reported; the rest are typed errors.
import { getEventListeners } from 'node:events';
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import S3rver from 's3rver';
import t from 'tap';
import { tempDir } from '../../../test/helpers/tmp.js';
import { StreamSourceError, TransientSourceError } from '../src/errors.js';
import { parseStreamJson } from '../src/json.js';
import { openLakeSink, S3LakeSink } from '../src/publish/lake_sink.js';
import { Deadlines } from '../src/sources/deadline.js';
import { FileSource } from '../src/sources/file.js';
import { HttpSource } from '../src/sources/http.js';
import { openSource } from '../src/sources/open.js';
import { type RetryEvent, retryDelayMs, withRetry } from '../src/sources/retry.js';
import { S3Source } from '../src/sources/s3.js';

const HEIGHT = 879765;
const LAKE = join(import.meta.dirname, 'fixtures', 'lake');
const blockText = readFileSync(join(LAKE, '000000879765', 'block.json'), 'utf8');
const shardText = readFileSync(join(LAKE, '000000879765', 'shard_0.json'), 'utf8');
const expected = { block: parseStreamJson(blockText), shards: [parseStreamJson(shardText)] };
const fast = { baseDelayMs: 1, maxDelayMs: 5 };

async function rejectsWith(
  t: Tap,
  p: Promise<unknown>,
  code: string,
  what: string,
): Promise<StreamSourceError> {
  try {
    await p;
  } catch (err) {
    t.ok(err instanceof StreamSourceError, `${what}: a StreamSourceError`);
    t.equal((err as StreamSourceError).code, code, `${what}: ${code}`);
    return err as StreamSourceError;
  }
  t.fail(`${what}: resolved`);
  throw new Error('unreachable');
}
type Tap = typeof t;

/** A tiny HTTP server whose handler the test sets; real sockets on 127.0.0.1. */
async function httpServer(
  t: Tap,
  handler: (path: string) => { status: number; body?: string; location?: string },
): Promise<string> {
  const server: Server = createServer((req, res) => {
    const r = handler(req.url ?? '/');
    res.writeHead(r.status, {
      'content-type': 'application/json',
      ...(r.location ? { location: r.location } : {}),
    });
    res.end(r.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const addr = server.address();
  return `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
}

async function s3rver(t: Tap, buckets: string[]): Promise<string> {
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: tempDir(t),
    configureBuckets: buckets.map((name) => ({ name, configs: [] })),
  });
  const { port } = (await server.run()) as { port: number };
  t.teardown(() => server.close());
  return `http://127.0.0.1:${port}`;
}

t.test('file: the Lake layout in a directory', async (t) => {
  const src = openSource(`file:${LAKE}`, fast);
  t.ok(src instanceof FileSource);
  t.equal(src.name, `file:${LAKE}`);
  t.same(await src.fetchBlock(HEIGHT), expected, 'block.json and shard_0.json as published');
  t.equal(await src.firstHeight(), HEIGHT);
  t.equal(await src.finalHeight(), HEIGHT);
  t.equal(await src.fetchBlock(HEIGHT - 1), null, 'a height below a published one has no block');
  const e = await rejectsWith(t, src.fetchBlock(HEIGHT + 1), 'NOT_AVAILABLE', 'a height not published yet');
  t.equal(e.height, HEIGHT + 1);
  t.match(e.message, LAKE, 'the error names the source');
});

t.test('file: the directory is listed again only when it changes', async (t) => {
  const dir = tempDir(t);
  const publish = (h: number) => mkdirSync(join(dir, String(h).padStart(12, '0')));
  const src = new FileSource(dir, fast);
  t.equal(await src.finalHeight(), null, 'an empty directory: nothing published');
  publish(5);
  t.equal(await src.finalHeight(), 5, 'a new height is seen at once');
  publish(6);
  t.equal(await src.finalHeight(), 6);
  // A listing made well after the directory's last change is kept while the directory is unchanged:
  // pretend the last change was a minute ago, list, then add a folder without moving the time.
  const old = new Date(Date.now() - 60_000);
  utimesSync(dir, old, old);
  t.equal(await src.finalHeight(), 6);
  publish(7);
  utimesSync(dir, old, old);
  t.equal(await src.finalHeight(), 6, 'the kept listing is used while the modification time stands');
  const now = new Date();
  utimesSync(dir, now, now);
  t.equal(await src.finalHeight(), 7, 'a new modification time lists again');
  publish(8);
  t.equal(await src.finalHeight(), 8, 'and a listing within a second of a change is not trusted');
  t.equal(await src.firstHeight(), 5);
});

t.test('file: garbage is retried, reported, then a typed error', async (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, '000000000005'));
  writeFileSync(join(dir, '000000000005', 'block.json'), '{"author": "trunc');
  const retries: RetryEvent[] = [];
  const src = new FileSource(dir, { ...fast, maxAttempts: 4, onRetry: (e) => retries.push(e) });
  const e = await rejectsWith(t, src.fetchBlock(5), 'UNAVAILABLE', 'malformed block.json');
  t.equal(retries.length, 3, 'every failed attempt but the last is reported before a retry');
  // Exponential steps of 1, 2 and 4 ms, each delay drawn from the step's upper half.
  t.ok(
    retries.every((r, i) => r.delayMs >= 2 ** i / 2 && r.delayMs <= 2 ** i),
    `exponential backoff with jitter (${retries.map((r) => r.delayMs).join(', ')})`,
  );
  t.equal(retries[0]!.height, 5);
  t.match(e.message, /at height 5/);
  t.match(String(retries[0]!.error), /not JSON/);

  writeFileSync(join(dir, '000000000005', 'block.json'), blockText);
  await rejectsWith(t, src.fetchBlock(5), 'UNAVAILABLE', 'a block.json of another height');
  mkdirSync(join(dir, '000000879765'));
  writeFileSync(join(dir, '000000879765', 'block.json'), blockText);
  await rejectsWith(t, src.fetchBlock(HEIGHT), 'BAD_RESPONSE', 'a shard file the block lists is missing');
});

t.test('http: neardata-style server, retried until it answers', async (t) => {
  let failures = 2;
  const base = await httpServer(t, (path) => {
    if (path === `/v0/block/${HEIGHT}`) {
      if (failures-- > 0) return { status: 503, body: 'busy' };
      return { status: 200, body: `{"block":${blockText},"shards":[${shardText}]}` };
    }
    if (path === `/v0/block/${HEIGHT - 1}`) return { status: 200, body: 'null' };
    if (path === '/v0/block/1')
      return {
        status: 404,
        body: '{"error":"Block height is before the genesis","type":"BLOCK_HEIGHT_TOO_LOW"}',
      };
    if (path === `/v0/block/${HEIGHT + 50}`)
      return {
        status: 404,
        body: '{"error":"The block is too far in the future","type":"BLOCK_DOES_NOT_EXIST"}',
      };
    if (path === `/v0/block/${HEIGHT + 1}`) return { status: 200, body: '<html>gateway</html>' };
    if (path === '/v0/last_block/final') return { status: 302, location: `/v0/block/${HEIGHT}` };
    if (path === '/v0/first_block') return { status: 302, location: '/v0/block/9' };
    return { status: 404, body: '' };
  });
  const retries: RetryEvent[] = [];
  const src = openSource(base, { ...fast, onRetry: (e) => retries.push(e) });
  t.ok(src instanceof HttpSource);
  t.same(await src.fetchBlock(HEIGHT), expected, 'the message after two 503s');
  t.equal(retries.length, 2, 'both 503s were reported');
  t.match(String(retries[0]!.error), /503/);
  t.equal(await src.fetchBlock(HEIGHT - 1), null, '`null` is a height without block');
  t.equal(await src.finalHeight(), HEIGHT, 'from the last_block/final redirect');
  t.equal(await src.firstHeight(), 9, 'from the first_block redirect');
  await rejectsWith(t, src.fetchBlock(1), 'BELOW_FIRST', 'BLOCK_HEIGHT_TOO_LOW');
  await rejectsWith(t, src.fetchBlock(HEIGHT + 50), 'NOT_AVAILABLE', 'BLOCK_DOES_NOT_EXIST');
  retries.length = 0;
  const garbage = await rejectsWith(t, src.fetchBlock(HEIGHT + 1), 'UNAVAILABLE', 'an HTML body');
  t.equal(retries.length, 7, 'garbage is retried and reported each time');
  t.match(garbage.message, base);
  // Every settled request let go of the source's close signal: nothing is kept per request.
  const closing = (src as unknown as { deadlines: { closing: AbortController } }).deadlines.closing.signal;
  t.equal(getEventListeners(closing, 'abort').length, 0, 'no request listens for the close once settled');
});

/** What near-lake-framework-js hands its users: every key camelCased, u64s as JS numbers. */
function camelCased(text: string): string {
  const convert = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(convert);
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [
        k.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase()),
        convert(x),
      ]),
    );
  };
  return JSON.stringify(convert(JSON.parse(text)));
}

t.test('camelCased messages are read as nearcore writes them', async (t) => {
  const base = await httpServer(t, (path) =>
    path === `/v0/block/${HEIGHT}`
      ? { status: 200, body: camelCased(`{"block":${blockText},"shards":[${shardText}]}`) }
      : { status: 404, body: '' },
  );
  const fromHttp = await openSource(base, fast).fetchBlock(HEIGHT);
  t.same(fromHttp, expected, 'a whole message, neardata-style');
  t.equal(
    String(fromHttp?.block.header.timestamp),
    String(expected.block.header.timestamp_nanosec),
    'the u64 timestamp JavaScript rounded is exact again',
  );
  const dir = join(tempDir(t), '000000879765');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'block.json'), camelCased(blockText));
  writeFileSync(join(dir, 'shard_0.json'), camelCased(shardText));
  t.same(await openSource(`file:${join(dir, '..')}`, fast).fetchBlock(HEIGHT), expected, 'Lake files');
});

t.test('s3: NEAR Lake bucket on s3rver', async (t) => {
  const endpoint = await s3rver(t, ['near-lake-test']);
  const sink = new S3LakeSink('near-lake-test', 'testnet/', { endpoint });
  await sink.put('000000879765/shard_0.json', shardText);
  await sink.put('000000879765/block.json', blockText);
  await sink.put('000000879770/shard_0.json', shardText);
  await sink.put('000000879770/block.json', blockText.replace(`"height": ${HEIGHT}`, '"height": 879770'));
  await sink.put('000000879771/block.json', 'garbage');
  await sink.close();

  const src = openSource(`s3://near-lake-test/testnet`, { ...fast, endpoint, maxAttempts: 3 });
  t.teardown(() => src.close());
  t.ok(src instanceof S3Source);
  t.equal(src.name, 's3://near-lake-test/testnet');
  t.same(await src.fetchBlock(HEIGHT), expected, 'requester-pays reads of block.json and shard_0.json');
  const file = new FileSource(LAKE);
  t.same(await src.fetchBlock(HEIGHT), await file.fetchBlock(HEIGHT), 'the same message as the file source');
  t.equal(await src.fetchBlock(HEIGHT + 2), null, 'a skipped height (a later one is listed) is null');
  t.equal(await src.nextHeight(HEIGHT + 2), 879770, 'the height after it, from that listing');
  t.equal(await src.nextHeight(HEIGHT), 879770, 'and from a listing of its own');
  t.equal(await src.nextHeight(879771), null, 'none above the last');
  t.equal(await src.firstHeight(), HEIGHT);
  t.equal(await src.finalHeight(), 879771);
  await rejectsWith(t, src.fetchBlock(879771), 'UNAVAILABLE', 'garbage in the bucket');
  await rejectsWith(t, src.fetchBlock(879772), 'NOT_AVAILABLE', 'not published yet');
});

t.test('s3: a Lake sink resumes at a block whose block.json a stopped writer never wrote', async (t) => {
  const endpoint = await s3rver(t, ['lake-out']);
  const sink = new S3LakeSink('lake-out', 'chain/', { endpoint });
  t.teardown(() => sink.close());
  t.equal(await sink.resumeHeight(), null, 'an empty bucket');
  await sink.put('000000000007/shard_0.json', shardText);
  t.equal(await sink.resumeHeight(), 7, 'only shard files: written again');
  await sink.put('000000000007/block.json', blockText);
  t.equal(await sink.resumeHeight(), 8, 'whole: the next height');
  // A key that only begins with block.json's is not it.
  await sink.put('000000000009/shard_0.json', shardText);
  await sink.put('000000000009/block.json.tmp', blockText);
  t.equal(await sink.resumeHeight(), 9);
});

t.test('openSource refuses what it cannot read', async (t) => {
  for (const spec of ['ftp://x', 'lake', 's3://', 'file:', 'http://', 'https://a b']) {
    t.throws(() => openSource(spec), { name: 'StreamSourceError', code: 'BAD_SPEC' }, spec);
  }
});

t.test('openLakeSink refuses a target that is neither a directory nor a bucket', async (t) => {
  for (const spec of ['s3://', 's3:///prefix', 'file:', '', 'https://host/lake', 'gs://bucket']) {
    t.throws(() => openLakeSink(spec), { name: 'StreamSourceError', code: 'BAD_SPEC' }, JSON.stringify(spec));
  }
  const dir = tempDir(t);
  t.equal(openLakeSink(`file:${dir}`).name, dir);
  t.equal(openLakeSink(pathToFileURL(dir).href).name, dir);
  t.equal(openLakeSink(dir).name, dir);
});

t.test('an HTTP server without neardata routes is refused at once, not waited on', async (t) => {
  // As a nearlite follower answers: the RPC is there, the /v0 routes are not.
  let asked = 0;
  const base = await httpServer(t, () => {
    asked++;
    return { status: 404, body: '{"message":"Route GET:/v0/first_block not found","error":"Not Found"}' };
  });
  const src = new HttpSource(base, fast);
  t.teardown(() => src.close());
  for (const [what, p] of [
    ['first block', src.firstHeight()],
    ['final height', src.finalHeight()],
  ] as const) {
    const e = await rejectsWith(t, p, 'BAD_RESPONSE', what);
    t.match(e.message, /answered 404: .* serves no neardata block stream/);
  }
  t.equal(asked, 2, 'each asked once');
});

t.test('a source that cannot be reached is retried, reported, then UNAVAILABLE', async (t) => {
  // A port that was just free: nothing listens there.
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  for (const spec of [`http://127.0.0.1:${port}`, 's3://lake']) {
    const retries: RetryEvent[] = [];
    const src = openSource(spec, {
      ...fast,
      maxAttempts: 3,
      endpoint: `http://127.0.0.1:${port}`,
      credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
      onRetry: (e) => retries.push(e),
    });
    const e = await rejectsWith(t, src.fetchBlock(10), 'UNAVAILABLE', spec);
    t.equal(retries.length, 2, `${spec}: each failure reported`);
    t.equal(e.height, 10);
    t.equal(e.source, src.name);
    await src.close();
  }
});

t.test('a source that answers too slowly is retried past each deadline; close ends a request', async (t) => {
  // Headers at once, then a byte every 50 ms, never the end: only a deadline ends such a request.
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const timer = setInterval(() => res.write(' '), 50);
    res.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const addr = server.address();
  const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  for (const spec of [base, 's3://lake']) {
    const retries: RetryEvent[] = [];
    const options = {
      ...fast,
      maxAttempts: 2,
      endpoint: base,
      credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
      onRetry: (e: RetryEvent) => retries.push(e),
    };
    const src = openSource(spec, { ...options, requestTimeoutMs: 300 });
    const e = await rejectsWith(t, src.fetchBlock(10), 'UNAVAILABLE', `${spec}: a block`);
    t.match(e.message, /took longer than 300 ms/);
    t.equal(retries.length, 1, `${spec}: the first deadline was reported and retried`);
    await rejectsWith(t, src.finalHeight(), 'UNAVAILABLE', `${spec}: the head`);
    await src.close();

    // A long deadline: closing the source ends the request under way.
    const slow = openSource(spec, { ...options, requestTimeoutMs: 600_000 });
    const pending = slow.fetchBlock(10).then(
      () => 'resolved',
      () => 'rejected',
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    await slow.close();
    t.equal(await pending, 'rejected', `${spec}: close ended the request`);
  }
});

t.test('many requests in flight at once are no leak warning', async (t) => {
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(w.name);
  process.on('warning', onWarning);
  t.teardown(() => process.off('warning', onWarning));
  const deadlines = new Deadlines({ requestTimeoutMs: 5_000 });
  await Promise.all(
    Array.from({ length: 130 }, () => deadlines.run('GET x', () => new Promise((r) => setTimeout(r, 20)))),
  );
  await new Promise((resolve) => setImmediate(resolve));
  t.same(warnings, [], 'no MaxListenersExceededWarning for a follow window of requests');
});

t.test("backoff: jittered steps, and a source's Retry-After waited for up to a minute", async (t) => {
  const o = { baseDelayMs: 200, maxDelayMs: 10_000 };
  const plain = new Error('fetch failed');
  t.equal(retryDelayMs(1, o, plain, 0), 100, 'the lower end of the first step');
  t.equal(retryDelayMs(1, o, plain, 1), 200, 'its upper end');
  t.equal(retryDelayMs(4, o, plain, 1), 1600, 'doubled per attempt');
  t.equal(retryDelayMs(12, o, plain, 1), 10_000, 'up to the cap');
  t.equal(retryDelayMs(1, o, new TransientSourceError('429', 30_000), 0), 30_000, 'Retry-After: 30');
  t.equal(
    retryDelayMs(1, o, new TransientSourceError('503', 3_600_000), 0),
    60_000,
    'an hour held to a minute',
  );
  t.equal(retryDelayMs(8, o, new TransientSourceError('503', 1000), 1), 10_000, 'a shorter ask is the step');
  t.equal(retryDelayMs(1, o, new TransientSourceError('429', 30_000), 1), 37_500, 'and up to a quarter more');
});

t.test("a height that is no block height is the caller's RangeError, before any request", async (t) => {
  let asked = 0;
  for (const h of [-1, 1.5, Number.NaN, 2 ** 53])
    await t.rejects(
      withRetry('test', h, {}, async () => {
        asked++;
        return null;
      }),
      RangeError,
      String(h),
    );
  t.equal(asked, 0);
});

t.test("a source's close ends a wait between attempts at once", async (t) => {
  const closing = new AbortController();
  const started = Date.now();
  const attempt = withRetry('test', 9, { signal: closing.signal }, async () => {
    throw new TransientSourceError('GET /v0/block/9 answered 503', 60_000);
  });
  setTimeout(() => closing.abort(new Error('the source is closed')), 50);
  await t.rejects(attempt, {
    name: 'StreamSourceError',
    code: 'CLOSED',
    message: 'test at height 9: the source is closed',
  });
  t.ok(Date.now() - started < 30_000, 'not the minute the source asked for');
  await t.rejects(
    withRetry('test', 10, { signal: closing.signal }, async () => null),
    { name: 'StreamSourceError', code: 'CLOSED' },
    'and a call after it',
  );
});
