// Who may call, and how often: optional API keys (in the path, `/<key>` and `/<key>/<method>`, as
// RPC providers put them, or in an `x-api-key` header) and per-client limits on requests per second
// and on view calls in flight. A client is its key when keys are configured, its IP otherwise.
// Refusals are JSON-RPC envelopes with HTTP 401 or 429.

export interface AccessConfig {
  /** Accepted keys; empty or absent: no key is needed. */
  readonly apiKeys?: readonly string[];
  /** Requests per second per client (a token bucket with one second of burst); absent: unlimited. */
  readonly requestsPerSecond?: number;
  /** `call_function` queries in flight per client; absent: unlimited. */
  readonly concurrentViewCalls?: number;
}

export type AccessDecision =
  | { readonly ok: true; readonly client: string }
  | { readonly ok: false; readonly status: 401 | 429; readonly message: string };

interface Bucket {
  tokens: number;
  at: number;
}

/** Forgetting idle clients keeps the table bounded however many addresses call. */
const MAX_CLIENTS = 100_000;

export class AccessControl {
  private readonly keys: ReadonlySet<string>;
  private readonly buckets = new Map<string, Bucket>();
  private readonly views = new Map<string, number>();

  constructor(
    private readonly o: AccessConfig,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.keys = new Set(o.apiKeys ?? []);
  }

  get keysRequired(): boolean {
    return this.keys.size > 0;
  }

  isKey(segment: string): boolean {
    return this.keys.has(segment);
  }

  /** Admits one request of `client`'s (a key from the path or header, else its address). */
  admit(pathKey: string | undefined, headerKey: string | undefined, ip: string): AccessDecision {
    let client = `ip:${ip}`;
    if (this.keysRequired) {
      const key = pathKey ?? headerKey;
      if (key === undefined) return { ok: false, status: 401, message: 'an API key is required' };
      if (!this.keys.has(key)) return { ok: false, status: 401, message: 'unknown API key' };
      client = `key:${key}`;
    }
    const rate = this.o.requestsPerSecond;
    if (rate !== undefined) {
      const t = this.now();
      let b = this.buckets.get(client);
      if (!b) {
        if (this.buckets.size >= MAX_CLIENTS) this.buckets.clear();
        b = { tokens: rate, at: t };
        this.buckets.set(client, b);
      }
      b.tokens = Math.min(rate, b.tokens + ((t - b.at) / 1000) * rate);
      b.at = t;
      if (b.tokens < 1) return { ok: false, status: 429, message: `rate limit: ${rate} requests per second` };
      b.tokens -= 1;
    }
    return { ok: true, client };
  }

  /** Takes a view-call slot for `client`; the returned release must be called when it is done. */
  beginViewCall(client: string): (() => void) | null {
    const cap = this.o.concurrentViewCalls;
    if (cap === undefined) return () => undefined;
    const n = this.views.get(client) ?? 0;
    if (n >= cap) return null;
    this.views.set(client, n + 1);
    return () => {
      const left = (this.views.get(client) ?? 1) - 1;
      if (left <= 0) this.views.delete(client);
      else this.views.set(client, left);
    };
  }
}
