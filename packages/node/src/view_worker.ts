// A worker thread that runs view calls, so a slow or runaway contract never blocks the RPC loop.
// State reads are synchronous for the VM. A call that names a state (`at`) reads the trie here over
// this thread's own database handle (worker_state.ts); otherwise the worker posts each key and
// sleeps on a shared buffer until the main thread has copied the value in (Atomics.wait / notify).
import { parentPort, workerData } from 'node:worker_threads';
import { forwardThreadWarnings, HandlerError } from '@nearlite/primitives';
import {
  DEFAULT_RUNTIME_CONFIG_VIEW,
  parseRuntimeConfig,
  type ViewCallInput,
  viewCall,
} from '@nearlite/runtime';
import { ContractCache, offerSandboxHostFunctions } from '@nearlite/vm';
import { unknownValidators, ValidatorsUnknown } from './view_errors.js';
import type { WorkerState } from './view_pool.js';
import { workerStateGet } from './worker_state.js';

export interface ViewRequest extends Omit<ViewCallInput, 'config' | 'state' | 'validators' | 'cache'> {
  /** The block's validators and stakes; null where they are not known (view_errors.ts). */
  readonly validators: [string, bigint][] | null;
}

forwardThreadWarnings();
const { ctrlBuffer, dataBuffer, sandbox } = workerData as {
  ctrlBuffer: SharedArrayBuffer;
  dataBuffer: SharedArrayBuffer;
  sandbox: { log: boolean } | null;
};
const ctrl = new Int32Array(ctrlBuffer);
const data = new Uint8Array(dataBuffer);
const config = parseRuntimeConfig(DEFAULT_RUNTIME_CONFIG_VIEW);
const cache = new ContractCache();
const port = parentPort!;
if (sandbox)
  offerSandboxHostFunctions(
    sandbox.log ? (message) => port.postMessage({ type: 'sandboxLog', message }) : () => {},
  );

/** Thrown into the VM when the main thread could not read a key; the job fails as a whole. */
class StateReadFailed extends Error {
  override readonly name = 'StateReadFailed';
}

/**
 * Posts `post` and sleeps until the main thread has set ctrl[0]. A wake-up alone says nothing: the
 * main thread stores the flag, then notifies, and in between this thread may see the flag, run on and
 * sleep for its next read, which that late notify then wakes. Read then, ctrl[1] and the buffer
 * still hold the previous answer, and the contract would get another key's value.
 */
function wait(post: object): number {
  Atomics.store(ctrl, 0, 0);
  port.postMessage(post);
  while (Atomics.load(ctrl, 0) === 0) Atomics.wait(ctrl, 0, 0);
  return ctrl[1]!;
}

function syncGet(key: Uint8Array): Uint8Array | undefined {
  const total = wait({ type: 'get', key });
  if (total === -1) return undefined;
  if (total < 0) throw new StateReadFailed('state read failed');
  if (total <= data.length) return data.slice(0, total);
  // Larger than the shared buffer: the rest comes in pieces.
  const out = new Uint8Array(total);
  out.set(data);
  for (let offset = data.length; offset < total; offset += data.length) {
    wait({ type: 'more', offset });
    out.set(data.subarray(0, Math.min(data.length, total - offset)), offset);
  }
  return out;
}

/** Records the first read that failed: whatever the VM makes of the throw, the job fails with it. */
function guarded(get: (key: Uint8Array) => Uint8Array | undefined, failed: { err?: unknown }) {
  return (key: Uint8Array) => {
    try {
      return get(key);
    } catch (err) {
      failed.err ??= err;
      throw err;
    }
  };
}

port.on('message', async (msg: { id: number; req: ViewRequest; at: WorkerState | null }) => {
  const meter = { burnt: 0n };
  const failed: { err?: unknown } = {};
  try {
    let get = syncGet;
    if (msg.at) {
      try {
        get = guarded(await workerStateGet(msg.at, syncGet), failed);
      } catch (err) {
        failed.err = err;
        throw err;
      }
    }
    const result = viewCall({
      ...msg.req,
      config,
      cache,
      validators: msg.req.validators ? new Map(msg.req.validators) : unknownValidators(failed),
      state: { get },
      meter,
    });
    if (failed.err !== undefined) throw failed.err;
    port.postMessage({ type: 'result', id: msg.id, result, gas: meter.burnt });
  } catch (e) {
    const err = failed.err ?? e;
    if (err instanceof ValidatorsUnknown) {
      port.postMessage({ type: 'error', id: msg.id, gas: meter.burnt, validatorsUnknown: true });
      return;
    }
    if (failed.err !== undefined) {
      // Not the contract's doing: the store could not be opened or read from this thread.
      port.postMessage({
        type: 'error',
        id: msg.id,
        gas: meter.burnt,
        message: `a state read failed during the view call: ${(err as Error).message ?? String(err)}`,
      });
      return;
    }
    if (err instanceof HandlerError) {
      port.postMessage({
        type: 'error',
        id: msg.id,
        gas: meter.burnt,
        handler: { cause: err.cause, info: err.info, data: err.data },
      });
    } else
      port.postMessage({
        type: 'error',
        id: msg.id,
        gas: meter.burnt,
        message: (err as Error).message ?? String(err),
      });
  }
});
