// Drives HTTP load with autocannon: 50 connections, every request with randomised params, after a
// second of the same load unmeasured.
import { spawn } from 'node:child_process';
import autocannon from 'autocannon';

/** Distinct bodies drawn in turn; autocannon renders the pool once per connection, so it stays small. */
const POOL = 1024;

/**
 * Each request is a pre-built buffer: autocannon renders a static `requests` array once per
 * connection, where a `setupRequest` callback makes it re-render (and the callback re-serialize)
 * every request on the generator's core — enough to cap the ceiling at the generator, not the server.
 */
export async function load(url, makeBody, { connections = 50, duration = 10, pool = POOL, warmup = 1 } = {}) {
  const requests = Array.from({ length: pool }, () => ({ body: JSON.stringify(makeBody()) }));
  const result = await autocannon({
    url,
    connections,
    duration,
    // The same load, unmeasured, first: a server's first second carries JIT compilation, the tier-up
    // of a contract's Wasm in each view worker and cold caches, which a run of a few seconds would
    // otherwise count as its throughput.
    ...(warmup > 0 ? { warmup: { connections, duration: warmup } } : {}),
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    requests,
  });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    bytesPerReq: Math.round(result.throughput.total / Math.max(1, result.requests.total)),
  };
}

export async function bareFastify(size) {
  const proc = spawn(
    process.execPath,
    [new URL('./bare_server.js', import.meta.url).pathname, String(size)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = await new Promise((resolve) =>
    proc.stdout.once('data', (d) => resolve(Number(String(d).trim()))),
  );
  return { url: `http://127.0.0.1:${port}`, stop: () => proc.kill('SIGTERM') };
}
