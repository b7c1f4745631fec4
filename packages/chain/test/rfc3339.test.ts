// Times as nearcore writes them (`status`'s block times, a genesis' genesis_time): chrono serializes a
// DateTime<Utc> with SecondsFormat::AutoSi, the fraction as long as its non-zero digits need.
import { formatRfc3339Ns, parseRfc3339Ns } from '@nearlite/chain';
import t from 'tap';

t.test('3, 6 or 9 fraction digits, or none, as chrono AutoSi writes them', async (t) => {
  const at = parseRfc3339Ns('2026-12-06T09:22:43Z');
  t.equal(formatRfc3339Ns(at), '2026-12-06T09:22:43Z');
  t.equal(formatRfc3339Ns(at + 621_000_000n), '2026-12-06T09:22:43.621Z');
  t.equal(formatRfc3339Ns(at + 250_000_000n), '2026-12-06T09:22:43.250Z');
  t.equal(formatRfc3339Ns(at + 621_500_000n), '2026-12-06T09:22:43.621500Z');
  t.equal(formatRfc3339Ns(at + 621_500_001n), '2026-12-06T09:22:43.621500001Z');
  t.equal(formatRfc3339Ns(at + 1_000n), '2026-12-06T09:22:43.000001Z');
  t.equal(parseRfc3339Ns(formatRfc3339Ns(at + 621_500_001n)), at + 621_500_001n, 'read back exactly');
});
