// The node's config.json (a nearcore-style subset) with defaults; CLI flags override it.
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { parseCommentedJson } from '@nearlite/primitives';
import { unrecognisedFields, unrecognisedFieldsWarning } from './config_fields.js';
import { type HistoryStoreConfig, LEVELDB_STORE, storeFromJson, storePathFromJson } from './store_config.js';

export interface NodeConfig {
  readonly rpcAddr: string;
  /**
   * `rpc.prometheus_addr`: nearcore's second listener that serves only `GET /metrics` (the RPC's own
   * `/metrics` stays); null: none.
   */
  readonly prometheusAddr: string | null;
  /**
   * `max_gas_burnt_view`: the gas a view call may burn, overriding the protocol's `max_gas_burnt`
   * for view calls only (nearcore's ClientConfig, read by its TrieViewer); null: the protocol's.
   */
  readonly maxGasBurntView: bigint | null;
  readonly blockTimeMs: number;
  /** `consensus.max_block_production_delay` (nearcore's 2 s by default); in effect never below the block time. */
  readonly maxBlockProductionDelayMs: number;
  readonly archive: boolean;
  /**
   * `save_trie_changes`: keep, per block and shard, the trie nodes its chunk replaced (TrieChanges),
   * which GC needs to release them. null: as nearcore, only when not archival (an archival node never
   * collects, and the rows are ~9 % of what a block of transfers writes).
   */
  readonly saveTrieChanges: boolean | null;
  readonly gcNumEpochsToKeep: number;
  /** `gc_num_epochs_to_keep` as written, which nearcore's client_config shows (GC keeps at least 3). */
  readonly gcNumEpochsToKeepAsWritten: number;
  readonly jsonPayloadMaxSize: number;
  readonly pollingTimeoutMs: number;
  /** How often the `stats` line is logged: nearcore's `log_summary_period`. */
  readonly logSummaryPeriodMs: number;
  /**
   * `expected_shutdown`: the height at which the node stops by itself, cleanly; null: none. Read
   * again on SIGHUP (`dyn_config.ts`), as nearcore's is.
   */
  readonly expectedShutdown: number | null;
  readonly trieViewerStateSizeLimit: number | null;
  /**
   * Serve `sandbox_patch_state` and `sandbox_fast_forward`, which let any caller rewrite state: only
   * for a local development chain (`nearlite start`, the `near-sandbox` entry point, `run --sandbox`).
   */
  readonly sandbox: boolean;
  /**
   * `rpc.cors_allowed_origins`: `["*"]` (nearcore's default) lets any origin read the answers; a list
   * of origins lets only those, as nearcore's CORS layer does.
   */
  readonly corsAllowedOrigins: readonly string[];
  /** `rpc.api_keys`: with any, every JSON-RPC request needs one (in the path or `x-api-key`). */
  readonly apiKeys: readonly string[];
  /** `rpc.rate_limit.requests_per_second` per client (key, or IP without keys); null: unlimited. */
  readonly requestsPerSecond: number | null;
  /** `rpc.rate_limit.concurrent_view_calls` per client; null: unlimited. */
  readonly concurrentViewCalls: number | null;
  /** `rpc.rate_limit.view_gas_per_second` per client; null: unlimited. */
  readonly viewGasPerSecond: number | null;
  /** Where a follower keeps its history (`store` in config.json). */
  readonly store: HistoryStoreConfig;
  /**
   * nearcore's `store.path`: the node's LevelDB directory, relative to the home or absolute (a
   * database on a disk of its own); null: `data` in the home.
   */
  readonly storePath: string | null;
  /**
   * `genesis_records_file`: the genesis records in this file (a JSON array; relative to the home, or
   * absolute), not in genesis.json, as nearcore reads them; what nearcore's state dump with `--stream` writes.
   */
  readonly genesisRecordsFile: string | null;
  /**
   * nearcore's `genesis_file`, `validator_key_file` and `node_key_file`: the home's files by these
   * names (relative to the home, or absolute); `genesis.json`, `validator_key.json`, `node_key.json`.
   */
  readonly genesisFile: string;
  readonly validatorKeyFile: string;
  readonly nodeKeyFile: string;
  /** nearcore's warning of the fields in the file that neither it nor nearlite knows; null: none. */
  readonly unrecognisedWarning: string | null;
}

