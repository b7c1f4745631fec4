// A thread that fetches blocks from its own copy of the follower's source and prepares them
// (prepare.ts): parsing, hashing and encoding leave the follow loop's thread, which only checks the
// links and commits.
import { parentPort, workerData } from 'node:worker_threads';
import { forwardThreadWarnings } from '@nearlite/primitives';
import { describeSourceError, openSource, type SourceSpec } from '@nearlite/stream';
import { prepareBlock } from './prepare.js';
import type { PrepareReply, PrepareRequest, RetryReport } from './prepare_pool.js';

const port = parentPort!;
const spec = workerData as SourceSpec;
// A warning here (the AWS SDK's notice of the Node versions it will need) goes to the main thread's
// log as its own would, not to stderr as Node's text.
forwardThreadWarnings();
// Each failed attempt is told to the main thread as it happens, which logs it as its own source's.
const source = openSource(spec.spec, {
  ...spec.options,
  onRetry: (e) => {
    const retry: RetryReport = {
      source: e.source,
      height: e.height,
      attempt: e.attempt,
      delayMs: e.delayMs,
      message: describeSourceError(e.error),
    };
    port.postMessage({ retry });
  },
});

port.on('message', async ({ id, height }: PrepareRequest) => {
  let reply: PrepareReply;
  try {
    const message = await source.fetchBlock(height);
    const block = message === null ? null : prepareBlock(message);
    reply = { id, block };
  } catch (err) {
    const e = err as Error & { code?: unknown };
    const error = { name: e.name ?? 'Error', message: e.message ?? String(err) };
    reply = { id, error: typeof e.code === 'string' ? { ...error, code: e.code } : error };
  }
  const rows = reply.block && 'rows' in reply.block ? [reply.block.rows.buffer as ArrayBuffer] : [];
  port.postMessage(reply, rows);
});
