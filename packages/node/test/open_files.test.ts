// The RPC's connection cap from the process's open-file limit: what LevelDB may keep open stays free.
import t from 'tap';
import {
  connectionCap,
  DB_OPEN_FILES,
  MIN_CONNECTIONS,
  OTHER_FILES,
  openFilesLimit,
  RESERVED_FILES,
} from '../src/open_files.js';

const limits = (soft: string, hard: string) =>
  [
    'Limit                     Soft Limit           Hard Limit           Units     ',
    'Max cpu time              unlimited            unlimited            seconds   ',
    `Max open files            ${soft.padEnd(20)} ${hard.padEnd(20)} files     `,
    'Max locked memory         8388608              8388608              bytes     ',
  ].join('\n');

t.test("the soft limit is read from the system's table", async (t) => {
  t.equal(openFilesLimit(limits('20000', '20000')), 20000);
  t.equal(openFilesLimit(limits('1024', '1048576')), 1024, 'the soft one, which the process is held to');
  t.equal(openFilesLimit(limits('unlimited', 'unlimited')), null);
  t.equal(openFilesLimit(null), null, 'no table (not Linux)');
  t.type(openFilesLimit(), 'number', "this machine's");
});

t.test('connections get what the database and the process leave', async (t) => {
  t.equal(DB_OPEN_FILES, 1000, "LevelDB's max_open_files as classic-level sets it");
  t.same(connectionCap(true, 20_000), { maxConnections: 20_000 - RESERVED_FILES });
  t.same(
    connectionCap(false, 20_000),
    { maxConnections: 20_000 - OTHER_FILES },
    'no LevelDB, nothing set aside for it',
  );
  t.same(connectionCap(true, null), { maxConnections: undefined }, 'no cap where the limit is unknown');
  const low = connectionCap(true, 256);
  t.equal(low.maxConnections, MIN_CONNECTIONS);
  t.match(
    low.warning,
    /open-file limit is 256: the database may keep 1000 .* capped at 64 .* raise it \(ulimit -n\) to 1164 or more/,
  );
  t.same(
    connectionCap(false, 1024),
    { maxConnections: 924 },
    'a PostgreSQL front end under 1,024: 924, no warning',
  );
  t.match(
    connectionCap(false, 128).warning,
    /^the open-file limit is 128: RPC connections are capped at 64; raise it \(ulimit -n\) to 164 or more$/,
  );
  t.equal(connectionCap(true, RESERVED_FILES + MIN_CONNECTIONS).warning, undefined, 'enough: nothing to say');
});
