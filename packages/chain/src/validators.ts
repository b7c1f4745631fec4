import { BorshWriter, type CryptoHash, type PublicKey, sha256 } from '@nearlite/primitives';
import { writeValidatorStake } from './validator_stake.js';

/** nearcore's next_bp_hash: sha256 of the borsh list of the epoch's block producers. */
export function computeBpHash(
  validators: readonly { accountId: string; publicKey: PublicKey; amount: bigint }[],
): CryptoHash {
  const w = new BorshWriter(128);
  w.vec(validators, (w, v) =>
    writeValidatorStake(w, { accountId: v.accountId, publicKey: v.publicKey, stake: v.amount }),
  );
  return sha256(w.toBytes());
}
