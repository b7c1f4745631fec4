// Error envelopes nearcore writes the same way for several methods.

/**
 * UNKNOWN_BLOCK from the methods whose errors put the serialized cause itself in the legacy `data`
 * (From<RpcStateChangesError> and From<RpcLightClientNextBlockError> for RpcError,
 * chain/jsonrpc-primitives/src/types/changes.rs and light_client.rs); UnknownBlock's error_message
 * is skip_serializing, so its info is empty.
 */
export const UNKNOWN_BLOCK_AS_DATA = {
  name: 'HANDLER_ERROR',
  cause: { name: 'UNKNOWN_BLOCK', info: {} },
  code: -32000,
  message: 'Server error',
  data: { name: 'UNKNOWN_BLOCK', info: {} },
} as const;

/** TIMEOUT_ERROR, a wait for a transaction that outlasted the polling timeout (HTTP 408). */
export const TX_TIMEOUT = {
  name: 'HANDLER_ERROR',
  cause: { name: 'TIMEOUT_ERROR' },
  code: -32000,
  message: 'Server error',
  data: 'Timeout',
} as const;
