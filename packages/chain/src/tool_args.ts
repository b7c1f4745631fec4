// The arguments a tool passes to the store's readers, checked before they reach a key: a text
// prefix where bytes are meant would build a key no row has and answer "nothing" — a wrong answer,
// not an error — so each wrong type is a TypeError that says what was given.
import { type AccountId, type CryptoHash, parseAccountId } from '@nearlite/primitives';

/** A block hash argument: 32 bytes, or a TypeError that says what was given. */
export function hashArg(hash: CryptoHash): CryptoHash {
  if (!(hash instanceof Uint8Array) || hash.length !== 32) {
    const given = hash instanceof Uint8Array ? `${hash.length} bytes` : typeof hash;
    throw new TypeError(`expected a 32-byte hash (a Uint8Array; base58Decode a text one), got ${given}`);
  }
  return hash;
}

/** A block height argument of a tool's read: a RangeError that says what was given otherwise. */
export function heightArg(height: number): number {
  if (typeof height !== 'number')
    throw new TypeError(`a block height is a number, got ${describeArg(height)}`);
  if (!Number.isSafeInteger(height) || height < 0) {
    throw new RangeError(`a block height is a non-negative integer, got ${String(height)}`);
  }
  return height;
}

/** An account id argument: a string, then nearcore's rules (InvalidAccountIdError). */
export function accountIdArg(accountId: string): AccountId {
  if (typeof accountId !== 'string')
    throw new TypeError(`an account id is a string, got ${describeArg(accountId)}`);
  return parseAccountId(accountId);
}

/** A key or key prefix argument: bytes (text goes through TextEncoder first). */
export function bytesArg(bytes: Uint8Array, what: string): Uint8Array {
  if (!(bytes instanceof Uint8Array)) {
    throw new TypeError(
      `${what} is a Uint8Array (new TextEncoder().encode(text) for text), got ${describeArg(bytes)}`,
    );
  }
  return bytes;
}

/** A JavaScript caller's argument of the wrong type, as an error names it: `string "10"`. */
export function describeArg(v: unknown): string {
  return `${typeof v} ${typeof v === 'string' ? JSON.stringify(v) : String(v)}`;
}
