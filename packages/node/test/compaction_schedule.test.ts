// GC's compaction runs in the background: started once an epoch's worth of blocks is collected, never
// waited for by the block that started it, one at a time, and waited for by a stop.
import t from 'tap';
import { CompactionSchedule } from '../src/compaction_schedule.js';

function pending() {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

t.test('an epoch of collected blocks starts one compaction, which nobody waits for', async (t) => {
  const runs: ReturnType<typeof pending>[] = [];
  const errors: unknown[] = [];
  const s = new CompactionSchedule(
    10,
    () => {
      const p = pending();
      runs.push(p);
      return p.promise;
    },
    (e) => errors.push(e),
  );
  s.collected(4);
  s.collected(4);
  t.equal(runs.length, 0, 'fewer than an epoch: none');
  s.collected(2);
  t.equal(runs.length, 1, 'an epoch: one starts, and `collected` has returned while it runs');
  s.collected(20);
  t.equal(runs.length, 1, 'never two at once');
  let settled = false;
  const stop = s.settled().then(() => {
    settled = true;
  });
  await new Promise((r) => setTimeout(r, 10));
  t.equal(settled, false, 'a stop waits for the one running');
  runs[0]!.resolve();
  await stop;
  t.equal(settled, true);
  s.collected(10);
  t.equal(runs.length, 2, 'the next epoch starts the next');
  runs[1]!.reject(new Error('IO error'));
  await s.settled();
  t.match(errors, [{ message: 'IO error' }], 'a failure is reported, not thrown at the block');
  s.collected(10);
  t.equal(runs.length, 3, 'and the one after still runs');
  runs[2]!.resolve();
  await s.settled();
});
