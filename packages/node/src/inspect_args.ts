// What `nearlite inspect` takes after its subcommand: hashes, heights and account ids, checked with
// one message for a producer's home and a follower's alike.
import { type AccountId, base58Decode, InvalidAccountIdError, parseAccountId } from '@nearlite/primitives';

export class InspectError extends Error {
  override readonly name = 'InspectError';
}

export function hashArg(v: string | undefined, what: string): Uint8Array {
  if (!v) throw new InspectError(`inspect ${what} needs a hash`);
  const h = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(v) ? base58Decode(v) : new Uint8Array(0);
  if (h.length !== 32) throw new InspectError(`'${v}' is not a 32-byte base58 hash`);
  return h;
}

export function heightArg(v: string | undefined, what = 'a block height'): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(n)) throw new InspectError(`'${v}' is not ${what}`);
  return n;
}

/**
 * A block by height or hash. A hash is 32 to 44 base58 characters and a height at most 16 digits, so
 * a string of digits that long (the hash of 32 zero bytes is 32 ones) is a hash.
 */
export function blockArg(v: string): { height: number } | { hash: Uint8Array } {
  return /^\d{1,31}$/.test(v) ? { height: heightArg(v)! } : { hash: hashArg(v, 'block') };
}

export function accountIdArg(v: string | undefined, what: string): AccountId {
  if (!v) throw new InspectError(`inspect ${what} needs an account id`);
  try {
    return parseAccountId(v);
  } catch (err) {
    if (err instanceof InvalidAccountIdError)
      throw new InspectError(`'${v}' is not an account id: ${err.message}`);
    throw err;
  }
}
