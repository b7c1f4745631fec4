// A database that is away is logged once per interval, without a stack; other failures as before.
import { nameDatabaseFailure } from '@nearlite/history-pg';
import { internalErrorLog } from '@nearlite/node';
import t from 'tap';

t.test('database failures are logged once per ten seconds, with a count of the rest', async (t) => {
  const lines: string[] = [];
  let now = 1_000_000;
  const log = internalErrorLog(
    { info: () => {}, warn: () => {}, error: (m: string) => lines.push(m) },
    () => now,
  );
  const down = () => {
    const err = new Error('connect ECONNREFUSED 127.0.0.1:5432');
    nameDatabaseFailure(err, 'the shard database postgres://x@h/s1');
    return err;
  };
  for (let i = 0; i < 50; i++) log(down(), 'block');
  t.same(lines, [
    'request failed in block: the shard database postgres://x@h/s1: connect ECONNREFUSED 127.0.0.1:5432',
  ]);
  now += 10_001;
  log(down(), 'chunk');
  t.equal(lines.length, 2);
  t.match(lines[1], /\(and 49 more like it since the last such line\)$/);
  t.notMatch(lines.join('\n'), /\n\s+at /, 'no stack');

  log(new TypeError('cannot read x of undefined'), 'tx');
  log(new TypeError('cannot read x of undefined'), 'tx');
  t.equal(lines.length, 4, 'any other failure each time');
  t.match(lines[3], /^internal error in tx: TypeError: cannot read x of undefined\n\s+at /, 'with its stack');

  // Only the history names a database failure: a text that reads like one is any other failure.
  log(new Error('the shard database postgres://x@h/s1: connect ECONNREFUSED 127.0.0.1:5432'), 'tx');
  t.equal(lines.length, 5);
  t.match(
    lines[4],
    /^internal error in tx: Error: the shard database .*\n\s+at /,
    'a look-alike keeps its stack',
  );
});
