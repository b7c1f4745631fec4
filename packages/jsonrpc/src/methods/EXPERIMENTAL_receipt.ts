import { cryptoHash, expectStruct, requireField } from '../params.js';
import type { MethodHandler } from './types.js';

export const EXPERIMENTAL_receipt: MethodHandler = (params, backend) =>
  backend.receipt(cryptoHash(requireField(expectStruct(params, 'RpcReceiptRequest'), 'receipt_id')));
