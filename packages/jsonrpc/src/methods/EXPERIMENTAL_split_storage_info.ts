import { structFields } from '../params.js';
import type { MethodHandler } from './types.js';

/** The request is an empty struct: any object or `[]`, but not a missing `params`. */
export const EXPERIMENTAL_split_storage_info: MethodHandler = (params, backend) => {
  structFields(params, 'RpcSplitStorageInfoRequest', []);
  return backend.splitStorageInfo();
};
