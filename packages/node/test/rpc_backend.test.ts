// The health rule a producing node answers `health` and `status` by, as nearcore's: unhealthy
// (NO_NEW_BLOCKS with the elapsed time) once the head is older than 10 block times, 20 s at least.
import { healthCheck } from '@nearlite/node';
import { HandlerError } from '@nearlite/primitives';
import t from 'tap';

t.test('a producer is unhealthy once its head is older than max(10 block times, 20 s)', async (t) => {
  const now = Date.now();
  t.doesNotThrow(
    healthCheck(() => now - 19_000, 1000, true),
    'within 20 s with 1 s blocks',
  );
  t.throws(
    healthCheck(() => now - 25_000, 1000, true),
    HandlerError,
    'past 20 s with 1 s blocks',
  );
  t.doesNotThrow(
    healthCheck(() => now - 45_000, 5000, true),
    'within 10 block times of 5 s',
  );
  try {
    healthCheck(() => now - 61_000, 5000, true)();
    t.fail('past 10 block times of 5 s');
  } catch (err) {
    t.ok(err instanceof HandlerError);
    const e = err as HandlerError;
    t.equal(e.cause, 'NO_NEW_BLOCKS');
    t.same(e.info, { elapsed: { secs: 61, nanos: 0 } });
  }
});

t.test('a node that cannot produce is never unhealthy for its head age', async (t) => {
  t.doesNotThrow(healthCheck(() => 0, 1000, false));
});
