import { cryptoHash, expectObject, requireField } from '../params.js';
import type { MethodHandler } from './types.js';

export const EXPERIMENTAL_receipt: MethodHandler = (params, backend) =>
  backend.receipt(cryptoHash(requireField(expectObject(params), 'receipt_id')));
