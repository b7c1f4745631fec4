import { viewMethod } from './view_request.js';

/** `query`'s `view_state` as a method of its own (`view_request.ts` says how it differs). */
export const EXPERIMENTAL_view_state = viewMethod('RpcViewStateRequest', 'view_state');
