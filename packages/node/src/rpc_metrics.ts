// The metrics every node kind shares (producer, follower, front end): JSON-RPC calls by method and
// outcome, with their latency, and the process's memory, in a registry each node adds its own
// gauges to.
import { performance } from 'node:perf_hooks';
import { Registry } from 'prom-client';
import { CallStats } from './call_stats.js';
import { oncePerScrape, scrapedGauge, scrapedLabeledCounter } from './scraped_gauge.js';

export class RpcMetrics {
  readonly registry = new Registry();
  /** Calls and their latency: counted on every answer, outside the registry's metric objects. */
  private readonly calls = new CallStats();
  /** Each thread's event loop time spent running callbacks so far, by the thread's label. */
  protected readonly loopActive = new Map<string, () => number>([
    ['rpc', () => performance.eventLoopUtilization().active / 1000],
  ]);

  constructor() {
    // Read when scraped (prom-client's default collectors would also start timers and GC hooks).
    // The names are the ones those collectors and other exporters use.
    const usage = oncePerScrape(() => process.memoryUsage());
    const memory = (name: string, help: string, read: (m: NodeJS.MemoryUsage) => number) =>
      scrapedGauge(this.registry, name, help, () => read(usage()));
    memory('process_resident_memory_bytes', 'Resident memory of the process, in bytes', (m) => m.rss);
    memory('nodejs_heap_size_total_bytes', 'JavaScript heap reserved, in bytes', (m) => m.heapTotal);
    memory('nodejs_heap_size_used_bytes', 'JavaScript heap in use, in bytes', (m) => m.heapUsed);
    memory(
      'nodejs_external_memory_bytes',
      'Memory outside the JavaScript heap held by its objects (buffers included), in bytes',
      (m) => m.external,
    );
    memory(
      'nodejs_array_buffers_bytes',
      'Memory of ArrayBuffers and Buffers, in bytes',
      (m) => m.arrayBuffers,
    );
    // Node keeps these figures anyway, so reading them costs no timer: rate() over a window is the
    // share of it a thread was busy, and a thread near 1 makes every request that reaches it wait.
    const loopActive = this.loopActive;
    scrapedLabeledCounter(
      this.registry,
      'nearlite_event_loop_active_seconds_total',
      "Time a thread's event loop spent running callbacks rather than waiting for work, in seconds",
      'thread',
      () => Array.from(loopActive, ([thread, read]) => [thread, read()] as const),
    );
  }

  /** For the RPC server's observe hook. */
  observe(method: string, outcome: string, seconds: number): void {
    this.calls.observe(method, outcome, seconds);
  }

  async text(): Promise<{ contentType: string; body: string }> {
    const body = `${await this.registry.metrics()}\n${this.calls.exposition()}`;
    return { contentType: this.registry.contentType, body };
  }
}
