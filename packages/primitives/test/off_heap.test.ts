// Short-lived bytes (LevelDB keys, borsh writers' buffers) are laid out in slabs outside the V8
// heap: each is a view of its own bytes, zeroed, and survives the slab moving on.

import { BorshWriter, isPartialView, offHeap } from '@nearlite/primitives';
import t from 'tap';

t.test('each allocation is its own zeroed range, across slabs', async (t) => {
  const seen: Uint8Array[] = [];
  // Enough to fill several 64 KiB slabs.
  let dirty = 0;
  let whole = 0;
  for (let i = 0; i < 5000; i++) {
    const a = offHeap(1 + (i % 60));
    if (!a.every((b) => b === 0)) dirty++;
    if (!isPartialView(a)) whole++;
    a.fill(i & 0xff);
    seen.push(a);
  }
  t.equal(dirty, 0, 'every allocation starts zeroed');
  t.equal(whole, 0, 'no allocation starts its slab, so each is known for a view');
  const overwritten = seen.filter((a, i) => !a.every((b) => b === (i & 0xff))).length;
  t.equal(overwritten, 0, 'no allocation shares bytes with a later one');
  t.equal(offHeap(8192).length, 8192, 'a large request gets a buffer of its own');
});

t.test('arrays of their own are not partial views', async (t) => {
  t.notOk(isPartialView(new Uint8Array(16)), 'in the heap');
  t.notOk(isPartialView(new Uint8Array(1000)), 'with a backing store');
  t.notOk(isPartialView(Uint8Array.of(1, 2, 3).slice()), 'a copy');
  t.ok(isPartialView(new Uint8Array(100).subarray(1)), 'a view past the start of its buffer');
  t.ok(isPartialView(new Uint8Array(1000).subarray(0, 500)), 'a large view at the start of its buffer');
  t.notOk(isPartialView(new Uint8Array(1000).subarray(0, 1000)), 'a view of the whole buffer');
});

t.test('a writer gives its bytes in place or as a copy, the same bytes', async (t) => {
  const w = new BorshWriter(4);
  w.u8(7)
    .u32(0x01020304)
    .string('héllo')
    .u64(1n << 40n);
  const copy = w.toBytes();
  const view = w.written();
  t.same([...view], [...copy]);
  t.notOk(isPartialView(copy), 'toBytes: a buffer of its own');
  t.ok(isPartialView(view), 'written: a view of the slab');
});
