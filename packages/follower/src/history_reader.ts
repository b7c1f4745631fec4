// The seam between a follower's read RPC and where its history lives (LevelDB in this package,
// PostgreSQL in @nearlite/history-pg). Readers serve heights up to the cursor and nothing above
// it: a writer commits a block's rows first and moves the cursor last, so anything stored above
// the cursor belongs to a block that is not whole yet and is treated as unknown.
//
// The cursor, genesis and first heights are synchronous (a backend keeps them in memory and
// refreshes them); everything else is an async read, answered as of the cursor.
import type { CryptoHash } from '@nearlite/primitives';
import type { StreamerMessage } from '@nearlite/stream';

export interface Cursor {
  readonly height: number;
  readonly hash: CryptoHash;
}

export interface StoredBlock {
  readonly height: number;
  readonly hash: CryptoHash;
  readonly json: string;
}

/** A block's execution outcomes, as `outcome` gives each. */
export interface HeightOutcomes {
  readonly height: number;
  readonly outcomes: readonly string[];
}

export interface HistoryReader {
  /** The last whole block; null before the first one. */
  cursor(): Cursor | null;
  /** Height whose state the genesis records give; null before the genesis state is written. */
  genesisHeight(): number | null;
  /** Height of the first followed block: below it (down to genesis) there are no blocks. */
  firstHeight(): number | null;
  /**
   * The height from which this history holds every state change, when its first block did not follow
   * the genesis (state_from.ts); null when it holds the whole state.
   */
  stateFrom(): number | null;

  block(hash: CryptoHash): Promise<StoredBlock | undefined>;
  blockAt(height: number): Promise<StoredBlock | undefined>;
  /** The `chunk` view JSON of a block's shard. */
  chunk(blockHash: CryptoHash, shardId: number): Promise<string | undefined>;
  chunkByHash(chunkHash: CryptoHash): Promise<string | undefined>;
  transaction(hash: CryptoHash): Promise<string | undefined>;
  /** The execution outcome (with id and proof) of a transaction or a receipt. */
  outcome(id: CryptoHash): Promise<string | undefined>;
  receipt(id: CryptoHash): Promise<string | undefined>;
  /**
   * The execution outcomes (with id and proof, as `outcome` gives them) of the kept blocks from
   * `high` down to `low`, every shard's, highest block first.
   */
  outcomesIn(low: number, high: number): Promise<readonly HeightOutcomes[]>;
  /** The block's state changes with causes (a JSON array). */
  stateChanges(blockHash: CryptoHash): Promise<string | undefined>;

  /**
   * The value of a trie key as of `height` (after that block), or null when absent then. Throws
   * StateNotHeld when the key's newest row by then is below `stateFrom()`, or it has none.
   */
  valueAt(trieKey: Uint8Array, height: number): Promise<Uint8Array | null>;
  /**
   * The (trie key, value) pairs under `prefix` as of `height`, in trie-key order; with a bound, only
   * keys above `after` and at most `limit` of them. Throws StateNotHeld when `stateFrom()` is set.
   */
  scanAt(prefix: Uint8Array, height: number, bound?: ScanBound): Promise<[Uint8Array, Uint8Array][]>;
}

/** Where a scan starts and how many entries it brings (a page of a contract's state). */
export interface ScanBound {
  readonly after?: Uint8Array;
  readonly limit?: number;
}

export interface GenesisStateRow {
  readonly key: Uint8Array;
  readonly value: Uint8Array;
}

export interface FollowerGcOptions {
  /** Blocks kept below the cursor. */
  readonly keepBlocks: number;
  /** Most heights examined per step, so each step stays short. */
  readonly heightsPerStep?: number;
}

/**
 * The one writer's side: `ingestBlock`, `ingestBlocks` and `loadGenesisHistory` use nothing else,
 * and the follow loop collects garbage through it on a follower that is not archival.
 */
export interface HistoryWriter {
  cursor(): Cursor | null;
  genesisHeight(): number | null;
  /** Writes the genesis state as history at `height`, once. */
  writeGenesis(height: number, rows: readonly GenesisStateRow[]): Promise<void>;
  /**
   * Commits verified, consecutive blocks, the cursor moved to the last one after all their rows.
   * `first` says the first of them is the first block this history holds.
   */
  writeBlocks(messages: readonly StreamerMessage[], first: boolean): Promise<void>;
  /**
   * One GC step: moves the first height (the tail) towards `cursor - keepBlocks` and removes what
   * lies below it, so that heights below the tail answer as collected. Returns the blocks collected.
   */
  collectGarbage(o: FollowerGcOptions): Promise<number>;
  /**
   * For a history written before the height its state is held from was recorded: records it from the
   * first block, as its first batch would now. Only while that block is the one it began with, which
   * the caller vouches for (an archival follower never moves it). Returns the height, or null.
   */
  markStateFrom(): Promise<number | null>;
}
