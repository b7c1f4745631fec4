import { viewMethod } from './view_request.js';

/** `query`'s `view_account` as a method of its own (`view_request.ts` says how it differs). */
export const EXPERIMENTAL_view_account = viewMethod('RpcViewAccountRequest', 'view_account');
