// What V8's young-generation collector moved while the node ran a case: run the case with the node's
// --trace-gc-nvp lines on this process's stdout, then summarize them per isolate (the main thread's,
// the chain thread's, the workers'):
//
//   BENCH_NODE_STDOUT=1 BENCH_NODE_FLAGS=--trace-gc-nvp node bench/src/sendtx_alone.js --quick > gc.log
//   node bench/src/gc_trace.js gc.log 1200 [--window 10]   # 1200: the case's transfers a second
//
// The window is the last `--window` seconds of each isolate's trace before its final 3 s (the case's
// end and the node's stop). Bytes per transfer do not depend on the machine's speed as CPU time does:
// what a change does to them shows in one pair of runs.
import { readFileSync } from 'node:fs';

const LINE = /^\[\d+:(0x[0-9a-f]+)\]\s+(\d+) ms: (.*)$/;

/** One --trace-gc-nvp line as { isolate, ms, fields }, or null for any other line. */
export function parseGcLine(line) {
  const m = LINE.exec(line);
  if (!m) return null;
  const fields = {};
  for (const kv of m[3].split(' ')) {
    const eq = kv.indexOf('=');
    if (eq > 0) fields[kv.slice(0, eq)] = kv.slice(eq + 1);
  }
  if (fields.gc === undefined || fields.pause === undefined) return null;
  return { isolate: m[1], ms: Number(m[2]), fields };
}

/**
 * Per isolate, in the order each first collected: scavenges and full collections in the window, and
 * per transfer the bytes allocated, the bytes that survived a scavenge and those it promoted.
 */
export function summarizeGc(lines, transfersPerSecond, windowSeconds = 10) {
  const byIsolate = new Map();
  for (const line of lines) {
    const e = parseGcLine(line);
    if (!e) continue;
    const list = byIsolate.get(e.isolate);
    if (list) list.push(e);
    else byIsolate.set(e.isolate, [e]);
  }
  const out = [];
  for (const [isolate, events] of byIsolate) {
    const end = events[events.length - 1].ms - 3000;
    const start = end - windowSeconds * 1000;
    const inWindow = events.filter((e) => e.ms >= start && e.ms <= end);
    const scavenges = inWindow.filter((e) => e.fields.gc === 's');
    const sum = (list, name) => list.reduce((a, e) => a + Number(e.fields[name] ?? 0), 0);
    const transfers = transfersPerSecond * windowSeconds;
    const kbPerTransfer = (bytes) => Math.round((bytes / transfers / 1000) * 10) / 10;
    out.push({
      isolate,
      scavenges: scavenges.length,
      fullCollections: inWindow.length - scavenges.length,
      allocatedKb: kbPerTransfer(sum(scavenges, 'allocated')),
      survivedKb: kbPerTransfer(sum(scavenges, 'new_space_survived')),
      promotedKb: kbPerTransfer(sum(scavenges, 'promoted')),
      pauseMsPerSecond: Math.round(sum(inWindow, 'pause') / windowSeconds),
      helpersMsPerSecond: Math.round(sum(scavenges, 'background.scavenge.parallel') / windowSeconds),
    });
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, rate] = process.argv.slice(2);
  const w = process.argv.indexOf('--window');
  if (!file || !(Number(rate) > 0)) {
    console.error('usage: node bench/src/gc_trace.js LOG TRANSFERS_PER_SECOND [--window S]');
    process.exit(2);
  }
  const lines = readFileSync(file, 'utf8').split('\n');
  const rows = summarizeGc(lines, Number(rate), w > 0 ? Number(process.argv[w + 1]) : 10);
  for (const r of rows) {
    if (r.scavenges < 5) continue;
    console.log(
      `${r.isolate}: ${r.scavenges} scavenges, ${r.fullCollections} full; per transfer ${r.allocatedKb} kB allocated, ${r.survivedKb} kB survived a scavenge, ${r.promotedKb} kB promoted; pauses ${r.pauseMsPerSecond} ms/s, scavenge helpers ${r.helpersMsPerSecond} ms/s`,
    );
  }
}
