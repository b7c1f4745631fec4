// Signature checks made before admission, off the thread that admits: the chain only needs a
// verdict per transaction, and trusts it (the runtime then never checks that signature again).
import type { PublicKey, Signature } from '@nearlite/primitives';

export interface SignatureCheck {
  /** The transaction hash, which is what a NEAR transaction signature signs. */
  readonly message: Uint8Array;
  readonly publicKey: PublicKey;
  readonly signature: Signature;
}

export interface SignatureChecker {
  /** True if the signature is valid; resolves false (never rejects) for a bad one. */
  check(c: SignatureCheck): Promise<boolean>;
}
