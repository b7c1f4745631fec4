// The wire form of a batch of signature checks: fixed-size records in one transferable buffer, so a
// batch crosses to a worker as one move instead of a clone per transaction.

import type { SignatureCheck } from '@nearlite/chain';
import type { KeyType } from '@nearlite/primitives';

/** key type, signature type, public key (up to 64), signature (up to 65), message (32). */
const KEY_AT = 2;
const SIG_AT = KEY_AT + 64;
const MSG_AT = SIG_AT + 65;
export const RECORD_BYTES = MSG_AT + 32;

const KEY_LEN = [32, 64];
const SIG_LEN = [64, 65];

export interface SignatureBatch {
  readonly id: number;
  readonly count: number;
  readonly items: ArrayBuffer;
}

/** False if the check does not fit a record (then it is checked where it is). */
export function packable(c: SignatureCheck): boolean {
  return (
    c.message.length === 32 &&
    c.publicKey.data.length === KEY_LEN[c.publicKey.keyType] &&
    c.signature.data.length === SIG_LEN[c.signature.keyType]
  );
}

export function packCheck(out: Uint8Array, i: number, c: SignatureCheck): void {
  const at = i * RECORD_BYTES;
  out[at] = c.publicKey.keyType;
  out[at + 1] = c.signature.keyType;
  out.set(c.publicKey.data, at + KEY_AT);
  out.set(c.signature.data, at + SIG_AT);
  out.set(c.message, at + MSG_AT);
}

export function unpackCheck(items: Uint8Array, i: number): SignatureCheck {
  const at = i * RECORD_BYTES;
  const keyType = items[at] as KeyType;
  const sigType = items[at + 1] as KeyType;
  return {
    publicKey: { keyType, data: items.subarray(at + KEY_AT, at + KEY_AT + KEY_LEN[keyType]!) },
    signature: { keyType: sigType, data: items.subarray(at + SIG_AT, at + SIG_AT + SIG_LEN[sigType]!) },
    message: items.subarray(at + MSG_AT, at + MSG_AT + 32),
  };
}
