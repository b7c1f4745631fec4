// Exponential backoff for transient source failures. Every failed attempt is reported, so a source
// that keeps failing is visible in the logs rather than silently skipped.
import { StreamErrorCode, StreamSourceError, TransientSourceError } from '../errors.js';

export interface RetryOptions {
  /** Attempts before the failure becomes StreamSourceError(UNAVAILABLE) (default 8). */
  readonly maxAttempts?: number;
  /** First delay; doubled per attempt up to maxDelayMs (defaults 200 ms and 10 s). */
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
  /** Called on every transient failure before the next attempt. */
  readonly onRetry?: (e: RetryEvent) => void;
}

export interface RetryEvent {
  readonly source: string;
  readonly height: number | null;
  readonly attempt: number;
  readonly delayMs: number;
  readonly error: unknown;
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
  const max = o.maxAttempts ?? 8;
  const base = o.baseDelayMs ?? 200;
  const cap = o.maxDelayMs ?? 10_000;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!isTransient(err)) throw err;
      if (attempt >= max) {
        throw new StreamSourceError(
          StreamErrorCode.UNAVAILABLE,
          source,
          height,
          `still failing after ${attempt} attempts: ${err instanceof Error ? err.message : String(err)}`,
          { cause: err },
        );
      }
      const delayMs = Math.min(cap, base * 2 ** (attempt - 1));
      o.onRetry?.({ source, height, attempt, delayMs, error: err });
      await new Promise((r) => setTimeout(r, delayMs));
    }
  }
}
