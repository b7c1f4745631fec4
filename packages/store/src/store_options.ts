// What a Store is opened with, and what it counts while open.
import type { DiskSpaceOptions } from './disk_space.js';

export interface StoreOptions {
  /** Bytes the read cache may hold (values plus what each row costs besides, `ROW_OVERHEAD`); 64 MiB by default. */
  readonly cacheBytes?: number;
  /**
   * LevelDB's memtable size (`write_buffer_size`) and table file size (`max_file_size`): 32 MiB
   * and 8 MiB by default, where LevelDB's own are 4 MiB and 2 MiB. With those, a follower catching
   * up (~40 MB/s of history) stalled its writes while LevelDB's one compaction thread worked
   * through the many small tables ("Too many L0 files"), and a producer under a flood of transfers
   * spent ~15 % more CPU per transfer. A memtable holds up to its size of writes in memory, and
   * after a crash its log is replayed at the next open (a clean stop flushes it, `flushLog`).
   */
  readonly writeBufferBytes?: number;
  readonly tableFileBytes?: number;
  /**
   * Snappy compression of new table blocks; off by default. Snappy was the largest function of
   * LevelDB's compaction thread under a stream of transfers, ~250 µs of CPU per transfer, and a
   * chain's trie nodes, made of hashes, do not compress; its other rows do (the bench's full chain
   * is 592 MB fully compacted without it, 382 MB with it, the trie 118 against 107). A
   * follower's history is mostly JSON, which snappy halves (94 against 45 MB for the bench's quick
   * follower), at the cost of a decompression on every read that misses LevelDB's block cache (its
   * reads took ~20 % more CPU): `store.compression` in config.json turns it on, for a follower's
   * history or a node's own chain. Tables written either way stay readable.
   */
  readonly compression?: boolean;
  /**
   * Columns (by id) whose committed rows go into the read cache, refcounted ones included; rows of
   * the others are only forgotten. Absent: every column. A writer whose rows are read elsewhere (the
   * chain thread, whose outcomes and views the RPC thread serves) keeps its cache for the rows it
   * reads back itself.
   */
  readonly writeThrough?: ReadonlySet<number>;
  /**
   * Keep a filter of the keys present in the refcounted columns (`PresenceFilter`), built from the
   * database in the background after the open, so that a count folded for a new key is not searched
   * for in LevelDB. Only for the one Store that writes those columns: a row another writer adds would
   * be unknown to it, and its count would be overwritten.
   */
  readonly refcountFilter?: boolean;
  /** The filter's first capacity in keys; it is built anew, twice as large, once outgrown. 1M by default. */
  readonly refcountFilterKeys?: number;
  /** Check the disk's free space before writes (`DiskSpaceCheck`), for the store that writes a node's data. */
  readonly diskSpace?: DiskSpaceOptions;
}

/** Counters since open, for an operator's metrics. */
export interface StoreStats {
  /** Reads answered, from the cache or LevelDB. */
  reads: number;
  /** Of those, answered by the cache. */
  cacheHits: number;
  /** Batches committed, and the operations in them. */
  batches: number;
  writes: number;
  /** Counts folded without a read: the key was not in the refcount filter. */
  refcountsFiltered: number;
  /** Refcount filters built (the first, and each larger one). */
  refcountFilterBuilds: number;
}

/** Every counter at zero. */
export function emptyStoreStats(): StoreStats {
  return { reads: 0, cacheHits: 0, batches: 0, writes: 0, refcountsFiltered: 0, refcountFilterBuilds: 0 };
}
