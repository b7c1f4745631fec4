import { viewMethod } from './view_request.js';

/** `query`'s `call_function` as a method of its own (`view_request.ts` says how it differs). */
export const EXPERIMENTAL_call_function = viewMethod('RpcCallFunctionRequest', 'call_function');
