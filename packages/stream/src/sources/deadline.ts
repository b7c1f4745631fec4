// Every request to a source has a deadline: a server that accepts a connection and then answers a
// byte a second (or never) would otherwise hold the follow loop, silently, for as long as the socket
// lives. A request past its deadline is a transient failure, retried and reported like a 5xx; a
// source's close ends the requests under way.
import { setMaxListeners } from 'node:events';
import { TransientSourceError } from '../errors.js';

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export interface DeadlineOptions {
  /** How long one request (its answer's headers and body) may take (default 30 s). */
  readonly requestTimeoutMs?: number;
}

export class Deadlines {
  private readonly closing = new AbortController();
  private readonly ms: number;

  constructor(o: DeadlineOptions) {
    this.ms = o.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    // Each request in flight listens for the close (a follow loop has up to 128): not a leak.
    setMaxListeners(0, this.closing.signal);
  }

  /**
   * Runs one request with a signal that aborts it at its deadline or when the source closes. Each
   * request has a controller of its own, its timer cleared and its listener on the source's close
   * removed once it settles (`AbortSignal.any` on Node 20 keeps every signal it joins to a long-lived
   * one for as long as that one lives).
   */
  async run<T>(what: string, request: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const closing = this.closing.signal;
    if (closing.aborted) throw closing.reason;
    const controller = new AbortController();
    let late: TransientSourceError | null = null;
    const timer = setTimeout(() => {
      late = new TransientSourceError(`${what} took longer than ${this.ms} ms`);
      controller.abort(late);
    }, this.ms);
    const onClose = () => controller.abort(closing.reason);
    closing.addEventListener('abort', onClose, { once: true });
    try {
      return await request(controller.signal);
    } catch (err) {
      if (late && !closing.aborted) throw late;
      throw err;
    } finally {
      clearTimeout(timer);
      closing.removeEventListener('abort', onClose);
    }
  }

  /** Aborts when the source closes: its waits between attempts end with it. */
  get closed(): AbortSignal {
    return this.closing.signal;
  }

  close(): void {
    this.closing.abort(new Error('the source is closed'));
  }
}
