// Why a view call could not run, told from a view worker to the thread that asked for it.

/**
 * The call read a validator's stake (validator_stake, validator_total_stake) where the caller did not
 * know the block's stakes (a follower whose history does not reach back to the chain's first epoch,
 * or of a real network, whose stream does not carry them).
 */
export class ValidatorsUnknown extends Error {
  override readonly name = 'ValidatorsUnknown';
  constructor() {
    super("the view call read validators' stakes, which are not known at its block");
  }
}

/** The validators of a call whose stakes are not known: reading one fails the call with `failed`. */
export function unknownValidators(failed: { err?: unknown }): ReadonlyMap<string, bigint> {
  const refuse = (): never => {
    failed.err ??= new ValidatorsUnknown();
    throw failed.err;
  };
  return new (class extends Map<string, bigint> {
    override get(): never {
      return refuse();
    }
    override values(): never {
      return refuse();
    }
  })();
}
