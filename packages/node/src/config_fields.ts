// The fields config.json may hold: nearcore's (most of which nearlite does not use) and nearlite's
// own. nearcore reads the file through serde_ignored and warns of every other field
// (nearcore/src/config.rs, Config::from_file_skip_validation), so a misspelt `rpc.api_keys` or
// `archive` shows in the log instead of leaving the node quietly on its default.

/** A section's fields; a field whose own fields are checked maps to them. */
type Fields = { readonly [name: string]: Fields | true };

const DURATION: Fields = { secs: true, nanos: true };

// nearcore's RpcConfig (chain/jsonrpc/src/lib.rs), with nearlite's api_keys and rate_limit.
const RPC: Fields = {
  addr: true,
  prometheus_addr: true,
  cors_allowed_origins: true,
  polling_config: { polling_interval: DURATION, polling_timeout: DURATION },
  limits_config: { json_payload_max_size: true },
  enable_debug_rpc: true,
  experimental_debug_pages_src_path: true,
  sharded_rpc: true,
  api_keys: true,
  rate_limit: { requests_per_second: true, concurrent_view_calls: true, view_gas_per_second: true },
};

// nearcore's Consensus, the fields of its releases since 1.x.
const CONSENSUS: Fields = Object.fromEntries(
  [
    'min_num_peers',
    'block_production_tracking_delay',
    'min_block_production_delay',
    'max_block_production_delay',
    'max_block_wait_delay',
    'reduce_wait_for_missing_block',
    'produce_empty_blocks',
    'block_fetch_horizon',
    'state_fetch_horizon',
    'block_header_fetch_horizon',
    'catchup_step_period',
    'chunk_request_retry_period',
    'chunk_wait_mult',
    'header_sync_initial_timeout',
    'header_sync_progress_timeout',
    'header_sync_stall_ban_timeout',
    'state_sync_timeout',
    'state_sync_external_timeout',
    'state_sync_p2p_timeout',
    'state_sync_retry_backoff',
    'state_sync_external_backoff',
    'header_sync_expected_height_per_second',
    'sync_check_period',
    'sync_step_period',
    'sync_height_threshold',
    'sync_max_block_requests',
    'doomslug_step_period',
  ].map((f) => [f, true]),
);

// The top level: nearcore's Config (its GCConfig flattened into it) over its releases, and nearlite's
// `sandbox`. Sections nearlite does not read (network, telemetry, state_sync…) are not looked into.
const TOP_LEVEL: Fields = {
  ...Object.fromEntries(
    [
      'genesis_file',
      'genesis_records_file',
      'validator_key_file',
      'node_key_file',
      'rosetta_rpc',
      'telemetry',
      'network',
      'tracked_accounts',
      'tracked_shards',
      'tracked_shard_schedule',
      'tracked_shards_config',
      'archive',
      'save_trie_changes',
      'save_tx_outcomes',
      'save_state_changes',
      'save_untracked_partial_chunks_parts',
      'log_summary_style',
      'log_summary_period',
      'enable_multiline_logging',
      'gc_blocks_limit',
      'gc_fork_clean_step',
      'gc_num_epochs_to_keep',
      'gc_step_period',
      'view_client_threads',
      'chunk_validation_threads',
      'epoch_sync_enabled',
      'epoch_sync',
      'view_client_throttle_period',
      'trie_viewer_state_size_limit',
      'max_gas_burnt_view',
      'use_db_migration_snapshot',
      'db_migration_snapshot_path',
      'store',
      'cold_store',
      'split_storage',
      'cloud_archival',
      'cloud_archival_writer',
      'expected_shutdown',
      'state_sync_enabled',
      'state_sync',
      'state_request_throttle_period',
      'state_requests_per_throttle_period',
      'state_request_server_threads',
      'transaction_pool_size_limit',
      'transaction_request_handler_threads',
      'rpc_handler_thread_count',
      'resharding_config',
      'dynamic_resharding_dry_run',
      'tx_routing_height_horizon',
      'disable_tx_routing',
      'produce_chunk_add_transactions_time_limit',
      'chunk_distribution_network',
      'chunks_cache_height_horizon',
      'orphan_state_witness_pool_size',
      'orphan_state_witness_max_size',
      'max_loaded_contracts',
      'save_latest_witnesses',
      'save_invalid_witnesses',
      'protocol_version_check',
      'enable_early_prepare_transactions',
      'sandbox',
    ].map((f) => [f, true]),
  ),
  rpc: RPC,
  consensus: CONSENSUS,
};

const NEARLITE_STORE: Fields = {
  kind: true,
  compression: true,
  path: true,
  meta_url: true,
  shard_urls: true,
  pool_size: true,
};

/**
 * nearcore's own `store` section (core/store/src/config.rs, StoreConfig: its RocksDB's settings,
 * which tools such as near-sandbox's library write), with nearlite's `compression`; the sections
 * within it are not looked into.
 */
const NEARCORE_STORE: Fields = Object.fromEntries(
  [
    'path',
    'enable_statistics',
    'enable_statistics_export',
    'max_open_files',
    'col_state_cache_size',
    'col_flat_state_cache_size',
    'block_size',
    'trie_cache',
    'view_trie_cache',
    'enable_receipt_prefetching',
    'sweat_prefetch_receivers',
    'sweat_prefetch_senders',
    'claim_sweat_prefetch_config',
    'kaiching_prefetch_config',
    'load_mem_tries_for_shards',
    'load_mem_tries_for_tracked_shards',
    'migration_snapshot',
    'state_snapshot_config',
    'rocksdb',
    'compression',
  ].map((f) => [f, true]),
);

/**
 * The dotted paths of the fields in a parsed config.json that neither nearcore nor nearlite knows,
 * in the file's order.
 */
export function unrecognisedFields(raw: Record<string, unknown>): string[] {
  const out: string[] = [];
  const walk = (o: Record<string, unknown>, known: Fields, at: string) => {
    for (const [name, value] of Object.entries(o)) {
      const k = Object.hasOwn(known, name) ? known[name] : undefined;
      if (k === undefined) out.push(`${at}${name}`);
      else if (k !== true && typeof value === 'object' && value !== null && !Array.isArray(value))
        walk(value as Record<string, unknown>, k, `${at}${name}.`);
    }
  };
  walk(raw, TOP_LEVEL, '');
  // A `store` with a `kind` is nearlite's (store_config.ts); one without is nearcore's section.
  const store = raw.store;
  if (typeof store === 'object' && store !== null && !Array.isArray(store))
    walk(store as Record<string, unknown>, 'kind' in store ? NEARLITE_STORE : NEARCORE_STORE, 'store.');
  return out;
}

/** nearcore's warning of them: `<path>: encountered unrecognised field(s): a, b`. */
export function unrecognisedFieldsWarning(path: string, fields: readonly string[]): string | null {
  if (fields.length === 0) return null;
  return `${path}: encountered unrecognised field${fields.length > 1 ? 's' : ''}: ${fields.join(', ')}`;
}
