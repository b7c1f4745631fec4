// Prometheus metrics of a follower: RPC calls as on any node, and where the follow loop stands.
import {
  type FollowLoop,
  type HeaderFacts,
  HeaderFactsCache,
  type HistoryReader,
  type UpstreamOutcome,
} from '@nearlite/follower';
import { Counter } from 'prom-client';
import { registerNearcoreMetrics, SYNC_STATUS_BLOCK_SYNC, SYNC_STATUS_NO_SYNC } from './nearcore_metrics.js';
import { RpcMetrics } from './rpc_metrics.js';
import { scrapedGauge } from './scraped_gauge.js';

export class FollowerMetrics extends RpcMetrics {
  private readonly upstreamCalls: Counter<'method' | 'outcome'>;
  private readonly upstreamSeconds: Counter<'method'>;

  constructor(history: HistoryReader, loop: FollowLoop | null) {
    super();
    const registers = [this.registry];
    this.upstreamCalls = new Counter({
      name: 'nearlite_upstream_requests_total',
      help: 'Calls to --upstream-rpc by JSON-RPC method and outcome (result, error: its JSON-RPC error, failed: no usable answer)',
      labelNames: ['method', 'outcome'],
      registers,
    });
    this.upstreamSeconds = new Counter({
      name: 'nearlite_upstream_request_seconds_total',
      help: 'Seconds spent waiting on --upstream-rpc, by JSON-RPC method',
      labelNames: ['method'],
      registers,
    });
    // Every followed block is final: the stream publishes final blocks only. A front end (no loop) is
    // behind only until the writer's first block.
    const cursor = () => history.cursor()?.height ?? 0;
    // The cursor block's ordinal and timestamp, parsed once per block as requests parse headers.
    const headers = new HeaderFactsCache(1);
    let lastRead: HeaderFacts | null = null;
    const head = async (): Promise<HeaderFacts | null> => {
      const at = history.cursor();
      if (!at) return null;
      // A failed read (the database away) gives the head last read rather than 0, which would read
      // as a head fifty years old, and rather than failing the whole scrape.
      const block = await history.blockAt(at.height).catch(() => undefined);
      if (block) lastRead = headers.of(block);
      return lastRead;
    };
    registerNearcoreMetrics(this.registry, {
      head: cursor,
      finalHeight: cursor,
      tail: () => history.firstHeight() ?? history.genesisHeight() ?? 0,
      processed: () => loop?.blocksWritten ?? 0,
      ordinal: async () => (await head())?.ordinal ?? 0,
      headTimestampSeconds: async () => {
        const facts = await head();
        return facts ? Number(facts.timestamp / 1_000_000n) / 1000 : 0;
      },
      syncStatus: () =>
        (loop ? loop.syncing : history.cursor() === null) ? SYNC_STATUS_BLOCK_SYNC : SYNC_STATUS_NO_SYNC,
    });
    const gauge = (name: string, help: string, read: () => number) =>
      scrapedGauge(this.registry, name, help, read);
    gauge('nearlite_block_height', 'Height of the last followed block (the cursor)', cursor);
    // A front end has no source: how far its writer is behind is the writer's /metrics to say.
    if (loop) {
      gauge(
        'nearlite_follower_source_height',
        "The source's final height, as last seen",
        () => loop.head ?? 0,
      );
      gauge(
        'nearlite_follower_lag_blocks',
        "Heights between the cursor and the source's final height",
        () => loop.lag ?? 0,
      );
      // The two figures above are as the source last answered: these say how long ago that was, so a
      // stuck fetch or write is seen however the lag stood when it began.
      gauge(
        'nearlite_follower_source_failing_seconds',
        'How long every call to the source has failed or kept waiting; 0 while it answers',
        () => loop.sourceFailingMs / 1000,
      );
      gauge(
        'nearlite_follower_last_write_timestamp_seconds',
        'When the follower last wrote a block (Unix time)',
        () => loop.lastWrite / 1000,
      );
    }
  }

  /** For UpstreamRpc's observe hook. */
  observeUpstream(method: string, outcome: UpstreamOutcome, seconds: number): void {
    this.upstreamCalls.inc({ method, outcome });
    this.upstreamSeconds.inc({ method }, seconds);
  }
}
