// Ids derived as nearcore derives them (protocol ≥ 77): sha256(base ‖ u64 height ‖ u64 salt).
import { BorshWriter } from '../borsh.js';
import { type CryptoHash, sha256 } from '../hash.js';

export function createHashIndex(base: CryptoHash, blockHeight: number | bigint, salt: bigint): CryptoHash {
  return sha256(new BorshWriter(48).fixed(base).u64(blockHeight).u64(salt).toBytes());
}

/** The receipt a transaction converts into. */
export function receiptIdFromTransaction(txHash: CryptoHash, blockHeight: number | bigint): CryptoHash {
  return createHashIndex(txHash, blockHeight, 0n);
}

/** The k-th receipt created while executing receipt `receiptId` (refunds included, in creation order). */
export function receiptIdFromReceipt(
  receiptId: CryptoHash,
  blockHeight: number | bigint,
  k: number,
): CryptoHash {
  return createHashIndex(receiptId, blockHeight, BigInt(k));
}

/** Seeds VM randomness and data ids for action `index` of a receipt. */
export function actionHash(receiptId: CryptoHash, blockHeight: number | bigint, index: number): CryptoHash {
  return createHashIndex(receiptId, blockHeight, (1n << 64n) - 1n - BigInt(index));
}

export function dataId(actionHashValue: CryptoHash, blockHeight: number | bigint, k: number): CryptoHash {
  return createHashIndex(actionHashValue, blockHeight, BigInt(k));
}
