import { viewMethod } from './view_request.js';

/** `query`'s `view_code` as a method of its own (`view_request.ts` says how it differs). */
export const EXPERIMENTAL_view_code = viewMethod('RpcViewCodeRequest', 'view_code');
