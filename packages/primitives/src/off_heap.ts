// V8 keeps the bytes of a typed array of at most 64 bytes inside the array object itself. The first
// time anything asks for such an array's buffer (native code such as classic-level, a DataView, a
// Buffer over it), V8 moves the bytes out to a new backing store; a larger array gets one when
// made. Either is an allocation with its own tracked extension for the garbage collector, ~1 µs
// here, several times a LevelDB put or a small encoding. Short-lived bytes (LevelDB keys and small
// values, a borsh writer's buffer) are therefore laid out in slabs: views of one larger buffer
// whose bytes are already outside the heap. A region is never handed out twice, so views alive at
// once never share bytes, and a slab stays alive while a view of it does.

/** V8's `typed_array_max_size_in_heap`: larger arrays get their own backing store when made. */
export const IN_HEAP_MAX = 64;
const SLAB_BYTES = 64 * 1024;

// No region starts a slab, so a view with byteOffset 0 is never a slab's (`isPartialView`).
const FIRST = 8;
let slab = new Uint8Array(SLAB_BYTES);
let used = FIRST;

/** `n` zeroed bytes outside the heap. */
export function offHeap(n: number): Uint8Array {
  if (n > SLAB_BYTES / 16) return new Uint8Array(n);
  if (used + n > SLAB_BYTES) {
    slab = new Uint8Array(SLAB_BYTES);
    used = FIRST;
  }
  const out = slab.subarray(used, used + n);
  used += n;
  return out;
}

/**
 * Whether `bytes` is a view of part of a larger buffer (a slab region, a Node.js pool buffer), which
 * it would keep alive. A view past the start of its buffer is known by its offset; one at the start
 * by its buffer's length when it is over `IN_HEAP_MAX`, whose bytes are outside the heap already,
 * so asking for its buffer moves nothing (for a smaller array it would).
 */
export function isPartialView(bytes: Uint8Array): boolean {
  if (bytes.byteOffset !== 0) return true;
  return bytes.length > IN_HEAP_MAX && bytes.buffer.byteLength !== bytes.length;
}
