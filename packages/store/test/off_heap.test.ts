// Keys and small values handed to LevelDB are copied into slabs outside the V8 heap (the allocator
// is tested with primitives): each copy holds its own bytes.

import t from 'tap';
import { columnPrefixed, offHeapCopy } from '../src/off_heap.js';

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
