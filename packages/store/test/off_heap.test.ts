// Keys and small values handed to LevelDB are laid out in slabs outside the V8 heap: each is a view
// of its own bytes, zeroed, and survives the slab moving on.

import t from 'tap';
import { columnPrefixed, offHeap, offHeapCopy } from '../src/off_heap.js';

t.test('each allocation is its own zeroed range, across slabs', async (t) => {
  const seen: Uint8Array[] = [];
  // Enough to fill several 64 KiB slabs.
  let dirty = 0;
  for (let i = 0; i < 5000; i++) {
    const a = offHeap(1 + (i % 60));
    if (!a.every((b) => b === 0)) dirty++;
    a.fill(i & 0xff);
    seen.push(a);
  }
  t.equal(dirty, 0, 'every allocation starts zeroed');
  const overwritten = seen.filter((a, i) => !a.every((b) => b === (i & 0xff))).length;
  t.equal(overwritten, 0, 'no allocation shares bytes with a later one');
  t.equal(offHeap(8192).length, 8192, 'a large request gets a buffer of its own');
});

t.test('copies hold the same bytes; large arrays pass through', async (t) => {
  const small = Uint8Array.of(1, 2, 3);
  const copy = offHeapCopy(small);
  t.not(copy, small);
  t.same([...copy], [1, 2, 3]);
  small[0] = 9;
  t.equal(copy[0], 1, 'the copy does not share the caller’s bytes');
  const large = new Uint8Array(100);
  t.equal(offHeapCopy(large), large);
  t.same([...columnPrefixed(7, Uint8Array.of(4, 5))], [7, 4, 5]);
});
