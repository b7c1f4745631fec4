import { cryptoHash, expectStruct, optionalField, requireField, u64 } from '../params.js';
import type { MethodHandler } from './types.js';

/** The transaction a receipt descends from: `{transaction_hash, sender_account_id}`. */
export const EXPERIMENTAL_receipt_to_tx: MethodHandler = (params, backend) => {
  const p = expectStruct(params, 'RpcReceiptToTxRequest');
  const receiptId = cryptoHash(requireField(p, 'receipt_id'));
  // Above 2^53 a height is above every head and a shard id names no shard, as their doubles do.
  const blockHeight = optionalField(p, 'block_height', (v) => Number(u64(v)));
  const shardId = optionalField(p, 'shard_id', (v) => Number(u64(v)));
  const window = optionalField(p, 'window', u64);
  return backend.receiptToTx({
    receiptId,
    ...(blockHeight !== undefined ? { blockHeight } : {}),
    ...(shardId !== undefined ? { shardId } : {}),
    ...(window !== undefined ? { window } : {}),
  });
};
