import { viewMethod } from './view_request.js';

/** `query`'s `view_access_key_list` as a method of its own (`view_request.ts` says how it differs). */
export const EXPERIMENTAL_view_access_key_list = viewMethod(
  'RpcViewAccessKeyListRequest',
  'view_access_key_list',
);
