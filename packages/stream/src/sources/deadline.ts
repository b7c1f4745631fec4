// Every request to a source has a deadline: a server that accepts a connection and then answers a
// byte a second (or never) would otherwise hold the follow loop, silently, for as long as the socket
// lives. A request past its deadline is a transient failure, retried and reported like a 5xx; a
// source's close ends the requests under way.
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
  }

  /** Runs one request with a signal that aborts it at its deadline or when the source closes. */
  async run<T>(what: string, request: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const deadline = AbortSignal.timeout(this.ms);
    try {
      return await request(AbortSignal.any([deadline, this.closing.signal]));
    } catch (err) {
      if (deadline.aborted && !this.closing.signal.aborted)
        throw new TransientSourceError(`${what} took longer than ${this.ms} ms`);
      throw err;
    }
  }

  close(): void {
    this.closing.abort(new Error('the source is closed'));
  }
}
