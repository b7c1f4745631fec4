// How nearcore keeps a receipt in the state (core/primitives/src/receipt.rs): since protocol 72
// (`use_state_stored_receipt`) a delayed receipt is a StateStoredReceipt, the receipt with the
// congestion gas and size it was counted with when it went in, so taking it out removes exactly
// that from the shard's congestion info. Its bytes start with two tags of 255, then the version;
// a plain Receipt, as stored before, starts with the u32 length of an account id (byte 1 is 0),
// or with 1 for a Receipt V1, so the two are told apart by their first two bytes.
import { BorshError, BorshReader, BorshWriter } from '../borsh.js';
import { encodeReceipt, type Receipt, readReceipt } from './receipt.js';

const STATE_STORED_RECEIPT_TAG = 0xff;
/** StateStoredReceipt::V1, what nearcore writes (V0 has the same layout). */
const STATE_STORED_RECEIPT_V1 = 1;

/** nearcore's StateStoredReceiptMetadata. */
export interface StateStoredReceiptMetadata {
  /** compute_receipt_congestion_gas when the receipt was stored. */
  readonly congestionGas: bigint;
  /** compute_receipt_size (the plain receipt's borsh length) when the receipt was stored. */
  readonly congestionSize: bigint;
}

/** A receipt read from the state: `metadata` when it was stored as a StateStoredReceipt. */
export interface StoredReceipt {
  readonly receipt: Receipt;
  readonly metadata?: StateStoredReceiptMetadata;
}

export function encodeStateStoredReceipt(receipt: Receipt, metadata: StateStoredReceiptMetadata): Uint8Array {
  return wrapStateStoredReceipt(encodeReceipt(receipt), metadata);
}

/**
 * A StateStoredReceipt around a receipt already encoded (`encodeReceipt`): its length is the
 * congestion size the caller counts, so the receipt is encoded once.
 */
export function wrapStateStoredReceipt(
  receipt: Uint8Array,
  metadata: StateStoredReceiptMetadata,
): Uint8Array {
  const w = new BorshWriter(receipt.length + 19);
  w.u8(STATE_STORED_RECEIPT_TAG).u8(STATE_STORED_RECEIPT_TAG).u8(STATE_STORED_RECEIPT_V1);
  w.fixed(receipt);
  w.u64(metadata.congestionGas).u64(metadata.congestionSize);
  return w.toBytes();
}

/** nearcore's ReceiptOrStateStoredReceipt: either form, as the state may hold both. */
export function decodeStoredReceipt(bytes: Uint8Array): StoredReceipt {
  const r = new BorshReader(bytes);
  if (r.peek() !== STATE_STORED_RECEIPT_TAG || r.peek(1) !== STATE_STORED_RECEIPT_TAG) {
    const receipt = readReceipt(r);
    r.end();
    return { receipt };
  }
  r.u8();
  r.u8();
  const version = r.u8();
  if (version > STATE_STORED_RECEIPT_V1) {
    throw new BorshError(`unknown StateStoredReceipt version ${version}`);
  }
  const receipt = readReceipt(r);
  const metadata = { congestionGas: r.u64(), congestionSize: r.u64() };
  r.end();
  return { receipt, metadata };
}
