// An INTERNAL_ERROR as each method's nearcore error enum makes it (chain/jsonrpc-primitives/src/
// types/*.rs). `cause.info.error_message` is the bare message everywhere, but the legacy `data` is
// the enum's own: most put their InternalError variant's Display text there, whose prefix differs
// by enum; a few put the serialized enum, `{name, info}`. The transaction methods' variant names its
// field `debug_info`, so nearcore's lift to INTERNAL_ERROR finds no `error_message` and says so in
// the cause, and the message survives only in `data`.

/** What `data` holds, and how the cause reads the message. */
type Form = 'limits' | 'internal' | 'serialized' | 'debug_info';

const LIMITS = 'The node reached its limits. Try again later. More details: ';
const INTERNAL = 'Internal error: ';
/** nearcore's text when the serialized error has no `info.error_message` (errors.rs). */
export const NO_ERROR_MESSAGE = 'InternalError happened during serializing InternalError';

/** Methods whose enum is not a "limits" Display one; every other method is. */
const FORMS: Readonly<Record<string, Form>> = {
  gas_price: 'internal',
  light_client_proof: 'internal',
  EXPERIMENTAL_light_client_proof: 'internal',
  EXPERIMENTAL_light_client_block_proof: 'internal',
  next_light_client_block: 'serialized',
  network_info: 'serialized',
  status: 'serialized',
  health: 'serialized',
  changes: 'serialized',
  EXPERIMENTAL_changes: 'serialized',
  EXPERIMENTAL_changes_in_block: 'serialized',
  block_effects: 'serialized',
  EXPERIMENTAL_receipt: 'serialized',
  EXPERIMENTAL_receipt_to_tx: 'serialized',
  sandbox_patch_state: 'serialized',
  sandbox_fast_forward: 'serialized',
  tx: 'debug_info',
  EXPERIMENTAL_tx_status: 'debug_info',
  send_tx: 'debug_info',
  broadcast_tx_commit: 'debug_info',
  broadcast_tx_async: 'debug_info',
};

export interface InternalErrorParts {
  /** `cause.info.error_message`. */
  readonly errorMessage: string;
  /** The legacy `data`. */
  readonly data: unknown;
}

/** The cause's message and the legacy `data` of `method`'s INTERNAL_ERROR carrying `message`. */
export function internalErrorParts(method: string, message: string): InternalErrorParts {
  const form = Object.hasOwn(FORMS, method) ? FORMS[method] : 'limits';
  switch (form) {
    case 'internal':
      return { errorMessage: message, data: `${INTERNAL}${message}` };
    case 'serialized':
      return { errorMessage: message, data: { name: 'INTERNAL_ERROR', info: { error_message: message } } };
    case 'debug_info':
      return { errorMessage: NO_ERROR_MESSAGE, data: `${LIMITS}${message}` };
    default:
      return { errorMessage: message, data: `${LIMITS}${message}` };
  }
}
