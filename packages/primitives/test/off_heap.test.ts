// Short-lived bytes (LevelDB keys, borsh writers' buffers) are laid out in slabs outside the V8
// heap: each is a view of its own bytes, zeroed, and survives the slab moving on.

import { offHeap } from '@nearlite/primitives';
import t from 'tap';

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
