// Who may call, and how often: optional API keys (in the path, `/<key>` and `/<key>/<method>`, as
// RPC providers put them, or in an `x-api-key` header) and per-client limits on requests per second
// and on view calls in flight. A client is its key when keys are configured, its IP otherwise.
// Refusals are JSON-RPC envelopes with HTTP 401 or 429.
import { AsyncLocalStorage } from 'node:async_hooks';

export interface AccessConfig {
  /** Accepted keys; empty or absent: no key is needed. */
  readonly apiKeys?: readonly string[];
  /** Requests per second per client (a token bucket with one second of burst); absent: unlimited. */
  readonly requestsPerSecond?: number;
  /** `call_function` queries in flight per client; absent: unlimited. */
  readonly concurrentViewCalls?: number;
  /**
   * Gas per second that a client's view calls may burn (a bucket with one second of burst, charged
   * after each call with what it burnt); absent: unlimited.
   */
  readonly viewGasPerSecond?: bigint;
}

/** The request being answered, for backends to charge the gas its view call burnt. */
const current = new AsyncLocalStorage<{ gas: bigint }>();

/** Charges view-call gas to the request in progress (a no-op outside one). */
export function chargeViewGas(gas: bigint): void {
  const ctx = current.getStore();
  if (ctx) ctx.gas += gas;
}

/** Runs `fn` as one request, returning the view-call gas it was charged. */
export async function withGasMeter<T>(fn: () => Promise<T>): Promise<{ value: T; gas: bigint }> {
  const ctx = { gas: 0n };
  const value = await current.run(ctx, fn);
  return { value, gas: ctx.gas };
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
  private readonly gas = new Map<string, { tokens: bigint; at: number }>();

  constructor(
    private readonly o: AccessConfig,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.keys = new Set(o.apiKeys ?? []);
  }

  get keysRequired(): boolean {
    return this.keys.size > 0;
  }

  /** Whether view calls are limited at all (in flight or by gas): only then is a body judged for one. */
  get limitsViewCalls(): boolean {
    return this.o.concurrentViewCalls !== undefined || this.o.viewGasPerSecond !== undefined;
  }

  /** Whether view calls are charged for the gas they burn (a gas budget per client is set). */
  get metersGas(): boolean {
    return this.o.viewGasPerSecond !== undefined;
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

  private gasBucket(client: string): { tokens: bigint; at: number } | null {
    const rate = this.o.viewGasPerSecond;
    if (rate === undefined) return null;
    const t = this.now();
    let b = this.gas.get(client);
    if (!b) {
      if (this.gas.size >= MAX_CLIENTS) this.gas.clear();
      b = { tokens: rate, at: t };
      this.gas.set(client, b);
    }
    const refill = (rate * BigInt(Math.floor(t - b.at))) / 1000n;
    if (refill > 0n) {
      b.tokens = b.tokens + refill > rate ? rate : b.tokens + refill;
      b.at = t;
    }
    return b;
  }

  /** What a finished view call burnt, charged to its client (the bucket may go below zero). */
  chargeGas(client: string, burnt: bigint): void {
    const b = this.gasBucket(client);
    if (b) b.tokens -= burnt;
  }

  /** Takes a view-call slot for `client`; the returned release must be called when it is done. */
  beginViewCall(client: string): (() => void) | null {
    const bucket = this.gasBucket(client);
    if (bucket && bucket.tokens <= 0n) return null;
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
