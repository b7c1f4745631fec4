import { cryptoHash, requireField, structFields } from '../params.js';
import type { MethodHandler } from './types.js';

/**
 * `{receipt_id}` or `[receipt_id]`: nearcore parses the plain ReceiptReference struct, which serde
 * also reads from a sequence of its fields (chain/jsonrpc/src/api/receipts.rs).
 */
export const EXPERIMENTAL_receipt: MethodHandler = (params, backend) =>
  backend.receipt(
    cryptoHash(requireField(structFields(params, 'ReceiptReference', ['receipt_id']), 'receipt_id')),
  );
