// A producer's Prometheus metrics at GET /metrics (prom-client is imported in this package only):
// RPC calls per method and outcome with their latency, blocks and their production time,
// transactions admitted and refused, view-call time and gas, store reads, writes and cache hits,
// and GC's tail.
import { type ChainHandle, epochHeightOf, gcStopHeight, lookupBlock } from '@nearlite/chain';
import type { StoreStats } from '@nearlite/store';
import { Counter, Histogram } from 'prom-client';
import { registerNearcoreMetrics, SYNC_STATUS_NO_SYNC, shardLayoutVersion } from './nearcore_metrics.js';
import { RpcMetrics } from './rpc_metrics.js';
import { scrapedCounter, scrapedGauge } from './scraped_gauge.js';

/** What the chain thread last reported of itself. */
export interface ChainThreadSample {
  readonly heap: { readonly used: number; readonly total: number };
  readonly cpuSeconds: number | null;
  readonly eventLoopActiveSeconds: number;
}

const TX_METHODS = new Set(['send_tx', 'broadcast_tx_commit', 'broadcast_tx_async']);

export class NodeMetrics extends RpcMetrics {
  private readonly transactions: Counter<'result'>;
  private readonly viewCalls: Histogram<'outcome'>;
  private readonly blockTime: Histogram;
  private readonly collected: Counter;
  private produced = 0;

  constructor(
    chain: ChainHandle,
    storeStats: () => StoreStats,
    viewGasBurnt: () => bigint = () => 0n,
    /** The chain thread's heap and CPU time, when the chain runs on a thread of its own. */
    chainThread: (() => ChainThreadSample) | null = null,
    /** The epochs GC keeps; null on an archival node, which collects nothing. */
    gcNumEpochsToKeep: number | null = null,
  ) {
    super();
    const registers = [this.registry];
    this.transactions = new Counter({
      name: 'nearlite_transactions_total',
      help: 'Transactions submitted over RPC, admitted or refused',
      labelNames: ['result'],
      registers,
    });
    this.viewCalls = new Histogram({
      name: 'nearlite_view_call_duration_seconds',
      help: 'Time of call_function queries (contract view calls)',
      labelNames: ['outcome'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 2],
      registers,
    });
    this.blockTime = new Histogram({
      name: 'nearlite_block_production_seconds',
      help: 'Time to produce and commit one block',
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers,
    });
    this.collected = new Counter({
      name: 'nearlite_gc_collected_blocks_total',
      help: 'Blocks garbage-collected since start',
      registers,
    });
    const gauge = (name: string, help: string, read: () => number) =>
      scrapedGauge(this.registry, name, help, read);
    const counter = (name: string, help: string, read: () => number) =>
      scrapedCounter(this.registry, name, help, read);
    const { genesisHeight, epochLength } = chain.genesis.config;
    const tail = () => chain.chainStore.tail() ?? genesisHeight;
    gauge('nearlite_block_height', 'Height of the head', () => chain.head().height);
    gauge('nearlite_tail_height', 'Lowest kept height (moves up as GC collects)', tail);
    // nearcore's GC gauges (chain/chain/src/metrics.rs, set by clear_data): the height GC collects up
    // to, below which `query` answers GARBAGE_COLLECTED_BLOCK, and the lowest height whose chunks are
    // kept (the tail here, as chunks go with their blocks).
    if (gcNumEpochsToKeep !== null)
      gauge('near_gc_stop_height', 'Target height of gc', () => gcStopHeight(chain, gcNumEpochsToKeep));
    gauge('near_chunk_tail_height', 'Height of chunk tail', tail);
    registerNearcoreMetrics(this.registry, {
      head: () => chain.head().height,
      finalHeight: () => lookupBlock(chain, { finality: 'final' })?.lite.height ?? genesisHeight,
      tail,
      processed: () => this.produced,
      // A producer is never behind anyone: it makes the chain.
      syncStatus: () => SYNC_STATUS_NO_SYNC,
      ordinal: () => chain.headHeader().rest.blockOrdinal,
      headTimestampSeconds: () => Number(chain.headHeader().lite.timestamp / 1_000_000n) / 1000,
      epochHeight: () => epochHeightOf(chain.head().height, genesisHeight, epochLength),
      shardLayout: {
        version: shardLayoutVersion(chain.layout.view),
        numShards: chain.layout.shardIds.length,
      },
    });
    counter('nearlite_view_call_gas_total', 'Gas burnt by call_function queries since start', () =>
      Number(viewGasBurnt()),
    );
    if (chainThread) {
      this.loopActive.set('chain', () => chainThread().eventLoopActiveSeconds);
      gauge(
        'nearlite_chain_thread_heap_used_bytes',
        "The chain thread's JavaScript heap in use",
        () => chainThread().heap.used,
      );
      gauge(
        'nearlite_chain_thread_heap_total_bytes',
        "The chain thread's JavaScript heap reserved",
        () => chainThread().heap.total,
      );
      // Linux says what a thread has used (/proc/thread-self); elsewhere there is no figure to give.
      if (process.platform === 'linux')
        counter(
          'nearlite_chain_thread_cpu_seconds_total',
          'CPU time of the chain thread (block production, chunk application, commits, GC)',
          () => chainThread().cpuSeconds ?? 0,
        );
    }
    counter('nearlite_store_reads_total', 'Store reads since start', () => storeStats().reads);
    counter(
      'nearlite_store_cache_hits_total',
      'Store reads answered by the cache',
      () => storeStats().cacheHits,
    );
    counter('nearlite_store_batches_total', 'Batches committed since start', () => storeStats().batches);
    counter('nearlite_store_writes_total', 'Operations in committed batches', () => storeStats().writes);
    counter(
      'nearlite_store_refcounts_filtered_total',
      'Reference counts folded without a read: the key was not in the refcount filter',
      () => storeStats().refcountsFiltered,
    );
  }

  /** For the RPC server's observe hook. */
  override observe(method: string, outcome: string, seconds: number): void {
    super.observe(method, outcome, seconds);
    if (TX_METHODS.has(method)) {
      if (outcome === 'ok') this.transactions.inc({ result: 'admitted' });
      else if (outcome === 'INVALID_TRANSACTION') this.transactions.inc({ result: 'refused' });
    }
    if (method === 'query.call_function') this.viewCalls.observe({ outcome }, seconds);
  }

  gcCollected(blocks: number): void {
    if (blocks > 0) this.collected.inc(blocks);
  }

  blockProduced(seconds: number): void {
    this.produced++;
    this.blockTime.observe(seconds);
  }
}
