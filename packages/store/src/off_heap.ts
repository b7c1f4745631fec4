// Keys, and values small enough to live in V8's heap, reach classic-level as views of off-heap slabs
// (`offHeap`, which says why): LevelDB copies what it is given, so the views are short-lived.
import { IN_HEAP_MAX, offHeap } from '@nearlite/primitives';

/** `bytes` itself when it is too large to live in the heap, else a copy of it in a slab. */
export function offHeapCopy(bytes: Uint8Array): Uint8Array {
  if (bytes.length > IN_HEAP_MAX) return bytes;
  const out = offHeap(bytes.length);
  out.set(bytes);
  return out;
}

/** The column byte followed by `key`: a row's key in the database. */
export function columnPrefixed(colId: number, key: Uint8Array): Uint8Array {
  const out = offHeap(key.length + 1);
  out[0] = colId;
  out.set(key, 1);
  return out;
}
