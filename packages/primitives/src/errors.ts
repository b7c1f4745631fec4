// Domain errors raised below the RPC layer and mapped by it to nearcore's wire shape:
// `cause.name` is nearcore's SCREAMING_SNAKE variant, `info` its fields, `data` the Display text.
export class HandlerError extends Error {
  override readonly name = 'HandlerError';
  constructor(
    override readonly cause: string,
    readonly info: Record<string, unknown> | undefined,
    readonly data: unknown,
  ) {
    super(typeof data === 'string' ? data : cause);
  }

  /** nearcore's INTERNAL_ERROR cause: `info.error_message` and the text are the same message. */
  static internal(message: string): HandlerError {
    return new HandlerError('INTERNAL_ERROR', { error_message: message }, message);
  }
}

/** A fault of the node itself (storage, invariants), answered as INTERNAL_ERROR. */
export class InternalError extends Error {
  override readonly name = 'InternalError';
}
