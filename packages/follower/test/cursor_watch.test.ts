import { CursorWatch } from '@nearlite/follower';
import t from 'tap';

t.test('a wait ends when the cursor passes what the waiter saw, or at its deadline', async (t) => {
  let height = 10;
  const watch = new CursorWatch(() => height, 5);
  t.equal(await watch.next(9, Date.now() + 1000), true, 'already past: at once');
  t.equal(await watch.next(10, Date.now() - 1), false, 'deadline already gone: at once');
  const moved = watch.next(10, Date.now() + 5000);
  const other = watch.next(11, Date.now() + 5000);
  const timedOut = watch.next(10, Date.now() + 30);
  t.equal(watch.waiting, 3);
  t.equal(await timedOut, false, 'the cursor did not move before this deadline');
  height = 11;
  t.equal(await moved, true, 'the cursor moved past 10');
  t.equal(watch.waiting, 1, 'a waiter that saw 11 still waits');
  height = 12;
  t.equal(await other, true);
  t.equal(watch.waiting, 0);
});
