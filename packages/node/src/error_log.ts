// What a history's RPC logs of a request that failed inside the node. A database that is away fails
// every request the same way: each was logged with its stack, a thousand lines a minute under one
// client. A failure of the history's database is logged once, without a stack, and repeats of the
// same text within the interval are counted into the next line that says it.
import { isDatabaseFailure } from '@nearlite/history-pg';
import type { Logger } from './log.js';

const REPEAT_MS = 10_000;

export function internalErrorLog(logger: Logger, now: () => number = Date.now) {
  const seen = new Map<string, { at: number; more: number }>();
  return (err: unknown, where: string): void => {
    const text = err instanceof Error ? err.message : String(err);
    if (!isDatabaseFailure(err)) {
      logger.error(`internal error in ${where}: ${err instanceof Error ? (err.stack ?? text) : text}`);
      return;
    }
    const s = seen.get(text);
    const t = now();
    if (s && t - s.at < REPEAT_MS) {
      s.more++;
      return;
    }
    const more = s?.more ?? 0;
    seen.set(text, { at: t, more: 0 });
    if (seen.size > 100) seen.delete(seen.keys().next().value!);
    logger.error(
      `request failed in ${where}: ${text}${more > 0 ? ` (and ${more} more like it since the last such line)` : ''}`,
    );
  };
}
