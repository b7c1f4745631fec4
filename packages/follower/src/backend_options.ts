// What a follower's RPC backend is given by the node that runs it: the history, the chain's genesis,
// the upstream RPC if any, and how to run a view call.
import type { BuildVersion, Genesis, PreparedViewCall } from '@nearlite/chain';
import type { HistoryReader } from './history_reader.js';
import type { UpstreamRpc } from './upstream.js';

export interface FollowerBackendOptions {
  readonly history: HistoryReader;
  readonly genesis: Genesis;
  /** The runtime config view `EXPERIMENTAL_protocol_config` answers with. */
  readonly runtimeConfigView: object;
  readonly version: BuildVersion;
  readonly rpcAddr: string;
  readonly nodePublicKey: string;
  /** Where write methods go; null answers them with an error saying this node only reads. */
  readonly upstream: UpstreamRpc | null;
  /**
   * Runs a prepared view call (the node's worker pool) as of `height`. The contract's state reads
   * go through `read` (or the worker's own reads of the same history), one lookup per key as the
   * contract asks: nothing of its state is read ahead.
   */
  readonly runView: (
    prepared: PreparedViewCall,
    read: (key: Uint8Array) => Promise<Uint8Array | undefined>,
    height: number,
    /** Rows the history does not hold, known otherwise (global contract code): they come first. */
    given: readonly (readonly [Uint8Array, Uint8Array | null])[],
    /**
     * Whether `prepared`'s validators are the block's. If not, a call that reads a stake fails with
     * StakesNotKnown (unavailable.ts) rather than read the genesis ones standing in.
     */
    validatorsKnown: boolean,
  ) => Promise<object>;
  /** True while the follow loop is behind its source. */
  readonly syncing: () => boolean;
  /** Throws HandlerError when unhealthy; healthy when absent. */
  readonly health?: () => void;
  /** config.json's trie_viewer_state_size_limit. */
  readonly stateSizeLimit?: bigint | null;
  /**
   * Whether the history's store is archival, for `EXPERIMENTAL_split_storage_info`'s `hot_db_kind`:
   * the store's recorded kind, not the flag (a GC store opened with `--archive` stays a GC store).
   * Asked at each call, as nearcore reads its store's kind: a front end's writer may convert it.
   */
  readonly archivalStore: () => Promise<boolean>;
  /** The `client_config` answer, made at each call (a SIGHUP may change `expected_shutdown`). */
  readonly clientConfig: () => object;
  /**
   * How long `tx` and `EXPERIMENTAL_tx_status` wait for a transaction to reach its `wait_until`
   * before TIMEOUT_ERROR (config.json's rpc.polling_config.polling_timeout); 10 s when absent.
   */
  readonly pollingTimeoutMs?: number;
}
