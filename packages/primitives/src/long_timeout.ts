// A timer for any delay. Node's setTimeout takes at most 2^31 - 1 ms (~24.8 days) and fires a longer
// one after 1 ms: a block time or an RPC wait configured that long would run at once. nearcore's
// Durations have no such bound, so a long delay is waited for in steps.

export const MAX_TIMER_MS = 2 ** 31 - 1;

export interface LongTimer {
  clear(): void;
}

export function longTimeout(fn: () => void, ms: number): LongTimer {
  let timer: NodeJS.Timeout;
  const arm = (left: number) => {
    timer =
      left > MAX_TIMER_MS ? setTimeout(() => arm(left - MAX_TIMER_MS), MAX_TIMER_MS) : setTimeout(fn, left);
  };
  arm(Math.max(0, ms));
  return { clear: () => clearTimeout(timer) };
}
