// Transaction V0 and SignedTransaction as clients send them; hash = sha256(borsh(Transaction)).
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
  writeAction,
  writeDelegateAction,
} from './action.js';

export interface Transaction {
  readonly signerId: string;
  readonly publicKey: PublicKey;
  readonly nonce: bigint;
  readonly receiverId: string;
  readonly blockHash: CryptoHash;
  readonly actions: readonly Action[];
}

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
  w.string(t.signerId);
  writePublicKey(w, t.publicKey);
  w.u64(t.nonce).string(t.receiverId).fixed(t.blockHash);
  w.vec(t.actions, writeAction);
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

/**
 * Decodes a SignedTransaction. V1 transactions (a leading 1 followed by a non-zero byte: a V0 starts
 * with the u32 length of an account id, so its second byte is 0) are refused as on stable nearcore.
 */
export function decodeSignedTransaction(bytes: Uint8Array): SignedTransaction {
  if (bytes.length >= 2 && bytes[0] === 1 && bytes[1] !== 0) {
    throw new TransactionDecodeError(
      TransactionDecodeErrorKind.Version,
      'transaction version 1 is not supported',
    );
  }
  try {
    const r = new BorshReader(bytes);
    const transaction = readTransaction(r);
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
