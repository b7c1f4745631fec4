// The host function nearcore's sandbox build adds (its `sandbox` feature, which near-sandbox is
// built with and a production node is not): a contract's debug message for the node's own log.
// It costs no gas, and a message in bad UTF-8 or outside memory fails the call as nearcore's does.
import { HostError } from '../errors.js';
import type { VMLogic } from '../logic.js';

// The message as nearcore's String::from_utf8 reads it: a leading byte order mark is kept.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Where this thread's sandbox debug messages go (`offerSandboxHostFunctions` sets it). */
let sink: ((message: string) => void) | null = null;

export function setSandboxDebugLog(to: ((message: string) => void) | null): void {
  sink = to;
}

export function sandbox_debug_log(l: VMLogic, len: bigint, ptr: bigint): void {
  const bytes = l.mem.viewForFree(ptr, len);
  let message: string;
  try {
    message = utf8.decode(bytes);
  } catch {
    throw new HostError('BadUTF8');
  }
  sink?.(message);
}