export const DEFAULT_CONFIG: NodeConfig = {
  rpcAddr: '127.0.0.1:3030',
  prometheusAddr: null,
  maxGasBurntView: null,
  // nearcore's MIN_BLOCK_PRODUCTION_DELAY and MAX_BLOCK_PRODUCTION_DELAY: what `neard init` (and so
  // near-sandbox's) writes for a local chain, and what a sandbox fast-forward moves time by.
  blockTimeMs: 600,
  maxBlockProductionDelayMs: 2_000,
  archive: false,
  saveTrieChanges: null,
  gcNumEpochsToKeep: 5,
  gcNumEpochsToKeepAsWritten: 5,
  jsonPayloadMaxSize: 10 * 1024 * 1024,
  pollingTimeoutMs: 10_000,
  logSummaryPeriodMs: 10_000,
  expectedShutdown: null,
  trieViewerStateSizeLimit: 50_000,
  sandbox: false,
  corsAllowedOrigins: ['*'],
  apiKeys: [],
  requestsPerSecond: null,
  concurrentViewCalls: null,
  viewGasPerSecond: null,
  store: LEVELDB_STORE,
  storePath: null,
  genesisRecordsFile: null,
  genesisFile: 'genesis.json',
  validatorKeyFile: 'validator_key.json',
  nodeKeyFile: 'node_key.json',
  unrecognisedWarning: null,
};

/** config.json as written by `nearlite init` (field names follow nearcore's config.json). */
export function configFileJson(c: NodeConfig): object {
  return {
    rpc: {
      addr: c.rpcAddr,
      polling_config: {
        polling_interval: { secs: 0, nanos: 200_000_000 },
        polling_timeout: msToDuration(c.pollingTimeoutMs),
      },
      limits_config: { json_payload_max_size: c.jsonPayloadMaxSize },
    },
    consensus: {
      min_block_production_delay: msToDuration(c.blockTimeMs),
      max_block_production_delay: msToDuration(c.maxBlockProductionDelayMs),
    },
    archive: c.archive,
    ...(c.saveTrieChanges === null ? {} : { save_trie_changes: c.saveTrieChanges }),
    gc_num_epochs_to_keep: c.gcNumEpochsToKeep,
    trie_viewer_state_size_limit: c.trieViewerStateSizeLimit,
    sandbox: c.sandbox,
    ...(c.genesisRecordsFile === null ? {} : { genesis_records_file: c.genesisRecordsFile }),
  };
}

function msToDuration(ms: number): { secs: number; nanos: number } {
  return { secs: Math.floor(ms / 1000), nanos: (ms % 1000) * 1_000_000 };
}

// nearcore reads config.json with serde into typed fields: a value of the wrong type stops the start
// naming its field, where a lax read would run with NaN or a default the operator did not choose.
const isUint = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** `log_summary_period`: a period of zero would log without a pause. */
function logSummaryPeriodMs(raw: unknown, path: string): number {
  const ms = durationToMs(raw, `${path}: log_summary_period`) ?? DEFAULT_CONFIG.logSummaryPeriodMs;
  if (ms < 1) throw new ConfigError(`${path}: log_summary_period must be at least a millisecond`);
  return ms;
}

/**
 * A `{secs, nanos}` Duration in milliseconds; undefined when absent. serde reads no Duration from
 * `null`, so nearcore refuses one as it refuses any other value that is not a duration.
 */
function durationToMs(d: unknown, what: string): number | undefined {
  if (d === undefined) return undefined;
  const o = d as { secs?: unknown; nanos?: unknown } | null;
  // serde's Duration needs both fields, nanos below a second.
  if (typeof d !== 'object' || o === null || !isUint(o.secs) || !isUint(o.nanos) || o.nanos >= 1_000_000_000)
    throw new ConfigError(`${what} must be a duration {"secs": N, "nanos": N} (nanos below 1000000000)`);
  return o.secs * 1000 + Math.floor(o.nanos / 1_000_000);
}

/** A section of the file: an object, or empty when absent. */
function section(v: unknown, what: string): Record<string, unknown> {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw new ConfigError(`${what} must be an object`);
  return v as Record<string, unknown>;
}

// Fields nearcore types as plain integers and booleans: absent takes the default, null is refused as
// serde refuses it.
function uintOr(v: unknown, fallback: number, what: string): number {
  if (v === undefined) return fallback;
  if (!isUint(v)) throw new ConfigError(`${what} must be a non-negative integer`);
  return v;
}

