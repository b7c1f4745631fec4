// nearcore's pre-write check (core/store/src/db/rocksdb.rs, `pre_write_check`): every so many writes
// the free space of the database's disk is read; below 16 times the threshold a warning says the disk
// is running low, and below the threshold the write is refused, where nearcore panics, before LevelDB
// meets a full disk half way through writing its files. A refused write fails the store as a failed
// write does (`StoreWriteFailure`): a producer stops making blocks and says why, a follower exits.
import { statfsSync } from 'node:fs';
import { StoreError, StoreErrorCode } from './errors.js';
import type { StoreUpdate } from './store_update.js';

/** nearcore's `free_space_threshold`, 16 MB. */
export const FREE_SPACE_THRESHOLD = 16 * 1024 * 1024;
/** Below this the disk is said to be running low (nearcore's 16 times the threshold). */
export const LOW_SPACE_WARNING = 16 * FREE_SPACE_THRESHOLD;
/** Commits between two reads of the free space (nearcore's check_free_space_interval is 256 writes). */
export const CHECK_EVERY_COMMITS = 64;
/**
 * Bytes written between two reads at the most: a follower catching up commits batches of up to
 * ~1 MiB, so 64 of them could pass the 16 MB margin.
 */
export const CHECK_EVERY_BYTES = 4 * 1024 * 1024;
/** The low-space warning is repeated at most this often. */
const WARN_EVERY_MS = 60_000;

export interface DiskSpaceOptions {
  /** Where the warnings go (the node's log). */
  readonly warn: (msg: string) => void;
  /** Free bytes for an unprivileged writer on the disk holding `path`; statfs by default. */
  readonly available?: (path: string) => number;
}

const statfsAvailable = (path: string) => {
  const s = statfsSync(path);
  return s.bavail * s.bsize;
};

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export class DiskSpaceCheck {
  private commits = 0;
  private bytesSince = 0;
  private warnedAt = Number.NEGATIVE_INFINITY;
  private unverifiedSaid = false;
  private readonly available: (path: string) => number;

  constructor(
    private readonly path: string,
    private readonly o: DiskSpaceOptions,
  ) {
    this.available = o.available ?? statfsAvailable;
  }

  /** Before a commit of `update`: throws below the threshold, warns below the low mark. */
  check(update: StoreUpdate): void {
    this.bytesSince += updateBytes(update);
    if (this.commits++ % CHECK_EVERY_COMMITS !== 0 && this.bytesSince < CHECK_EVERY_BYTES) return;
    this.bytesSince = 0;
    let left: number;
    try {
      left = this.available(this.path);
    } catch (err) {
      // As nearcore: the write goes on unverified, said once.
      if (!this.unverifiedSaid)
        this.o.warn(
          `unable to verify remaining disk space (${(err as Error).message}); writing on without it`,
        );
      this.unverifiedSaid = true;
      return;
    }
    if (left < FREE_SPACE_THRESHOLD)
      throw new StoreError(
        StoreErrorCode.Io,
        `low disk space: ${mb(left)} left on the disk holding ${this.path}, below ${mb(FREE_SPACE_THRESHOLD)}; ` +
          'nothing more is written before the disk is full',
      );
    const now = Date.now();
    if (left < LOW_SPACE_WARNING && now - this.warnedAt >= WARN_EVERY_MS) {
      this.warnedAt = now;
      this.o.warn(`remaining disk space is running low: ${mb(left)} left on the disk holding ${this.path}`);
    }
  }
}

/** About what a commit writes: its values (keys and deletions are small beside them). */
function updateBytes(update: StoreUpdate): number {
  let n = 0;
  for (const op of update.ops) if (op.type === 'put') n += op.value.length;
  for (const r of update.refcounts.values()) if (r.value) n += r.value.length;
  return n;
}
