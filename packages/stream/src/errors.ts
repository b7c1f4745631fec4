// Typed failures of a block source. A permanent error names the source and the height; transient
// ones (network, 5xx, malformed JSON) are retried before they become `UNAVAILABLE`.

export const StreamErrorCode = {
  /** The spec given to openSource is not one of http(s)://, s3://, file:. */
  BAD_SPEC: 'BAD_SPEC',
  /** The source has not published this height yet. */
  NOT_AVAILABLE: 'NOT_AVAILABLE',
  /** The height is below the first block the source keeps. */
  BELOW_FIRST: 'BELOW_FIRST',
  /** The source answered something that is not a block stream answer (and retrying did not help). */
  BAD_RESPONSE: 'BAD_RESPONSE',
  /** Transient failures went on past the retry budget. */
  UNAVAILABLE: 'UNAVAILABLE',
  /** The source was closed: a call under way when it closed, or made after. */
  CLOSED: 'CLOSED',
} as const;
export type StreamErrorCode = (typeof StreamErrorCode)[keyof typeof StreamErrorCode];

export class StreamSourceError extends Error {
  override readonly name = 'StreamSourceError';
  constructor(
    readonly code: StreamErrorCode,
    readonly source: string,
    readonly height: number | null,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`${source}${height === null ? '' : ` at height ${height}`}: ${detail}`, options);
  }
}

/** A failure worth retrying: the network, a 5xx, a body that is not JSON. */
export class TransientSourceError extends Error {
  override readonly name = 'TransientSourceError';
  constructor(
    message: string,
    /** How long the source asked to be left alone (an HTTP `Retry-After`), in milliseconds. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}
