// How far V8 lets the heaps of a node's threads grow before a full collection. By default a heap may
// grow to up to four times what survived the last full collection; under a flood of transactions
// that left ~250 MB of garbage in the RPC and chain threads' heaps (docs/PERFORMANCE.md, "Peak
// RSS"). At twice what survived, the send_tx case's peak RSS fell by ~170 MB for a few percent more
// collector time.
//
// V8's flags are the process's: set before any worker starts, this holds for every thread. A
// `--heap-growing-percent` of the user's own on node's command line wins (Node refuses the flag in
// NODE_OPTIONS).
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 100;

/** The flag to set, or null when the user chose one. */
export function heapPolicyFlag(execArgv) {
  const chosen = execArgv.some((a) => /^--heap[-_]growing[-_]percent(=|$)/.test(a));
  return chosen ? null : `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
}

/** Sets the policy for this process; returns the flag set, or null. */
export function applyHeapPolicy() {
  const flag = heapPolicyFlag(process.execArgv);
  if (flag) setFlagsFromString(flag);
  return flag;
}
