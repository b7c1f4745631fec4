// Prometheus metrics of a follower: RPC calls as on any node, and where the follow loop stands.
import type { FollowLoop, HistoryReader } from '@nearlite/follower';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

export class FollowerMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'outcome'>;
  private readonly latency: Histogram<'method'>;

  constructor(history: HistoryReader, loop: FollowLoop | null) {
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
    new Gauge({
      name: 'nearlite_block_height',
      help: 'Height of the last followed block (the cursor)',
      registers,
      collect() {
        this.set(history.cursor()?.height ?? 0);
      },
    });
    new Gauge({
      name: 'nearlite_follower_source_height',
      help: "The source's final height, as last seen",
      registers,
      collect() {
        this.set(loop?.head ?? 0);
      },
    });
    new Gauge({
      name: 'nearlite_follower_lag_blocks',
      help: "Heights between the cursor and the source's final height",
      registers,
      collect() {
        this.set(loop?.lag ?? 0);
      },
    });
  }

  observe(method: string, outcome: string, seconds: number): void {
    this.requests.inc({ method, outcome });
    this.latency.observe({ method }, seconds);
  }

  async text(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
