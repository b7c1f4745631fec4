// A worker thread that runs view calls, so a slow or runaway contract never blocks the RPC loop.
// State reads are synchronous for the VM: the worker posts the key and sleeps on a shared buffer
// until the main thread has copied the value in (Atomics.wait / notify).
import { parentPort, workerData } from 'node:worker_threads';
import { HandlerError } from '@nearlite/primitives';
import {
  DEFAULT_RUNTIME_CONFIG_VIEW,
  parseRuntimeConfig,
  type ViewCallInput,
  viewCall,
} from '@nearlite/runtime';
import { ContractCache } from '@nearlite/vm';

export interface ViewRequest extends Omit<ViewCallInput, 'config' | 'state' | 'validators' | 'cache'> {
  readonly validators: [string, bigint][];
}

const { ctrlBuffer, dataBuffer } = workerData as {
  ctrlBuffer: SharedArrayBuffer;
  dataBuffer: SharedArrayBuffer;
};
const ctrl = new Int32Array(ctrlBuffer);
const data = new Uint8Array(dataBuffer);
const config = parseRuntimeConfig(DEFAULT_RUNTIME_CONFIG_VIEW);
const cache = new ContractCache();
const port = parentPort!;

/** Thrown into the VM when the main thread could not read a key; the job fails as a whole. */
class StateReadFailed extends Error {
  override readonly name = 'StateReadFailed';
}

function wait(post: object): number {
  Atomics.store(ctrl, 0, 0);
  port.postMessage(post);
  Atomics.wait(ctrl, 0, 0);
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

port.on('message', (msg: { id: number; req: ViewRequest }) => {
  const meter = { burnt: 0n };
  try {
    const result = viewCall({
      ...msg.req,
      config,
      cache,
      validators: new Map(msg.req.validators),
      state: { get: syncGet },
      meter,
    });
    port.postMessage({ type: 'result', id: msg.id, result, gas: meter.burnt });
  } catch (err) {
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
