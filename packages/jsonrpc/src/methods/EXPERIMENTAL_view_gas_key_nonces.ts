import { viewMethod } from './view_request.js';

/** `query`'s `view_gas_key_nonces` as a method of its own (`view_request.ts` says how it differs). */
export const EXPERIMENTAL_view_gas_key_nonces = viewMethod(
  'RpcViewGasKeyNoncesRequest',
  'view_gas_key_nonces',
);
