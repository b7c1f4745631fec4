// Transactions V0 and V1 and SignedTransaction as clients send them; hash = sha256(borsh(Transaction)),
// a V1's version byte included.
import { BorshError, BorshReader, BorshWriter } from '../borsh.js';
import { type CryptoHash, sha256 } from '../hash.js';
import {
  type PublicKey,
  readPublicKey,
  readSignature,
  type Signature,
  writePublicKey,
  writeSignature,
} from '../public_key.js';
import {
  type Action,
  type DelegateAction,
  readAccountId,
  readAction,
  readTransactionNonce,
  writeAction,
  writeDelegateAction,
  writeDelegateActionPayload,
  writeTransactionNonce,
} from './action.js';

/**
 * How a transaction's nonce is checked (V1's `nonce_mode`): above the key's (monotonic, as every V0),
 * or exactly one above it (strict, protocol 85's StrictNonce).
 */
export type NonceMode = 'Monotonic' | 'Strict';

export interface Transaction {
  /** 1 for a TransactionV1 (a version byte, then the fields with a nonce mode); V0 otherwise. */
  readonly version?: 0 | 1;
  readonly signerId: string;
  readonly publicKey: PublicKey;
  readonly nonce: bigint;
  readonly receiverId: string;
  readonly blockHash: CryptoHash;
  readonly actions: readonly Action[];
  /** A V1's nonce mode; Monotonic when absent. */
  readonly nonceMode?: NonceMode;
  /** A V1's `GasKeyNonce`: which of the gas key's nonces `nonce` is checked against and replaces. */
  readonly nonceIndex?: number;
}

const NONCE_MODES: readonly NonceMode[] = ['Monotonic', 'Strict'];

export interface SignedTransaction {
  readonly transaction: Transaction;
  readonly signature: Signature;
  /** sha256 of the borsh Transaction: what the signature signs and what clients call the tx hash. */
  readonly hash: CryptoHash;
  /** The borsh bytes of the whole signed transaction. */
  readonly bytes: Uint8Array;
}

export const TransactionDecodeErrorKind = { Borsh: 'borsh', Version: 'version' } as const;

export class TransactionDecodeError extends Error {
  override readonly name = 'TransactionDecodeError';
  constructor(
    readonly kind: (typeof TransactionDecodeErrorKind)[keyof typeof TransactionDecodeErrorKind],
    message: string,
  ) {
    super(message);
  }
}

export function writeTransaction(w: BorshWriter, t: Transaction): void {
  const v1 = t.version === 1;
  if (v1) w.u8(1);
  w.string(t.signerId);
  writePublicKey(w, t.publicKey);
  if (v1) writeTransactionNonce(w, t.nonce, t.nonceIndex);
  else w.u64(t.nonce);
  w.string(t.receiverId).fixed(t.blockHash);
  w.vec(t.actions, writeAction);
  if (v1) w.u8(NONCE_MODES.indexOf(t.nonceMode ?? 'Monotonic'));
}

export function encodeTransaction(t: Transaction): Uint8Array {
  const w = new BorshWriter(256);
  writeTransaction(w, t);
  return w.toBytes();
}

function readTransaction(r: BorshReader): Transaction {
  return {
    signerId: readAccountId(r),
    publicKey: readPublicKey(r),
    nonce: r.u64(),
    receiverId: readAccountId(r),
    blockHash: r.fixed(32).slice(),
    actions: r.vec((r) => readAction(r)),
  };
}

/** A TransactionV1 after its version byte: its nonce a plain `Nonce` or a gas key's `GasKeyNonce`. */
function readTransactionV1(r: BorshReader): Transaction {
  const signerId = readAccountId(r);
  const publicKey = readPublicKey(r);
  const nonce = readTransactionNonce(r);
  const receiverId = readAccountId(r);
  const blockHash = r.fixed(32).slice();
  const actions = r.vec((r) => readAction(r));
  const mode = r.u8();
  const nonceMode = NONCE_MODES[mode];
  if (nonceMode === undefined) throw new BorshError(`Unexpected variant tag: ${mode}`);
  return { version: 1, signerId, publicKey, ...nonce, receiverId, blockHash, actions, nonceMode };
}

/**
 * Decodes a SignedTransaction. As nearcore reads the version: a V0 starts with the u32 length of an
 * account id, so its second byte is 0; a V1 is a 1 followed by a non-zero byte; anything else is no
 * transaction.
 */
export function decodeSignedTransaction(bytes: Uint8Array): SignedTransaction {
  try {
    const r = new BorshReader(bytes);
    let transaction: Transaction;
    if (bytes.length >= 2 && bytes[1] !== 0) {
      if (bytes[0] !== 1) throw new BorshError(`invalid transaction version tag: ${bytes[0]}`);
      r.u8();
      transaction = readTransactionV1(r);
    } else transaction = readTransaction(r);
    const txEnd = r.offset;
    const signature = readSignature(r);
    r.end();
    return { transaction, signature, hash: sha256(bytes.subarray(0, txEnd)), bytes };
  } catch (err) {
    if (err instanceof BorshError)
      throw new TransactionDecodeError(TransactionDecodeErrorKind.Borsh, err.message);
    if (err instanceof RangeError || err instanceof TypeError)
      throw new TransactionDecodeError(TransactionDecodeErrorKind.Borsh, err.message);
    throw err;
  }
}

export function encodeSignedTransaction(t: Transaction, signature: Signature): Uint8Array {
  const w = new BorshWriter(256);
  writeTransaction(w, t);
  writeSignature(w, signature);
  return w.toBytes();
}

export function transactionHash(t: Transaction): CryptoHash {
  return sha256(encodeTransaction(t));
}

/** NEP-461: delegate actions are signed over sha256(u32 (2^30 + 366) ‖ borsh(DelegateAction)). */
export const DELEGATE_ACTION_PREFIX = 2 ** 30 + 366;

export function delegateActionHash(d: DelegateAction): CryptoHash {
  const w = new BorshWriter(256);
  w.u32(DELEGATE_ACTION_PREFIX);
  writeDelegateAction(w, d);
  return sha256(w.toBytes());
}

/** NEP-611: a DelegateV2's payload (version tag included) is signed under 2^30 + 611. */
export const DELEGATE_ACTION_V2_PREFIX = 2 ** 30 + 611;

export function delegateActionV2Hash(d: DelegateAction): CryptoHash {
  const w = new BorshWriter(256);
  w.u32(DELEGATE_ACTION_V2_PREFIX);
  writeDelegateActionPayload(w, d);
  return sha256(w.toBytes());
}
