// The health rule a node answers `health` and `status` by, as nearcore's: unhealthy
// (NO_NEW_BLOCKS with the elapsed time) once the head is older than 10 × max_block_production_delay
// (nearcore's 2 s by default, and never below the block time here).
import { healthCheck } from '@nearlite/node';
import { HandlerError } from '@nearlite/primitives';
import t from 'tap';

t.test('a producer is unhealthy once its head is older than 10 × max_block_production_delay', async (t) => {
  const now = Date.now();
  t.doesNotThrow(
    healthCheck(() => now - 19_000, 2000),
    'within 20 s with the default 2 s',
  );
  t.throws(
    healthCheck(() => now - 25_000, 2000),
    HandlerError,
    'past 20 s with the default 2 s',
  );
  t.doesNotThrow(
    healthCheck(() => now - 45_000, 5000),
    'within 10 × a 5 s delay',
  );
  try {
    healthCheck(() => now - 61_000, 5000)();
    t.fail('past 10 × a 5 s delay');
  } catch (err) {
    t.ok(err instanceof HandlerError);
    const e = err as HandlerError;
    t.equal(e.cause, 'NO_NEW_BLOCKS');
    const { secs, nanos } = (e.info as { elapsed: { secs: number; nanos: number } }).elapsed;
    t.equal(secs, 61);
    t.ok(
      Number.isInteger(nanos) && nanos >= 0 && nanos < 1e9 && nanos % 1_000_000 === 0,
      'nanos within the second',
    );
  }
});

t.test('the rule is the same whatever the head age is measured from', async (t) => {
  // A node that makes no blocks gives its head block's timestamp: one of 1970 is stale.
  t.throws(
    healthCheck(() => 0, 1000),
    HandlerError,
  );
});
