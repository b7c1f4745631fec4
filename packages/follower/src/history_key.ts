// StateHistory keys: escape(trie key) ‖ 0x00 0x00 ‖ u64be(MAX − height).
//
// The escape doubles every 0x00 byte as 0x00 0x01 and ends the key with 0x00 0x00, so escaped keys
// are prefix-free (no key's entry can be mistaken for another's) and keep the trie keys' byte order.
// The inverted height puts a key's newest entry first: "the value of K as of height H" is the first
// row at or after escape(K) ‖ term ‖ u64be(MAX − H) within escape(K) ‖ term — one seek. A prefix scan
// at H walks escape(prefix) (no terminator) and keeps each key's first row at or below H.
import { concatBytes, setU64, U64_MAX } from '@nearlite/primitives';

const TERMINATOR = Uint8Array.of(0, 0);

export function escapeKey(key: Uint8Array): Uint8Array {
  let zeros = 0;
  for (const b of key) if (b === 0) zeros++;
  const out = new Uint8Array(key.length + zeros);
  let j = 0;
  for (const b of key) {
    out[j++] = b;
    if (b === 0) out[j++] = 1;
  }
  return out;
}

/** The rows of one trie key, all heights. */
export function historyKeyPrefix(trieKey: Uint8Array): Uint8Array {
  return concatBytes(escapeKey(trieKey), TERMINATOR);
}

/**
 * Where the rows of trie keys above `key` start: past its own rows (escape(key) ‖ 0x00 0x00 ‖ …),
 * and at or before those of any longer key it begins, whose next escaped bytes are at least 0x00 0x01.
 */
export function historyRowsAfter(key: Uint8Array): Uint8Array {
  return concatBytes(escapeKey(key), Uint8Array.of(0, 1));
}

/** The rows of every trie key that starts with `prefix`. */
export function historyScanPrefix(prefix: Uint8Array): Uint8Array {
  return escapeKey(prefix);
}

export function invertedHeight(height: number): Uint8Array {
  const out = new Uint8Array(8);
  setU64(out, 0, U64_MAX - BigInt(height), false);
  return out;
}

export function historyKey(trieKey: Uint8Array, height: number): Uint8Array {
  return concatBytes(historyKeyPrefix(trieKey), invertedHeight(height));
}

export class HistoryKeyError extends Error {
  override readonly name = 'HistoryKeyError';
}

/** Splits a stored key back into the trie key and the height. */
export function decodeHistoryKey(key: Uint8Array): { trieKey: Uint8Array; height: number } {
  const body = key.length - 8;
  if (body < 2 || key[body - 1] !== 0 || key[body - 2] !== 0)
    throw new HistoryKeyError('malformed history key');
  const out: number[] = [];
  for (let i = 0; i < body - 2; i++) {
    const b = key[i]!;
    out.push(b);
    if (b === 0) {
      if (key[i + 1] !== 1) throw new HistoryKeyError('malformed history key escape');
      i++;
    }
  }
  const inv = new DataView(key.buffer, key.byteOffset + body, 8).getBigUint64(0);
  return { trieKey: Uint8Array.from(out), height: Number(U64_MAX - inv) };
}

/** Stored values: 1 ‖ value, or a lone 0 for a deletion. */
export function encodeHistoryValue(value: Uint8Array | null): Uint8Array {
  if (value === null) return Uint8Array.of(0);
  const out = new Uint8Array(value.length + 1);
  out[0] = 1;
  out.set(value, 1);
  return out;
}

export function decodeHistoryValue(stored: Uint8Array): Uint8Array | null {
  return stored[0] === 1 ? stored.subarray(1) : null;
}
