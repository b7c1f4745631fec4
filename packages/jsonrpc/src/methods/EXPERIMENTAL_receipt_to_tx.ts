import { cryptoHash, expectStruct, type Obj, requireField, u64 } from '../params.js';
import type { MethodHandler } from './types.js';

/** An optional u64 field: absent and null are both "not given", as serde's Option reads them. */
function optionalU64(p: Obj, key: string): number | undefined {
  const v = p[key];
  return v === undefined || v === null ? undefined : u64(v);
}

/** The transaction a receipt descends from: `{transaction_hash, sender_account_id}`. */
export const EXPERIMENTAL_receipt_to_tx: MethodHandler = (params, backend) => {
  const p = expectStruct(params, 'RpcReceiptToTxRequest');
  const receiptId = cryptoHash(requireField(p, 'receipt_id'));
  const blockHeight = optionalU64(p, 'block_height');
  const shardId = optionalU64(p, 'shard_id');
  const window = optionalU64(p, 'window');
  return backend.receiptToTx({
    receiptId,
    ...(blockHeight !== undefined ? { blockHeight } : {}),
    ...(shardId !== undefined ? { shardId } : {}),
    ...(window !== undefined ? { window } : {}),
  });
};
