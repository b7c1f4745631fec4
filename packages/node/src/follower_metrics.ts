// Prometheus metrics of a follower: RPC calls as on any node, and where the follow loop stands.
import type { FollowLoop, HistoryReader } from '@nearlite/follower';
import { Gauge } from 'prom-client';
import { RpcMetrics } from './rpc_metrics.js';

export class FollowerMetrics extends RpcMetrics {
  constructor(history: HistoryReader, loop: FollowLoop | null) {
    super();
    const registers = [this.registry];
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
}
