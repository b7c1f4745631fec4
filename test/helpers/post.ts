// The tests' own HTTP calls, over node:http with kept-alive connections. Global fetch (undici) makes
// dozens of promises and web streams a request, and under tap's async-hook domains each promise
// registers a destroy hook: tests that compare or send thousands of requests spent more CPU in their
// own process than the nodes they asked. The real clients' tests keep their clients' own transport.
import { Agent, request } from 'node:http';

// As many connections as calls in flight, as fetch opens: a test's concurrent burst reaches the server as one.
const agent = new Agent({ keepAlive: true });

export interface HttpAnswer {
  status: number;
  /** The answer's content type, '' when it has none. */
  type: string;
  text: string;
}

/** POSTs `body` as JSON; resolves with the status and the body as text, whatever the status. */
export function postJson(url: string, body: string): Promise<HttpAnswer> {
  return httpRequest(url, 'POST', { 'content-type': 'application/json' }, body);
}

/** Any request; resolves with the status, the content type and the body as text, whatever the status. */
export function httpRequest(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string | Uint8Array,
): Promise<HttpAnswer> {
  const withLength =
    body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
  return new Promise((resolve, reject) => send(url, method, withLength, body, resolve, reject, true));
}

function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | Uint8Array | undefined,
  resolve: (r: HttpAnswer) => void,
  reject: (err: Error) => void,
  mayRetry: boolean,
): void {
  const req = request(url, { method, agent, headers }, (res) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () =>
      resolve({
        status: res.statusCode ?? 0,
        type: res.headers['content-type'] ?? '',
        text: Buffer.concat(chunks).toString('utf8'),
      }),
    );
    res.on('error', reject);
  });
  req.on('error', (err: NodeJS.ErrnoException) => {
    // A kept-alive connection the server closed as idle, just as the request went out: the server
    // never read it, so it is sent once more on a new connection.
    if (mayRetry && req.reusedSocket && err.code === 'ECONNRESET') {
      send(url, method, headers, body, resolve, reject, false);
    } else reject(err);
  });
  req.end(body);
}
