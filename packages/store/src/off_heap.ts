// V8 keeps the bytes of a typed array of at most 64 bytes inside the array object itself. The first
// time native code asks for such an array's buffer — classic-level does for every key and value it
// is handed — V8 moves the bytes out to a new backing store: an allocation with its own tracked
// extension for the garbage collector, which cost several times the put or get that asked for it.
// Keys, and values small enough to live in the heap, are therefore laid out in slabs: views of one
// larger buffer whose bytes are already outside the heap. A slab stays alive while a view of it does;
// LevelDB copies what it is given, so the views handed to it are short-lived.

/** V8's `typed_array_max_size_in_heap`: larger arrays get their own backing store when made. */
const IN_HEAP_MAX = 64;
const SLAB_BYTES = 64 * 1024;

let slab = new Uint8Array(SLAB_BYTES);
let used = 0;

/** `n` zeroed bytes outside the heap. */
export function offHeap(n: number): Uint8Array {
  if (n > SLAB_BYTES / 16) return new Uint8Array(n);
  if (used + n > SLAB_BYTES) {
    slab = new Uint8Array(SLAB_BYTES);
    used = 0;
  }
  const out = slab.subarray(used, used + n);
  used += n;
  return out;
}

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
