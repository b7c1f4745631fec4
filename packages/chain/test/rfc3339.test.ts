// Times as nearcore writes them (`status`'s block times, a genesis' genesis_time): near_time's
// Iso8601::DEFAULT, UTC with nine fraction digits always, as nearcore's own genesis files have them.
import { formatRfc3339Ns, parseRfc3339Ns } from '@nearlite/chain';
import t from 'tap';

t.test('nine fraction digits, whatever they hold', async (t) => {
  const at = parseRfc3339Ns('2026-12-06T09:22:43Z');
  t.equal(formatRfc3339Ns(at), '2026-12-06T09:22:43.000000000Z');
  t.equal(formatRfc3339Ns(at + 621_000_000n), '2026-12-06T09:22:43.621000000Z');
  t.equal(formatRfc3339Ns(at + 621_500_001n), '2026-12-06T09:22:43.621500001Z');
  t.equal(formatRfc3339Ns(at + 1_000n), '2026-12-06T09:22:43.000001000Z');
  t.equal(parseRfc3339Ns(formatRfc3339Ns(at + 621_500_001n)), at + 621_500_001n, 'read back exactly');
  // nearcore's mainnet genesis.json and its JSON-RPC tests' genesis config, read and written back.
  for (const text of ['2020-07-21T16:55:51.591948000Z', '1970-01-01T00:00:00.000000000Z'])
    t.equal(formatRfc3339Ns(parseRfc3339Ns(text)), text);
  // Another offset is the same instant, written in UTC.
  t.equal(formatRfc3339Ns(parseRfc3339Ns('2020-07-21T16:55:51+02:00')), '2020-07-21T14:55:51.000000000Z');
});

t.test('a genesis_time no block timestamp holds is refused, named', async (t) => {
  for (const text of ['1960-06-01T00:00:00.5Z', '1969-12-31T23:59:59.999999999Z', '2600-01-01T00:00:00Z'])
    t.throws(() => parseRfc3339Ns(text), {
      name: 'GenesisError',
      message: `genesis: genesis_time '${text}' is outside what a block timestamp holds (nanoseconds from 1970 in a u64)`,
    });
  t.equal(parseRfc3339Ns('2554-07-21T23:34:33.709551615Z'), 2n ** 64n - 1n, 'the last one a u64 holds');
});
