// `query call_function` on a producer: resolved against the block on the main thread, run on a view
// worker. With the store on disk the worker walks the block's trie itself, with the block's height
// pinned against GC until the call settles; an in-memory store is read through the main thread.
import { type ChainHandle, prepareViewCall, type ViewClient } from '@nearlite/chain';
import type { BlockReference } from '@nearlite/primitives';
import { Trie } from '@nearlite/trie';
import type { ViewCallPool } from './view_pool.js';

export function producerCallFunction(
  chain: ChainHandle,
  views: ViewClient,
  pool: ViewCallPool,
  onGas: (burnt: bigint) => void,
): (ref: BlockReference, accountId: string, methodName: string, args: Uint8Array) => Promise<object> {
  return (ref, accountId, methodName, args) => {
    const at = views.queryAt(ref, accountId);
    const { input, get } = prepareViewCall(
      at,
      chain.genesis,
      accountId,
      methodName,
      args,
      views.validatorStakes(at),
    );
    const req = { ...input, validators: [...input.validators] };
    const path = chain.store.sharedPath();
    if (path === null || !(at.trie instanceof Trie)) return pool.call(req, get, onGas);
    // queryAt checked the block against the tail just now, in this same synchronous step.
    const release = chain.statePins.pin(at.header.lite.height, input.blockHash);
    return pool.callAt(req, { path, root: at.trie.root }, onGas).finally(release);
  };
}
