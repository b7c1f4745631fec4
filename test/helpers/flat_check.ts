// Checks a follower's StateHistoryFlat against its StateHistory: every key's flat row is its newest
// history row (height and stored value), and no flat row lacks history.
import { decodeHistoryKey } from '@nearlite/follower';
import { bytesEqual, toHex } from '@nearlite/primitives';
import { DBCol, readU64be, type Store } from '@nearlite/store';

export interface FlatMismatch {
  readonly key: string;
  readonly why: string;
}

export async function flatMismatches(store: Store): Promise<{ keys: number; mismatches: FlatMismatch[] }> {
  const newest = new Map<string, { height: number; value: Uint8Array }>();
  for await (const [k, v] of store.iter(DBCol.StateHistory)) {
    const { trieKey, height } = decodeHistoryKey(k);
    const hex = toHex(trieKey);
    // Rows of a key come newest first.
    if (!newest.has(hex)) newest.set(hex, { height, value: v.slice() });
  }
  const mismatches: FlatMismatch[] = [];
  let flatRows = 0;
  for await (const [k, v] of store.iter(DBCol.StateHistoryFlat)) {
    flatRows++;
    const hex = toHex(k);
    const want = newest.get(hex);
    if (!want) mismatches.push({ key: hex, why: 'flat row without history' });
    else if (Number(readU64be(v, 0)) !== want.height)
      mismatches.push({ key: hex, why: `flat height ${readU64be(v, 0)}, newest row ${want.height}` });
    else if (!bytesEqual(v.subarray(8), want.value)) mismatches.push({ key: hex, why: 'value differs' });
  }
  if (flatRows !== newest.size)
    mismatches.push({ key: '*', why: `${flatRows} flat rows for ${newest.size} keys with history` });
  return { keys: newest.size, mismatches };
}