function uintOrNull(v: unknown, what: string): number | null {
  if (v === undefined || v === null) return null;
  if (!isUint(v)) throw new ConfigError(`${what} must be a block height or null`);
  return v;
}

function boolOr(v: unknown, fallback: boolean, what: string): boolean {
  if (v === undefined) return fallback;
  if (typeof v !== 'boolean') throw new ConfigError(`${what} must be true or false`);
  return v;
}

/** The max_block_production_delay in effect: as configured, at least the block time. */
export function maxBlockProductionDelayMs(
  c: Pick<NodeConfig, 'blockTimeMs' | 'maxBlockProductionDelayMs'>,
): number {
  return Math.max(c.blockTimeMs, c.maxBlockProductionDelayMs);
}

/**
 * How far one height a sandbox fast-forward skips moves block time: nearcore's sandbox_delta_time,
 * the mean of the minimum and maximum production delays.
 */
export function fastForwardStepMs(c: Pick<NodeConfig, 'blockTimeMs' | 'maxBlockProductionDelayMs'>): number {
  return (c.blockTimeMs + maxBlockProductionDelayMs(c)) / 2;
}

/** Whether blocks keep their TrieChanges: as configured, else only on a node that collects garbage. */
export function savesTrieChanges(c: Pick<NodeConfig, 'archive' | 'saveTrieChanges'>): boolean {
  return c.saveTrieChanges ?? !c.archive;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export function loadConfig(path: string): NodeConfig {
  let raw: Record<string, unknown>;
  try {
    // nearcore's config.json may carry comments (near_config_utils::strip_comments_from_json_str).
    raw = parseCommentedJson(readFileSync(path)) as Record<string, unknown>;
  } catch (err) {
    throw new ConfigError(`cannot read ${path}: ${(err as Error).message}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new ConfigError(`${path} is not a JSON object`);
  // nearcore's `rpc: null` turns its RPC server off: a node that never listens is not one nearlite
  // runs, and opening the default address instead would expose what the operator closed.
  if (raw.rpc === null)
    throw new ConfigError(
      `${path}: rpc is null, which turns nearcore's RPC server off; nearlite always serves its RPC: ` +
        'give rpc.addr the address it may listen on (127.0.0.1:PORT keeps it to this machine)',
    );
  const rpc = section(raw.rpc, `${path}: rpc`);
  const consensus = section(raw.consensus, `${path}: consensus`);
  const limits = section(rpc.limits_config, `${path}: rpc.limits_config`);
  const polling = section(rpc.polling_config, `${path}: rpc.polling_config`);
  const limit = section(rpc.rate_limit, `${path}: rpc.rate_limit`);
  const gc = uintOr(
    raw.gc_num_epochs_to_keep,
    DEFAULT_CONFIG.gcNumEpochsToKeep,
    `${path}: gc_num_epochs_to_keep`,
  );
  if (rpc.addr !== undefined && typeof rpc.addr !== 'string')
    throw new ConfigError(`${path}: rpc.addr must be "IP:PORT"`);
  if (typeof rpc.addr === 'string') parseHostPort(rpc.addr, `${path}: rpc.addr`);
  const prometheusAddr = rpc.prometheus_addr ?? null;
  if (prometheusAddr !== null) {
    if (typeof prometheusAddr !== 'string')
      throw new ConfigError(`${path}: rpc.prometheus_addr must be "IP:PORT" or null`);
    parseHostPort(prometheusAddr, `${path}: rpc.prometheus_addr`);
    if (sameListenAddr(prometheusAddr, rpc.addr ?? DEFAULT_CONFIG.rpcAddr))
      throw new ConfigError(
        `${path}: rpc.prometheus_addr is rpc.addr (${prometheusAddr}): the metrics listener needs an address of its own`,
      );
  }
  const payload = uintOr(
    limits.json_payload_max_size,
    DEFAULT_CONFIG.jsonPayloadMaxSize,
    `${path}: rpc.limits_config.json_payload_max_size`,
  );
  if (payload === 0)
    throw new ConfigError(`${path}: rpc.limits_config.json_payload_max_size must be above 0`);
  const stateLimit = raw.trie_viewer_state_size_limit;
  const saveTrieChanges = raw.save_trie_changes;
  const recordsFile = raw.genesis_records_file;
  if (recordsFile !== undefined && recordsFile !== null && typeof recordsFile !== 'string')
    throw new ConfigError(`${path}: genesis_records_file must be a file name or null`);
  if (saveTrieChanges !== undefined && saveTrieChanges !== null && typeof saveTrieChanges !== 'boolean')
    throw new ConfigError(`${path}: save_trie_changes must be true, false or null`);
  if (
    stateLimit !== undefined &&
    stateLimit !== null &&
    !(typeof stateLimit === 'number' && Number.isSafeInteger(stateLimit) && stateLimit >= 0)
  )
    throw new ConfigError(`${path}: trie_viewer_state_size_limit must be a non-negative integer or null`);
  const blockTimeMs =
    durationToMs(consensus.min_block_production_delay, `${path}: consensus.min_block_production_delay`) ??
    DEFAULT_CONFIG.blockTimeMs;
  const maxDelayMs =
    durationToMs(consensus.max_block_production_delay, `${path}: consensus.max_block_production_delay`) ??
    DEFAULT_CONFIG.maxBlockProductionDelayMs;
  const archive = boolOr(raw.archive, false, `${path}: archive`);
  checkSemantics(path, {
    archive,
    saveTrieChanges: saveTrieChanges ?? null,
    blockTimeMs,
    maxDelayMs,
    gc,
    gcBlocksLimit: uintOr(raw.gc_blocks_limit, GC_BLOCKS_LIMIT, `${path}: gc_blocks_limit`),
    gcForkCleanStep: uintOr(raw.gc_fork_clean_step, GC_FORK_CLEAN_STEP, `${path}: gc_fork_clean_step`),
  });
  const viewGas = raw.max_gas_burnt_view;
  if (viewGas !== undefined && viewGas !== null && !isUint(viewGas))
    throw new ConfigError(`${path}: max_gas_burnt_view must be a non-negative integer (gas) or null`);
  return {
    rpcAddr: typeof rpc.addr === 'string' ? rpc.addr : DEFAULT_CONFIG.rpcAddr,
    prometheusAddr,
    maxGasBurntView: typeof viewGas === 'number' ? BigInt(viewGas) : null,
    blockTimeMs,
    maxBlockProductionDelayMs: maxDelayMs,
    archive,
    saveTrieChanges: saveTrieChanges ?? null,
    // nearcore never keeps fewer than 3 epochs
    gcNumEpochsToKeep: Math.max(3, gc),
    gcNumEpochsToKeepAsWritten: gc,
    jsonPayloadMaxSize: payload,
    pollingTimeoutMs:
      durationToMs(polling.polling_timeout, `${path}: rpc.polling_config.polling_timeout`) ??
      DEFAULT_CONFIG.pollingTimeoutMs,
    logSummaryPeriodMs: logSummaryPeriodMs(raw.log_summary_period, path),
    expectedShutdown: uintOrNull(raw.expected_shutdown, `${path}: expected_shutdown`),
    trieViewerStateSizeLimit:
      raw.trie_viewer_state_size_limit === null
        ? null
        : Number(raw.trie_viewer_state_size_limit ?? DEFAULT_CONFIG.trieViewerStateSizeLimit),
    sandbox: boolOr(raw.sandbox, false, `${path}: sandbox`),
    corsAllowedOrigins: corsOrigins(rpc.cors_allowed_origins, `${path}: rpc.cors_allowed_origins`),
    apiKeys: stringList(rpc.api_keys, `${path}: rpc.api_keys`),
    requestsPerSecond: positiveOrNull(
      limit.requests_per_second,
      `${path}: rpc.rate_limit.requests_per_second`,
    ),
    concurrentViewCalls: positiveOrNull(
      limit.concurrent_view_calls,
      `${path}: rpc.rate_limit.concurrent_view_calls`,
    ),
    viewGasPerSecond: positiveOrNull(
      limit.view_gas_per_second,
      `${path}: rpc.rate_limit.view_gas_per_second`,
    ),
    store: storeFromJson(raw.store, path),
    storePath: storePathFromJson(raw.store, path),
    genesisRecordsFile: typeof recordsFile === 'string' ? recordsFile : null,
    genesisFile: fileName(raw.genesis_file, DEFAULT_CONFIG.genesisFile, `${path}: genesis_file`),
    validatorKeyFile: fileName(
      raw.validator_key_file,
      DEFAULT_CONFIG.validatorKeyFile,
      `${path}: validator_key_file`,
    ),
    nodeKeyFile: fileName(raw.node_key_file, DEFAULT_CONFIG.nodeKeyFile, `${path}: node_key_file`),
    unrecognisedWarning: unrecognisedFieldsWarning(path, unrecognisedFields(raw)),
  };
}

/** nearcore's GCConfig defaults of the fields nearlite only checks (its GC steps are its own). */
export const GC_BLOCKS_LIMIT = 2;
export const GC_FORK_CLEAN_STEP = 100;

/** Rust's Debug text of a Duration, as nearcore's messages print one ("600ms", "2s", "1.5s"). */
function rustDuration(ms: number): string {
  return ms === 0 ? '0ns' : ms < 1000 ? `${ms}ms` : `${ms / 1000}s`;
}

/**
 * The checks of nearcore's ConfigValidator (nearcore/src/config_validate.rs) that apply to what
 * nearlite reads, with its messages: a config.json nearcore refuses to start with is refused here.
 */
function checkSemantics(
  path: string,
  c: {
    archive: boolean;
    saveTrieChanges: boolean | null;
    blockTimeMs: number;
    maxDelayMs: number;
    gc: number;
    gcBlocksLimit: number;
    gcForkCleanStep: number;
  },
): void {
  const issues: string[] = [];
  if (!c.archive && c.saveTrieChanges === false)
    issues.push(
      'Configuration with archive = false and save_trie_changes = false is not supported because non-archival nodes must save trie changes in order to do do garbage collection.',
    );
  if (c.blockTimeMs > c.maxDelayMs)
    issues.push(
      `min_block_production_delay: ${rustDuration(c.blockTimeMs)} is greater than max_block_production_delay: ${rustDuration(c.maxDelayMs)}`,
    );
  if (c.gcBlocksLimit === 0 || c.gcForkCleanStep === 0 || c.gc === 0)
    issues.push(
      `gc config values should all be greater than 0, but gc_blocks_limit is ${c.gcBlocksLimit}, gc_fork_clean_step is ${c.gcForkCleanStep}, gc_num_epochs_to_keep is ${c.gc}.`,
    );
  if (issues.length > 0)
    throw new ConfigError(issues.map((i) => `${path}: config.json semantic issue: ${i}`).join('\n'));
}

function fileName(v: unknown, dflt: string, what: string): string {
  if (v === undefined || v === null) return dflt;
  if (typeof v !== 'string' || v.length === 0 || v.includes('\0'))
    throw new ConfigError(`${what} must be a file name, relative to the home or absolute`);
  return v;
}

function stringList(v: unknown, what: string): readonly string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((k) => typeof k !== 'string' || k.length === 0 || k.includes('/')))
    throw new ConfigError(`${what} must be a list of non-empty strings without '/'`);
  return v as string[];
}

