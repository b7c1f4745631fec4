import { cryptoHash, expectStruct, optionalField, requireField, u64 } from '../params.js';
import type { MethodHandler } from './types.js';

/** The transaction a receipt descends from: `{transaction_hash, sender_account_id}`. */
export const EXPERIMENTAL_receipt_to_tx: MethodHandler = (params, backend) => {
  const p = expectStruct(params, 'RpcReceiptToTxRequest');
  const receiptId = cryptoHash(requireField(p, 'receipt_id'));
  const blockHeight = optionalField(p, 'block_height', u64);
  const shardId = optionalField(p, 'shard_id', u64);
  const window = optionalField(p, 'window', u64);
  return backend.receiptToTx({
    receiptId,
    ...(blockHeight !== undefined ? { blockHeight } : {}),
    ...(shardId !== undefined ? { shardId } : {}),
    ...(window !== undefined ? { window } : {}),
  });
};
