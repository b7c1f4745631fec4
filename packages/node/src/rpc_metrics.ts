// The metrics every node kind shares (producer, follower, front end): JSON-RPC calls by method and
// outcome, with their latency, in a registry each node adds its own gauges to.
import { Counter, Histogram, Registry } from 'prom-client';

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