/**
 * nearcore hands the list to its CORS layer, which takes `"*"` only as the whole list (any other list
 * with it panics the node at start): refused here with the reason instead.
 */
function corsOrigins(v: unknown, what: string): readonly string[] {
  if (v === undefined || v === null) return DEFAULT_CONFIG.corsAllowedOrigins;
  if (!Array.isArray(v) || v.length === 0 || v.some((o) => typeof o !== 'string' || o.length === 0))
    throw new ConfigError(`${what} must be ["*"] or a list of origins`);
  if (v.length > 1 && v.includes('*'))
    throw new ConfigError(`${what}: "*" allows every origin and can only be the whole list`);
  return v as string[];
}

function positiveOrNull(v: unknown, what: string): number | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0)
    throw new ConfigError(`${what} must be a positive number`);
  return v;
}

/**
 * nearcore's SocketAddr, as its config and flags take a listening address: an IP address and a port
 * ("0.0.0.0:3030", "[::1]:3030"); a host name or a missing port is refused.
 */
export function parseHostPort(addr: string, what = 'address'): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(addr);
  const host = m?.[1] ?? m?.[2] ?? '';
  const port = m ? Number(m[3]) : Number.NaN;
  if (!m || isIP(host) !== (m[1] === undefined ? 4 : 6) || !(port <= 65535))
    throw new ConfigError(
      `${what}: invalid socket address syntax: '${addr}' (an IP address and a port, as 0.0.0.0:3030)`,
    );
  return { host, port };
}

/**
 * Whether two listeners would take one address: the same host and port, unless the port is 0 (each
 * then gets a free one of its own).
 */
export function sameListenAddr(a: string, b: string): boolean {
  const [x, y] = [parseHostPort(a), parseHostPort(b)];
  return x.port !== 0 && x.port === y.port && x.host === y.host;
}
