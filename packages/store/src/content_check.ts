// Rows keyed by the sha256 of their value (`ColumnSpec.contentAddressed`: trie nodes and values) are
// checked as LevelDB hands them over, before anything caches or decodes them. LevelDB verifies no
// checksum when it reads, so a damaged table returns altered bytes as readily as whole ones; for these
// rows the key says what the bytes must be. Rows come from LevelDB only on a cache miss, and a trie
// node is a few hundred bytes: one hash of them costs less than the read.
import { bytesEqual, sha256 } from '@nearlite/primitives';
import { type ColumnSpec, DBCol } from './columns.js';
import { DamagedRowError } from './errors.js';

const CHECKED: ReadonlyMap<number, { readonly name: string; readonly refcounted: boolean }> = new Map(
  Object.entries(DBCol as Record<string, ColumnSpec>)
    .filter(([, c]) => c.contentAddressed)
    .map(([name, c]) => [c.id, { name, refcounted: c.refcounted }]),
);

/** Throws DamagedRowError when `row`, as LevelDB returned it, is not what `key` names. */
export function checkRowContent(colId: number, key: Uint8Array, row: Uint8Array): void {
  const col = CHECKED.get(colId);
  if (!col) return;
  const value = col.refcounted ? row.subarray(0, row.length - 8) : row;
  const actual = sha256(value);
  if (!bytesEqual(actual, key)) throw new DamagedRowError(col.name, key, actual);
}
