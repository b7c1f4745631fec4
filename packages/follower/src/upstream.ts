// Write methods on a follower are forwarded to the RPC it was given (`--upstream-rpc URL`): the
// upstream's result is returned as its bytes, and its error as its own error body and HTTP status.

import { RpcError, type RpcErrorBody } from '@nearlite/jsonrpc';
import {
  HandlerError,
  isJsonObject,
  RawJson,
  stringifyJson,
  urlForDisplay,
  withoutCredentials,
} from '@nearlite/primitives';

/**
 * How long a forwarded call may take: above nearcore's own wait for a transaction (`send_tx` and
 * `tx` with `wait_until` answer TIMEOUT_ERROR after 10 s by default), so its answer comes through.
 */
const UPSTREAM_TIMEOUT_MS = 60_000;

/** How a call to the upstream ended: a result, its JSON-RPC error, or no usable answer at all. */
export type UpstreamOutcome = 'result' | 'error' | 'failed';

export class UpstreamRpc {
  private nextId = 1;
  /** The URL as logs and client-facing errors show it: no password, API key or query value. */
  readonly shown: string;
  private readonly target: { readonly url: string; readonly headers: Record<string, string> };

  constructor(
    readonly url: string,
    private readonly timeoutMs = UPSTREAM_TIMEOUT_MS,
    /** Every call, for metrics: an operator sees how much the node leans on its upstream. */
    private readonly observe?: (method: string, outcome: UpstreamOutcome, seconds: number) => void,
  ) {
    this.shown = urlForDisplay(url);
    this.target = withoutCredentials(url);
  }

  /** The same upstream, observed the same, with another deadline. */
  withTimeout(timeoutMs: number): UpstreamRpc {
    return new UpstreamRpc(this.url, timeoutMs, this.observe);
  }

  async call(method: string, params: unknown): Promise<RawJson> {
    const started = performance.now();
    let outcome: UpstreamOutcome = 'failed';
    try {
      const result = await this.ask(method, params);
      outcome = 'result';
      return result;
    } catch (err) {
      if (err instanceof RpcError) outcome = 'error';
      throw err;
    } finally {
      this.observe?.(method, outcome, (performance.now() - started) / 1000);
    }
  }

  private async ask(method: string, params: unknown): Promise<RawJson> {
    let res: Response;
    let text: string;
    try {
      res = await fetch(this.target.url, {
        method: 'POST',
        headers: { ...this.target.headers, 'content-type': 'application/json' },
        body: stringifyJson({ jsonrpc: '2.0', id: `follower-${this.nextId++}`, method, params }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      text = await res.text();
    } catch (err) {
      const e = err as Error;
      throw HandlerError.internal(
        e.name === 'TimeoutError'
          ? `the upstream RPC ${this.shown} did not answer within ${this.timeoutMs} ms`
          : `the upstream RPC ${this.shown} is unreachable: ${e.message}`,
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw HandlerError.internal(`the upstream RPC answered HTTP ${res.status} without JSON`);
    }
    // Only a JSON-RPC answer is passed on: anything else (an empty object, a bare value) would
    // reach the client as a success with a null result.
    if (isJsonObject(body) && isJsonObject(body.error))
      throw new RpcError(res.status, body.error as unknown as RpcErrorBody);
    if (!isJsonObject(body) || !Object.hasOwn(body, 'result') || body.error !== undefined)
      throw HandlerError.internal(
        `the upstream RPC answered HTTP ${res.status} with neither a result nor an error`,
      );
    return new RawJson(resultText(text));
  }
}

/** The `result` member's own bytes: the upstream's answer is passed on without re-encoding. */
function resultText(envelope: string): string {
  const parsed = JSON.parse(envelope, (_k, v) => v) as { result: unknown };
  const marker = '"result":';
  const at = envelope.indexOf(marker);
  // nearcore and nearlite write `result` after `jsonrpc`; anything else is re-encoded.
  if (at < 0) return JSON.stringify(parsed.result);
  let end = envelope.lastIndexOf(',"id"');
  if (end < at) end = envelope.lastIndexOf('}');
  const candidate = envelope.slice(at + marker.length, end).trim();
  try {
    JSON.parse(candidate);
    return candidate;
  } catch {
    return JSON.stringify(parsed.result);
  }
}
