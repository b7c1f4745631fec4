// What a follower's `stats` line reads: its history's cursor as the head, and while it catches up
// how far it has come since it began (nearcore's "Downloading blocks" display). The blocks and their
// gas come from the follow loop. The stream names no validators, so the line names none, as
// nearcore's leaves them out while it syncs.
import type { FollowLoop, HistoryReader } from '@nearlite/follower';
import { base58Encode } from '@nearlite/primitives';
import type { Logger } from './log.js';
import { StatsLog, statsWriter } from './stats_log.js';

export function followerStats(
  history: HistoryReader,
  loop: Pick<FollowLoop, 'syncing' | 'head'>,
  periodMs: number,
  logger: Logger,
): StatsLog {
  // The cursor when the node last began to catch up (a follower starts catching up), seen at most a
  // period late after that: the share done is of the heights since.
  let syncStart: number | null = history.cursor()?.height ?? null;
  return new StatsLog(
    {
      head: () => {
        const cursor = history.cursor();
        return cursor ? { height: cursor.height, hash: base58Encode(cursor.hash) } : null;
      },
      validators: () => null,
      sync: () => {
        const at = history.cursor()?.height ?? null;
        if (!loop.syncing || at === null) {
          syncStart = null;
          return null;
        }
        syncStart ??= at;
        return { startHeight: syncStart, highestHeight: loop.head ?? at };
      },
    },
    statsWriter(logger),
    periodMs,
  );
}
