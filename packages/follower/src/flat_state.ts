// StateHistoryFlat: each trie key's newest StateHistory row, keyed by the raw trie key, so a read at or
// near the cursor is one point lookup (`getSync`) instead of an async iterator seek (nearcore's
// FlatState plays the same part for its trie). Row: u64be(height of the newest row) ‖ that row's
// stored value (1 ‖ value, or 0 for a deletion).
//
// Invariant: the flat row of K is the newest history row of K. Both are written in the same batch
// (`blockUpdate`, `writeGenesis`), and nothing deletes history rows, so a reader that sees a flat row
// of height c knows K did not change in (c, cursor]: any read at H ≥ c is that row's value, whichever
// cursor the reader had. A read below c needs the history seek. The column is only trusted once the
// FollowerMisc `flat` row says it was written from the genesis state on (a history created before
// the column existed has rows it lacks).
import { concatBytes } from '@nearlite/primitives';
import { readU64be, u64be } from '@nearlite/store';
import { decodeHistoryValue } from './history_key.js';

/** A flat lookup that cannot answer for this height: the key changed after it. */
export const FLAT_MISS = Symbol('flat miss');

export function encodeFlatRow(height: number, storedValue: Uint8Array): Uint8Array {
  return concatBytes(u64be(height), storedValue);
}

/**
 * The value of a trie key as of `height` from its flat row (`row`, undefined when the key has no
 * history): the value, null when absent then, or FLAT_MISS when only the history can tell.
 */
export function flatValueAt(
  row: Uint8Array | undefined,
  height: number,
): Uint8Array | null | typeof FLAT_MISS {
  if (row === undefined) return null;
  if (flatRowHeight(row) > height) return FLAT_MISS;
  return decodeHistoryValue(row.subarray(8));
}

/** The height of the row a flat row copies: the key's newest. */
export function flatRowHeight(row: Uint8Array): number {
  return Number(readU64be(row, 0));
}
