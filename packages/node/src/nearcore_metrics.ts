// nearcore's own names for where a node's chain stands (chain/chain and chain/client metrics), beside
// nearlite's: a dashboard or an alert written for neard — `near_block_height_head` that stops moving,
// head minus `near_largest_final_height`, `near_sync_status` above zero — reads a nearlite node as it
// is. Only what the node knows is given: a follower of a real network, whose stream carries no epoch
// heights and whose shard layout is not its genesis', leaves those out rather than guess them.
import { Counter, type Registry } from 'prom-client';
import { scrapedGauge } from './scraped_gauge.js';

/** nearcore's SyncStatus::repr: NoSync, the state of a node that is not behind. */
export const SYNC_STATUS_NO_SYNC = 0;
/** nearcore's SyncStatus::repr: BlockSync, fetching and applying the blocks it is behind on. */
export const SYNC_STATUS_BLOCK_SYNC = 7;

export interface NearcoreChainFacts {
  /** Height of the head: `near_block_height_head`, and `near_header_head_height` (no header sync here). */
  head(): number;
  /** `near_largest_final_height`. */
  finalHeight(): number;
  /** Lowest kept height: `near_tail_height`. */
  tail(): number;
  /** Blocks this process has produced or followed since it started: `near_block_processed_total`. */
  processed(): number;
  /** `near_sync_status`, one of nearcore's SyncStatus::repr values. */
  syncStatus(): number;
  /** `near_block_ordinal_head`, where the node knows it: the head block's ordinal. */
  readonly ordinal?: () => number | Promise<number>;
  /**
   * The head block's timestamp in seconds (`nearlite_head_block_timestamp_seconds`; nearcore has no
   * such metric, but its health check is this block's age): `time() -` it is how stale the node is.
   */
  readonly headTimestampSeconds: () => number | Promise<number>;
  /** `near_epoch_height`, where the node knows it. */
  readonly epochHeight?: () => number;
  /** `near_shard_layout_version` and `near_shard_layout_num_shards`, where the node knows them. */
  readonly shardLayout?: { readonly version: number; readonly numShards: number };
}

/** The version a shard layout's JSON form names (`{"V2": {"version": 3, …}}`); 0 where it names none. */
export function shardLayoutVersion(view: unknown): number {
  if (typeof view !== 'object' || view === null) return 0;
  const inner = Object.values(view)[0] as { version?: unknown } | undefined;
  return typeof inner?.version === 'number' ? inner.version : 0;
}

export function registerNearcoreMetrics(registry: Registry, facts: NearcoreChainFacts): void {
  const registers = [registry];
  const gauge = (name: string, help: string, read: () => number | Promise<number>) =>
    scrapedGauge(registry, name, help, read);
  gauge('near_block_height_head', 'Height of the current head of the blockchain', facts.head);
  gauge('near_header_head_height', 'Height of the header head', facts.head);
  gauge(
    'near_largest_final_height',
    'Largest height for which we saw a block containing 1/2 endorsements in it',
    facts.finalHeight,
  );
  gauge('near_tail_height', 'Height of tail', facts.tail);
  gauge('near_sync_status', 'Node sync status', facts.syncStatus);
  new Counter({
    name: 'near_block_processed_total',
    help: 'Total number of blocks processed',
    registers,
    collect() {
      this.reset();
      this.inc(facts.processed());
    },
  });
  // The moment the process started, as nearcore's client records its own start.
  const bootSeconds = Math.floor(Date.now() / 1000 - process.uptime());
  gauge(
    'near_boot_time_seconds',
    'Unix timestamp in seconds of the moment the client was started',
    () => bootSeconds,
  );
  gauge(
    'nearlite_head_block_timestamp_seconds',
    "The head block's timestamp, in seconds since the Unix epoch",
    facts.headTimestampSeconds,
  );
  if (facts.ordinal)
    gauge('near_block_ordinal_head', 'Ordinal of the current head of the blockchain', facts.ordinal);
  if (facts.epochHeight)
    gauge('near_epoch_height', 'Height of the epoch at the head of the blockchain', facts.epochHeight);
  const layout = facts.shardLayout;
  if (layout) {
    gauge(
      'near_shard_layout_version',
      'The version of the shard layout of the current head.',
      () => layout.version,
    );
    gauge(
      'near_shard_layout_num_shards',
      'The number of shards in the shard layout of the current head.',
      () => layout.numShards,
    );
  }
}
