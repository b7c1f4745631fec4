// Where a follower reads the stream from: a neardata-style HTTP server, a NEAR Lake bucket on S3, or
// the Lake layout in a directory. Every source answers by height; heights with no block are `null`.
import type { StreamerMessage } from './message.js';
import type { SourceSpec } from './sources/open.js';
import type { RetryEvent } from './sources/retry.js';

export interface BlockSource {
  /** Human-readable name for logs and `status` (`http://…`, `s3://bucket`, `file:/dir`). */
  readonly name: string;
  /** How another thread opens the same source (`openSource` sets it); absent for a source built by hand. */
  readonly reopen?: SourceSpec;
  /** What is told of each failed attempt, where it was given to `openSource`: threads report theirs to it. */
  readonly onRetry?: (e: RetryEvent) => void;
  /** The block at `height`, or null when the source's chain has no block at that height. */
  fetchBlock(height: number): Promise<StreamerMessage | null>;
  /**
   * The lowest height above `after` that holds a block, where the source can tell without asking for
   * each height in between (a listing); null when none is published above it. A follower that finds
   * a skipped height asks it, to step over a long run of them at once (a sandbox's fast-forward).
   */
  nextHeight?(after: number): Promise<number | null>;
  /** The source's latest final height, for lag and ETA; null when it cannot tell. */
  finalHeight(): Promise<number | null>;
  /** The lowest height the source holds, where it can tell. */
  firstHeight(): Promise<number | null>;
  close(): Promise<void>;
}
