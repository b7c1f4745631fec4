// The bench's GC summary (bench/src/gc_trace.js) reads V8's --trace-gc-nvp lines: per isolate, the
// young generation's bytes per transfer over the window before the trace's last 3 s.
import t from 'tap';
// @ts-expect-error: the bench is plain JavaScript without declarations
import { parseGcLine, summarizeGc } from '../bench/src/gc_trace.js';

const scavenge = (isolate: string, ms: number, allocated: number, survived: number, promoted: number) =>
  `[26966:${isolate}]   ${ms} ms: pause=2.5 mutator=48.5 gc=s reduce_memory=0 scavenge=2.4 ` +
  `background.scavenge.parallel=4.0 allocated=${allocated} promoted=${promoted} new_space_survived=${survived} promotion_ratio=22.5%`;
const full = (isolate: string, ms: number) =>
  `[26966:${isolate}]   ${ms} ms: pause=12.0 mutator=50.9 gc=mc reduce_memory=0 time_to_safepoint=0.00`;

t.test('a trace line is read as its isolate, its time and its fields; other lines are not', async (t) => {
  const e = parseGcLine(scavenge('0x19d35390', 54, 100, 20, 10));
  t.equal(e.isolate, '0x19d35390');
  t.equal(e.ms, 54);
  t.equal(e.fields.gc, 's');
  t.equal(e.fields.promoted, '10');
  t.equal(parseGcLine('send_tx: 1200 tx/s'), null);
  t.equal(
    parseGcLine('[26966:0x1] 5 ms: Scavenge 94.1 (177.4) -> 86.4 (177.4) MB'),
    null,
    'not the short form',
  );
});

t.test('each isolate is summed over its own window, per transfer', async (t) => {
  const lines = [
    scavenge('0xa', 500, 9e9, 9e9, 9e9), // before the window
    scavenge('0xa', 2000, 1_000_000, 300_000, 200_000),
    full('0xa', 2500),
    scavenge('0xa', 3000, 1_000_000, 300_000, 200_000),
    scavenge('0xa', 6500, 9e9, 9e9, 9e9), // the last 3 s: the case's end and the node's stop
    'send_tx: unrelated output',
    scavenge('0x7f01', 4000, 500_000, 100_000, 50_000),
    scavenge('0x7f01', 7100, 0, 0, 0),
  ];
  const [a, b] = summarizeGc(lines, 100, 2);
  t.same(a, {
    isolate: '0xa',
    scavenges: 2,
    fullCollections: 1,
    allocatedKb: 10,
    survivedKb: 3,
    promotedKb: 2,
    pauseMsPerSecond: 9,
    helpersMsPerSecond: 4,
  });
  t.equal(b.isolate, '0x7f01');
  t.equal(b.scavenges, 1);
  t.equal(b.allocatedKb, 2.5, '500 kB over 200 transfers');
});
