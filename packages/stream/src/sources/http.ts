// A neardata-style HTTP server as a block source (a nearlite node's /v0 routes, or neardata itself):
// GET /v0/block/:h, the final head from the /v0/last_block/final redirect, the first block from
// /v0/first_block.
import { urlForDisplay, withoutCredentials } from '@nearlite/primitives';
import { StreamErrorCode, StreamSourceError, TransientSourceError } from '../errors.js';
import type { StreamerMessage } from '../message.js';
import type { BlockSource } from '../source.js';
import { type DeadlineOptions, Deadlines } from './deadline.js';
import { type RetryOptions, withRetry } from './retry.js';
import { asStreamerMessage, parseJsonText } from './validate.js';

export interface HttpSourceOptions extends RetryOptions, DeadlineOptions {
  /** Extra request headers (an API key, for example). */
  readonly headers?: Readonly<Record<string, string>>;
}

export class HttpSource implements BlockSource {
  readonly name: string;
  private readonly base: string;
  private readonly authorization: Record<string, string>;
  private readonly deadlines: Deadlines;
  private readonly retry: RetryOptions;

  constructor(
    base: string,
    private readonly o: HttpSourceOptions = {},
  ) {
    // fetch refuses a URL with credentials: they go as a header; logs name the source without them.
    const target = withoutCredentials(base.replace(/\/+$/, ''));
    this.base = target.url;
    this.authorization = target.headers;
    this.name = urlForDisplay(this.base);
    this.deadlines = new Deadlines(o);
    this.retry = { ...o, signal: this.deadlines.closed };
  }

  private async get(
    path: string,
    height: number | null,
    redirect: 'manual' | 'follow',
    signal: AbortSignal,
  ): Promise<Response> {
    const res = await fetch(`${this.base}${path}`, {
      redirect,
      headers: { ...this.authorization, ...this.o.headers },
      signal,
    });
    if (res.status >= 500 || res.status === 429) {
      await res.body?.cancel();
      throw new TransientSourceError(`GET ${path} answered ${res.status}`, retryAfterMs(res));
    }
    if (res.status >= 400 && res.status !== 404) {
      const text = await res.text();
      throw new StreamSourceError(
        StreamErrorCode.BAD_RESPONSE,
        this.name,
        height,
        `GET ${path} answered ${res.status}: ${text.slice(0, 200)}`,
      );
    }
    return res;
  }

  fetchBlock(height: number): Promise<StreamerMessage | null> {
    const path = `/v0/block/${height}`;
    return withRetry(this.name, height, this.retry, () =>
      this.deadlines.run(`GET ${path}`, (signal) => this.block(path, height, signal)),
    );
  }

  private async block(path: string, height: number, signal: AbortSignal): Promise<StreamerMessage | null> {
    const res = await this.get(path, height, 'follow', signal);
    const text = await res.text();
    if (res.status === 404) {
      let type: unknown;
      try {
        type = (JSON.parse(text) as { type?: unknown }).type;
      } catch {
        throw new TransientSourceError(`GET ${path} answered 404 without neardata's body`);
      }
      const code =
        type === 'BLOCK_HEIGHT_TOO_LOW' ? StreamErrorCode.BELOW_FIRST : StreamErrorCode.NOT_AVAILABLE;
      throw new StreamSourceError(code, this.name, height, `GET ${path}: ${text.slice(0, 200)}`);
    }
    return asStreamerMessage(parseJsonText(text, `GET ${path}`), height, `GET ${path}`);
  }

  /** The height a redirect route points at. */
  private redirectHeight(path: string): Promise<number> {
    return withRetry(this.name, null, this.retry, () =>
      this.deadlines.run(`GET ${path}`, (signal) => this.redirect(path, signal)),
    );
  }

  private async redirect(path: string, signal: AbortSignal): Promise<number> {
    const res = await this.get(path, null, 'manual', signal);
    await res.body?.cancel();
    const location = res.headers.get('location');
    const m = location ? /\/v0\/block(?:_opt)?\/(\d+)$/.exec(location) : null;
    if (res.status < 300 || res.status >= 400 || !m) {
      // neardata always redirects these routes: a 404 is a server without them, which waiting on
      // would never change.
      if (res.status === 404)
        throw new StreamSourceError(
          StreamErrorCode.BAD_RESPONSE,
          this.name,
          null,
          `GET ${path} answered 404: ${this.base} serves no neardata block stream (a nearlite follower or front end publishes none; follow what it follows)`,
        );
      throw new TransientSourceError(`GET ${path} answered ${res.status} without a block redirect`);
    }
    return Number(m[1]);
  }

  finalHeight(): Promise<number | null> {
    return this.redirectHeight('/v0/last_block/final');
  }

  firstHeight(): Promise<number | null> {
    return this.redirectHeight('/v0/first_block');
  }

  async close(): Promise<void> {
    this.deadlines.close();
  }
}

/** An HTTP `Retry-After`, in seconds or as a date, in milliseconds from now. */
function retryAfterMs(res: Response): number | undefined {
  const v = res.headers.get('retry-after');
  if (v === null) return undefined;
  if (/^\d+$/.test(v.trim())) return Number(v.trim()) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}
