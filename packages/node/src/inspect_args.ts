// What `nearlite inspect` takes after its subcommand: hashes and heights, checked with one message
// for a producer's home and a follower's alike.
import { base58Decode } from '@nearlite/primitives';

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
