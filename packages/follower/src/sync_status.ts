// When a follower is syncing, as nearcore's client decides it: the rule `health`, `status` and
// `near_sync_status` read, kept apart from the loop that feeds it.

/** nearcore's `sync_height_threshold` default: a node a single height behind is not syncing. */
export const SYNC_HEIGHT_THRESHOLD = 1;

/**
 * nearcore's client: syncing until it knows the network's height, then a node in sync starts syncing
 * once more than `SYNC_HEIGHT_THRESHOLD` heights behind, and a syncing node stops at the tip. The
 * threshold keeps a node that tails the head from flapping each time the source is a block ahead.
 * A follower learns the source's head by asking it every poll, so one that tails the head finds a
 * poll's worth of blocks at each (two at 600 ms blocks and 1 s polls) and has them a moment later:
 * it starts syncing only once it has been that far behind for `toleranceMs`.
 */
export function syncingAfter(
  wasSyncing: boolean,
  lag: number | null,
  behindForMs = Number.POSITIVE_INFINITY,
  toleranceMs = 0,
): boolean {
  if (lag === null) return true;
  if (wasSyncing) return lag > 0;
  return lag > SYNC_HEIGHT_THRESHOLD && behindForMs >= toleranceMs;
}
