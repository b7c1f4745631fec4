import type { RpcBackend } from '../backend.js';

/** One RPC method: parses its params (throwing PARSE_ERROR) and calls the backend. */
export type MethodHandler = (params: unknown, backend: RpcBackend) => unknown;
