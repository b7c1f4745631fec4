// Process warnings raised in a worker thread reach the main thread's, which logs them as its own (a
// node's log is JSON events, and a worker's warning would otherwise be Node's text on stderr). They
// travel on a broadcast channel, so no worker's own message protocol has to know of them.
import { BroadcastChannel } from 'node:worker_threads';

const CHANNEL = 'nearlite:thread-warnings';

interface ThreadWarning {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
}

/** In a worker: hands every warning to the main thread instead of printing it. */
export function forwardThreadWarnings(): void {
  const channel = new BroadcastChannel(CHANNEL);
  channel.unref();
  process.removeAllListeners('warning');
  process.on('warning', (w: Error & { code?: unknown }) => {
    const warning: ThreadWarning = {
      name: w.name,
      message: w.message,
      ...(typeof w.code === 'string' ? { code: w.code } : {}),
    };
    channel.postMessage(warning);
  });
}

let receiving = false;

const keyOf = (w: { name: string; message: string; code?: unknown }) =>
  `${typeof w.code === 'string' ? w.code : ''} ${w.name} ${w.message}`;

/**
 * In the main thread, before it starts workers: raises their warnings here, each distinct one once,
 * and none the main thread raised itself (every thread loads the same libraries, which warn alike).
 */
export function receiveThreadWarnings(): void {
  if (receiving) return;
  receiving = true;
  const seen = new Set<string>();
  process.on('warning', (w: Error & { code?: unknown }) => seen.add(keyOf(w)));
  const channel = new BroadcastChannel(CHANNEL);
  channel.unref();
  channel.onmessage = (e) => {
    const w = (e as { data: ThreadWarning }).data;
    const key = keyOf(w);
    if (seen.has(key)) return;
    seen.add(key);
    process.emitWarning(w.message, { type: w.name, ...(w.code ? { code: w.code } : {}) });
  };
}
