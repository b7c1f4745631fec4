// The tests' own JSON-RPC calls, over node:http with kept-alive connections. Global fetch (undici)
// makes dozens of promises and web streams a request, and under tap's async-hook domains each
// promise registers a destroy hook: tests that compare thousands of answers spent more CPU in their
// own process than the nodes they asked. The real clients' tests keep their clients' own transport.
import { Agent, request } from 'node:http';

// As many connections as calls in flight, as fetch opens: a test's concurrent burst reaches the server as one.
const agent = new Agent({ keepAlive: true });

/** POSTs `body` as JSON; resolves with the status and the body as text, whatever the status. */
export function postJson(url: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => post(url, body, resolve, reject, true));
}

function post(
  url: string,
  body: string,
  resolve: (r: { status: number; text: string }) => void,
  reject: (err: Error) => void,
  mayRetry: boolean,
): void {
  const req = request(
    url,
    {
      method: 'POST',
      agent,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    },
    (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    },
  );
  req.on('error', (err: NodeJS.ErrnoException) => {
    // A kept-alive connection the server closed as idle, just as the request went out: the server
    // never read it, so it is sent once more on a new connection.
    if (mayRetry && req.reusedSocket && err.code === 'ECONNRESET') post(url, body, resolve, reject, false);
    else reject(err);
  });
  req.end(body);
}
