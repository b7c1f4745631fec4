import {
  BorshError,
  type BorshReader,
  type BorshWriter,
  formatPublicKey,
  type PublicKey,
  readPublicKey,
  writePublicKey,
} from '@nearlite/primitives';

export interface ValidatorStake {
  readonly accountId: string;
  readonly publicKey: PublicKey;
  readonly stake: bigint;
}

/** nearcore's `ValidatorStake` enum, variant V1. */
export function writeValidatorStake(w: BorshWriter, v: ValidatorStake): void {
  w.u8(0).string(v.accountId);
  writePublicKey(w, v.publicKey);
  w.u128(v.stake);
}

export function readValidatorStake(r: BorshReader): ValidatorStake {
  const tag = r.u8();
  if (tag !== 0) throw new BorshError(`unknown ValidatorStake version ${tag}`);
  return { accountId: r.string(), publicKey: readPublicKey(r), stake: r.u128() };
}

export function validatorStakeView(v: ValidatorStake): object {
  return {
    validator_stake_struct_version: 'V1',
    account_id: v.accountId,
    public_key: formatPublicKey(v.publicKey),
    stake: v.stake.toString(),
  };
}
