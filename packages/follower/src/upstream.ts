// Write methods on a follower are forwarded to the RPC it was given (`--upstream-rpc URL`): the
// upstream's result is returned as its bytes, and its error as its own error body and HTTP status.

import { RpcError, type RpcErrorBody } from '@nearlite/jsonrpc';
import { HandlerError, RawJson } from '@nearlite/primitives';

export class UpstreamRpc {
  private nextId = 1;

  constructor(readonly url: string) {}

  async call(method: string, params: unknown): Promise<RawJson> {
    let res: Response;
    try {
      res = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: `follower-${this.nextId++}`, method, params }),
      });
    } catch (err) {
      throw new HandlerError(
        'INTERNAL_ERROR',
        { error_message: `the upstream RPC ${this.url} is unreachable: ${(err as Error).message}` },
        `the upstream RPC ${this.url} is unreachable`,
      );
    }
    const text = await res.text();
    let body: { result?: unknown; error?: RpcErrorBody };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw new HandlerError(
        'INTERNAL_ERROR',
        { error_message: `the upstream RPC answered HTTP ${res.status} without JSON` },
        `the upstream RPC answered HTTP ${res.status} without JSON`,
      );
    }
    if (body.error) throw new RpcError(res.status, body.error);
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
