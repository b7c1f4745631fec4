// What the node's RPC thread and its chain thread (chain_thread.ts, chain_worker.ts) say to each
// other. Everything crosses by structured clone; written-row lists as transferred buffers.
import type { PooledTransaction, StateWrite } from '@nearlite/chain';
import type { StoreStats } from '@nearlite/store';

/** What the chain thread needs to open the store and produce blocks. */
export interface ChainWorkerData {
  readonly dataPath: string;
  /** Snappy on the tables LevelDB writes (config.json's `store.compression`). */
  readonly compression: boolean;
  readonly genesisPath: string;
  /** The genesis records' own file (config.json's `genesis_records_file`), or null. */
  readonly genesisRecordsPath: string | null;
  /** The parsed validator key file. */
  readonly validatorKey: Record<string, string>;
  readonly blockTimeMs: number;
  readonly archive: boolean;
  readonly saveTrieChanges: boolean;
  readonly gcNumEpochsToKeep: number;
  /** Contracts may import the sandbox's host functions (a sandbox node). */
  readonly sandboxHostFunctions: boolean;
  /** Their debug messages are sent to the node's log (RUST_LOG asks for them). */
  readonly sandboxDebugLog: boolean;
}

export type ToChain =
  | { readonly t: 'open' }
  /** Produce blocks (again), none above `stopAt` (config.json's `expected_shutdown`; null: no end). */
  | { readonly t: 'run'; readonly stopAt: number | null }
  | { readonly t: 'txs'; readonly txs: readonly PooledTransaction[] }
  | { readonly t: 'produce'; readonly id: number }
  | { readonly t: 'patch'; readonly id: number; readonly writes: readonly StateWrite[] }
  | { readonly t: 'fastForward'; readonly id: number; readonly deltaHeight: number; readonly stepNs: bigint }
  | { readonly t: 'stop'; readonly id: number }
  | { readonly t: 'answer'; readonly id: number; readonly value: unknown };

export interface ThreadHeap {
  readonly used: number;
  readonly total: number;
}

/** An error as it crosses: name and message (a HandlerError's fields do not survive the clone). */
export interface CrossedError {
  readonly name: string;
  readonly message: string;
}

export type FromChain =
  | {
      readonly t: 'ready';
      /** The thread's id in /proc/self/task, where its CPU time is read (null where there is none). */
      readonly tid: number | null;
    }
  | {
      readonly t: 'block';
      readonly height: number;
      readonly hash: Uint8Array;
      /** Rows the block's batch wrote (WrittenRows), some with their bytes, taken in before anything reads them. */
      readonly written: Uint8Array;
      /** A set and a map cross as they are: structured clone keeps them. */
      readonly outcomeIds: ReadonlySet<string>;
      readonly rejected: ReadonlyMap<string, unknown>;
      readonly gasUsed: bigint;
      /** Hex ids of the refunds the block sent (CommittedBlock.sentRefundIds). */
      readonly sentRefundIds: ReadonlySet<string>;
      /** Hex hashes of the pooled transactions the block took: included or refused. */
      readonly settled: readonly string[];
      readonly seconds: number;
      readonly stats: StoreStats;
      /** The chain thread's JavaScript heap (bytes), sampled at most once a second. */
      readonly heap: ThreadHeap;
    }
  | {
      /** The chunks of the block after the head, made (and their transactions stored) ahead of it. */
      readonly t: 'chunks';
      readonly written: Uint8Array;
      /** Hex hashes of the transactions they took. */
      readonly txIds: ReadonlySet<string>;
      readonly rejected: ReadonlyMap<string, unknown>;
      /** Hex hashes of the pooled transactions they refused. */
      readonly settled: readonly string[];
    }
  | { readonly t: 'collected'; readonly written: Uint8Array; readonly blocks: number }
  | { readonly t: 'reply'; readonly id: number; readonly value?: unknown; readonly error?: CrossedError }
  | { readonly t: 'ask'; readonly id: number; readonly what: 'lowestPin' }
  | { readonly t: 'ask'; readonly id: number; readonly what: 'beginCollect'; readonly newTail: number }
  | { readonly t: 'log'; readonly level: 'info' | 'warn' | 'error'; readonly msg: string }
  /** A contract's `sandbox_debug_log` message. */
  | { readonly t: 'sandboxLog'; readonly msg: string };

export function crossedError(err: unknown): CrossedError {
  const e = err as { name?: unknown; message?: unknown; stack?: unknown };
  return {
    name: typeof e?.name === 'string' ? e.name : 'Error',
    message: typeof e?.message === 'string' ? e.message : String(err),
  };
}
