// `client_config`: the node's configuration in the shape nearcore serializes its ClientConfig, every
// field of nearcore's schema present. Fields that say what nearlite does (chain, block time, archive,
// GC, limits, shard tracking, what is saved) come from the node's own configuration; the rest are
// nearcore's defaults, which describe peer-to-peer machinery nearlite does not run.
import type { GenesisConfig } from '@nearlite/chain';
import type { NodeConfig } from './config.js';
import {
  GC_BLOCKS_LIMIT,
  GC_FORK_CLEAN_STEP,
  maxBlockProductionDelayMs,
  savesTrieChanges,
} from './config.js';
import { BUILD_VERSION } from './version.js';

export interface ClientConfigInput {
  readonly config: NodeConfig;
  readonly genesis: GenesisConfig;
}

/** A top-level duration as nearcore's ClientConfig writes it: `[secs, nanos]`. */
const duration = (ms: number): [number, number] => [Math.floor(ms / 1000), (ms % 1000) * 1_000_000];
/** A nested one (`serde_duration_as_std`). */
const stdDuration = (ms: number) => ({ secs: Math.floor(ms / 1000), nanos: (ms % 1000) * 1_000_000 });

/** nearcore's default max_block_wait_delay, which nearlite does not read. */
const MAX_BLOCK_WAIT_DELAY_MS = 6_000;

const RESHARDING_CONFIG = {
  batch_size: 500000,
  batch_delay: { secs: 0, nanos: 5000000 },
  retry_delay: { secs: 10, nanos: 0 },
  initial_delay: { secs: 0, nanos: 0 },
  max_poll_time: { secs: 7200, nanos: 0 },
  catch_up_blocks: 20,
};

export function clientConfigView({ config, genesis }: ClientConfigInput): object {
  // As configured, on every node: a follower's and a front end's set their health rule.
  const blockMs = config.blockTimeMs;
  const seats = genesis.raw.num_block_producer_seats;
  return {
    version: BUILD_VERSION,
    chain_id: genesis.chainId,
    rpc_addr: config.rpcAddr,
    // MutableConfigValue fields are written as the JSON text of their value.
    expected_shutdown: JSON.stringify(config.expectedShutdown),
    block_production_tracking_delay: duration(10),
    min_block_production_delay: duration(blockMs),
    max_block_production_delay: duration(maxBlockProductionDelayMs(config)),
    max_block_wait_delay: duration(Math.max(blockMs, MAX_BLOCK_WAIT_DELAY_MS)),
    chunk_wait_mult: [1, 6],
    skip_sync_wait: false,
    sync_check_period: duration(10_000),
    sync_step_period: duration(10),
    sync_height_threshold: 1,
    sync_max_block_requests: 10,
    header_sync_initial_timeout: duration(10_000),
    header_sync_progress_timeout: duration(2_000),
    header_sync_stall_ban_timeout: duration(120_000),
    header_sync_expected_height_per_second: 10,
    state_sync_external_timeout: duration(60_000),
    state_sync_p2p_timeout: duration(10_000),
    state_sync_retry_backoff: duration(1_000),
    state_sync_external_backoff: duration(60_000),
    min_num_peers: 3,
    log_summary_period: duration(config.logSummaryPeriodMs),
    log_summary_style: 'colored',
    produce_empty_blocks: true,
    epoch_length: genesis.epochLength,
    num_block_producer_seats: typeof seats === 'number' ? seats : genesis.validators.length,
    ttl_account_id_router: duration(3_600_000),
    block_fetch_horizon: 50,
    catchup_step_period: duration(100),
    chunk_request_retry_period: duration(400),
    doomslug_step_period: duration(10),
    block_header_fetch_horizon: 50,
    gc: {
      gc_blocks_limit: GC_BLOCKS_LIMIT,
      gc_fork_clean_step: GC_FORK_CLEAN_STEP,
      // As written: nearcore serializes GCConfig's field; its floor applies where GC reads it.
      gc_num_epochs_to_keep: config.gcNumEpochsToKeepAsWritten,
      gc_step_period: stdDuration(500),
    },
    // Every node here keeps every shard.
    tracked_shards_config: 'AllShards',
    archive: config.archive,
    cloud_archival_writer: null,
    save_trie_changes: savesTrieChanges(config),
    save_tx_outcomes: true,
    save_state_changes: true,
    save_untracked_partial_chunks_parts: true,
    view_client_threads: 4,
    chunk_validation_threads: 4,
    state_request_throttle_period: duration(30_000),
    state_requests_per_throttle_period: 30,
    state_request_server_threads: 4,
    trie_viewer_state_size_limit: config.trieViewerStateSizeLimit,
    max_gas_burnt_view: config.maxGasBurntView === null ? null : Number(config.maxGasBurntView),
    enable_statistics_export: true,
    client_background_migration_threads: 8,
    state_sync_enabled: true,
    state_sync: { parts_compression_lvl: 1 },
    epoch_sync: {
      disable_epoch_sync_for_bootstrapping: false,
      ignore_epoch_sync_network_requests: false,
      epoch_sync_horizon: 216000,
      timeout_for_epoch_sync: stdDuration(60_000),
    },
    transaction_pool_size_limit: 100000000,
    enable_multiline_logging: true,
    resharding_config: JSON.stringify(RESHARDING_CONFIG),
    tx_routing_height_horizon: 4,
    disable_tx_routing: false,
    produce_chunk_add_transactions_time_limit: JSON.stringify(duration(200)),
    chunk_distribution_network: null,
    orphan_state_witness_pool_size: 25,
    orphan_state_witness_max_size: 40000000,
    save_latest_witnesses: false,
    save_invalid_witnesses: false,
    transaction_request_handler_threads: 4,
    protocol_version_check: 'NextNext',
    enable_early_prepare_transactions: false,
    chunks_cache_height_horizon: 128,
    dynamic_resharding_dry_run: false,
  };
}

/** The view with `expected_shutdown` as it is now: a SIGHUP may have changed it since the view was made. */
export function withExpectedShutdown(view: object, height: number | null): object {
  return { ...view, expected_shutdown: JSON.stringify(height) };
}
