// How many threads a follower prepares blocks on when not told.
import { defaultPrepareThreads } from '@nearlite/node';
import t from 'tap';

t.test('one preparing thread per core but one, from 2 to 8', async (t) => {
  t.equal(defaultPrepareThreads(1), 2);
  t.equal(defaultPrepareThreads(2), 2);
  t.equal(defaultPrepareThreads(4), 3);
  t.equal(defaultPrepareThreads(9), 8);
  t.equal(defaultPrepareThreads(64), 8);
  t.ok(defaultPrepareThreads() >= 2, 'on this machine');
});
