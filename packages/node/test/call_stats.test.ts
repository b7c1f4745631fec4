// The calls counter and latency histogram as Prometheus reads them: cumulative buckets, +Inf equal
// to the count, one counter line per method and outcome.
import t from 'tap';
import { LATENCY_BUCKETS } from '../dist/call_stats.js';
import { RpcMetrics } from '../dist/rpc_metrics.js';

function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

t.test('calls are counted by method and outcome, with cumulative latency buckets', async (t) => {
  const m = new RpcMetrics();
  m.observe('block', 'ok', 0.0004);
  m.observe('block', 'ok', 0.0005);
  m.observe('block', 'UNKNOWN_BLOCK', 0.003);
  m.observe('block', 'ok', 12);
  m.observe('query.view_account', 'ok', 0.02);
  const { body, contentType } = await m.text();
  t.match(contentType, /^text\/plain/);
  const requests = 'nearlite_rpc_requests_total';
  t.equal(sample(body, `${requests}{method="block",outcome="ok"}`), 3);
  t.equal(sample(body, `${requests}{method="block",outcome="UNKNOWN_BLOCK"}`), 1);
  t.equal(sample(body, `${requests}{method="query.view_account",outcome="ok"}`), 1);
  t.match(body, /^# TYPE nearlite_rpc_requests_total counter$/m);
  t.match(body, /^# TYPE nearlite_rpc_request_duration_seconds histogram$/m);

  const bucket = (le: string) =>
    sample(body, `nearlite_rpc_request_duration_seconds_bucket{method="block",le="${le}"}`);
  // A value equal to a bound falls in that bound's bucket (`le`: less than or equal).
  t.equal(bucket('0.0005'), 2);
  t.equal(bucket('0.001'), 2);
  t.equal(bucket('0.0025'), 2);
  t.equal(bucket('0.005'), 3);
  t.equal(bucket('10'), 3, 'above every bound: only in +Inf');
  t.equal(bucket('+Inf'), 4);
  t.equal(sample(body, 'nearlite_rpc_request_duration_seconds_count{method="block"}'), 4);
  t.equal(
    sample(body, 'nearlite_rpc_request_duration_seconds_sum{method="block"}'),
    0.0004 + 0.0005 + 0.003 + 12,
  );
  const view = body.split('\n').filter((l) => l.includes('_bucket{method="query.view_account"'));
  t.equal(view.length, LATENCY_BUCKETS.length + 1, 'one line per bound and +Inf');
  t.same(
    view.map((l) => Number(l.slice(l.lastIndexOf(' ') + 1))),
    [0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1],
  );
  // The registry's own metrics are still there.
  t.match(body, /^process_resident_memory_bytes \d+$/m);
});
