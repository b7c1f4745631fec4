// The metrics every node kind shares (producer, follower, front end): JSON-RPC calls by method and
// outcome, with their latency, and the process's memory, in a registry each node adds its own
// gauges to.
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

export class RpcMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'outcome'>;
  private readonly latency: Histogram<'method'>;

  constructor() {
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'nearlite_rpc_requests_total',
      help: 'JSON-RPC calls answered, by method and outcome (ok or the error cause)',
      labelNames: ['method', 'outcome'],
      registers,
    });
    this.latency = new Histogram({
      name: 'nearlite_rpc_request_duration_seconds',
      help: 'Time to answer a JSON-RPC call, by method',
      labelNames: ['method'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5, 10],
      registers,
    });
    // Read when scraped (prom-client's default collectors would also start timers and GC hooks).
    // The names are the ones those collectors and other exporters use.
    const memory = (name: string, help: string, read: (m: NodeJS.MemoryUsage) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read(process.memoryUsage()));
        },
      });
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
  }

  /** For the RPC server's observe hook. */
  observe(method: string, outcome: string, seconds: number): void {
    this.requests.inc({ method, outcome });
    this.latency.observe({ method }, seconds);
  }

  async text(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
