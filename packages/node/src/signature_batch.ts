// The wire form of a batch of signature checks: records laid end to end in one transferable buffer,
// so a batch crosses to a worker as one move instead of a clone per transaction.

import type { SignatureCheck } from '@nearlite/chain';
import { type KeyType, PUBLIC_KEY_LENGTH, SIGNATURE_LENGTH } from '@nearlite/primitives';

// A record: key type, signature type, the public key, the signature, the 32-byte message. The
// lengths follow from the types.
const MESSAGE_LEN = 32;

export interface SignatureBatch {
  readonly id: number;
  readonly count: number;
  readonly items: ArrayBuffer;
}

/** False if the check is not one a record holds (then it is checked where it is). */
export function packable(c: SignatureCheck): boolean {
  return (
    c.message.length === MESSAGE_LEN &&
    c.publicKey.data.length === PUBLIC_KEY_LENGTH[c.publicKey.keyType] &&
    c.signature.data.length === SIGNATURE_LENGTH[c.signature.keyType]
  );
}

/** Bytes a packable check takes in a batch. */
export function recordBytes(c: SignatureCheck): number {
  return 2 + c.publicKey.data.length + c.signature.data.length + MESSAGE_LEN;
}

/** Writes the check at `at`; returns where the next record begins. */
export function packCheck(out: Uint8Array, at: number, c: SignatureCheck): number {
  out[at] = c.publicKey.keyType;
  out[at + 1] = c.signature.keyType;
  let p = at + 2;
  out.set(c.publicKey.data, p);
  p += c.publicKey.data.length;
  out.set(c.signature.data, p);
  p += c.signature.data.length;
  out.set(c.message, p);
  return p + MESSAGE_LEN;
}

/** Every check of a batch, in order. */
export function* unpackChecks(items: Uint8Array, count: number): Generator<SignatureCheck> {
  let at = 0;
  for (let i = 0; i < count; i++) {
    const keyType = items[at] as KeyType;
    const sigType = items[at + 1] as KeyType;
    const keyAt = at + 2;
    const sigAt = keyAt + PUBLIC_KEY_LENGTH[keyType];
    const msgAt = sigAt + SIGNATURE_LENGTH[sigType]!;
    at = msgAt + MESSAGE_LEN;
    yield {
      publicKey: { keyType, data: items.subarray(keyAt, sigAt) },
      signature: { keyType: sigType, data: items.subarray(sigAt, msgAt) },
      message: items.subarray(msgAt, at),
    };
  }
}
