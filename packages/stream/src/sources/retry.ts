// Exponential backoff for transient source failures. Every failed attempt is reported, so a source
// that keeps failing is visible in the logs rather than silently skipped. Each delay is drawn from
// the upper half of its step, so the heights a follow loop fetches at once do not retry in lockstep,
// and a source that says how long to wait (`Retry-After`) is waited for that long, up to a minute.
import { StreamErrorCode, StreamSourceError, TransientSourceError } from '../errors.js';

export interface RetryOptions {
  /** Attempts before the failure becomes StreamSourceError(UNAVAILABLE) (default 8). */
  readonly maxAttempts?: number;
  /** First delay; doubled per attempt up to maxDelayMs (defaults 200 ms and 10 s). */
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
  /** Called on every transient failure before the next attempt. */
  readonly onRetry?: (e: RetryEvent) => void;
  /** Ends a wait between attempts at once (the source closed): the retry then fails with its reason. */
  readonly signal?: AbortSignal;
}

export interface RetryEvent {
  readonly source: string;
  readonly height: number | null;
  readonly attempt: number;
  readonly delayMs: number;
  readonly error: unknown;
}

/** The longest `Retry-After` honoured. */
const MAX_RETRY_AFTER_MS = 60_000;

/**
 * An error's message with what caused it: fetch says only "fetch failed", with the refused or reset
 * connection in its cause; the AWS SDK names its error code (`SlowDown`) apart from the message.
 */
export function describeSourceError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as { cause?: unknown }).cause;
  const code = (err as { Code?: unknown; name?: string }).Code;
  const parts = [err.message];
  if (typeof code === 'string' && !err.message.includes(code)) parts[0] = `${code}: ${err.message}`;
  if (cause instanceof Error) {
    const causeCode = (cause as { code?: unknown }).code;
    const named = typeof causeCode === 'string' && !cause.message.includes(causeCode);
    parts.push(named ? `${causeCode} ${cause.message}` : cause.message);
  }
  return parts.join(': ');
}

export function isTransient(err: unknown): boolean {
  if (err instanceof StreamSourceError) return false;
  if (err instanceof TransientSourceError || err instanceof SyntaxError) return true;
  // fetch's network failures are TypeErrors; the AWS SDK marks throttling, 5xx and socket errors.
  if (err instanceof TypeError) return true;
  const e = err as { $metadata?: { httpStatusCode?: number }; $retryable?: unknown; code?: string } | null;
  if (e && typeof e === 'object') {
    if (e.$retryable) return true;
    const status = e.$metadata?.httpStatusCode;
    if (status !== undefined && status >= 500) return true;
    if (typeof e.code === 'string' && /^(ECONN|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|UND_ERR)/.test(e.code))
      return true;
  }
  return false;
}

export async function withRetry<T>(
  source: string,
  height: number | null,
  o: RetryOptions,
  fn: () => Promise<T>,
): Promise<T> {
  // A caller's bad height is the caller's error, the same from every source: not a height the chain
  // lacks (null), nor a source's odd answer to a request for it.
  if (height !== null && (!Number.isSafeInteger(height) || height < 0))
    throw new RangeError(`a block height is a non-negative integer, got ${String(height)}`);
  const max = o.maxAttempts ?? 8;
  // A close aborts the signal: whatever a call under way then fails with, it failed for that.
  const closed = (cause?: unknown) =>
    new StreamSourceError(StreamErrorCode.CLOSED, source, height, 'the source is closed', { cause });
  for (let attempt = 1; ; attempt++) {
    if (o.signal?.aborted) throw closed();
    try {
      return await fn();
    } catch (err) {
      if (o.signal?.aborted) throw closed(err);
      if (!isTransient(err)) throw err;
      if (attempt >= max) {
        throw new StreamSourceError(
          StreamErrorCode.UNAVAILABLE,
          source,
          height,
          `still failing after ${attempt} attempts: ${describeSourceError(err)}`,
          { cause: err },
        );
      }
      const delayMs = retryDelayMs(attempt, o, err);
      o.onRetry?.({ source, height, attempt, delayMs, error: err });
      await pause(delayMs, o.signal);
      if (o.signal?.aborted) throw closed();
    }
  }
}

/**
 * The wait before the attempt after `attempt`: its exponential step's upper half at random, or what
 * the source asked for (`Retry-After`, up to a minute) and up to a quarter more at random, when that
 * is longer: the heights in flight that were all told the same wait do not come back together.
 */
export function retryDelayMs(attempt: number, o: RetryOptions, err: unknown, random = Math.random()): number {
  const step = Math.min(o.maxDelayMs ?? 10_000, (o.baseDelayMs ?? 200) * 2 ** (attempt - 1));
  const asked = Math.min(
    err instanceof TransientSourceError ? (err.retryAfterMs ?? 0) : 0,
    MAX_RETRY_AFTER_MS,
  );
  return Math.max(Math.round(step / 2 + (random * step) / 2), Math.round(asked * (1 + random / 4)));
}

/** Waits `ms`, or less if `signal` aborts meanwhile. */
export function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
