// A producing node's RpcBackend: what the chain's view client answers itself, and the slices the
// node's services build over the chain (transactions, `query`, changes, light client, sandbox).
// Every slice is typed by jsonrpc's own RpcBackend, so this file only composes them.

import type { ViewClient } from '@nearlite/chain';
import type { RpcBackend } from '@nearlite/jsonrpc';
import { HandlerError } from '@nearlite/primitives';

/** The methods the view client answers as they are. */
export type ViewClientMethods =
  | 'block'
  | 'chunk'
  | 'status'
  | 'networkInfo'
  | 'validators'
  | 'gasPrice'
  | 'genesisConfig'
  | 'protocolConfig'
  | 'validatorsOrdered'
  | 'congestionLevel'
  | 'maintenanceWindows';

/** Everything else but health, built by the node's services over the chain. */
export type ServiceMethods = Omit<RpcBackend, ViewClientMethods | 'headHeight' | 'health'>;

export function createRpcBackend(
  views: ViewClient,
  services: ServiceMethods,
  healthy: () => void,
): RpcBackend {
  return {
    ...services,
    headHeight: () => views.chain.head().height,
    health: healthy,
    block: (ref) => views.block(ref),
    chunk: (id) => views.chunk(id),
    status: () => views.status(),
    networkInfo: () => views.networkInfo(),
    validators: (ref) => views.validators(ref),
    gasPrice: (blockId) => views.gasPrice(blockId),
    genesisConfig: () => views.genesisConfig(),
    protocolConfig: (ref) => views.protocolConfig(ref),
    validatorsOrdered: (blockId) => views.validatorsOrdered(blockId),
    congestionLevel: (id) => views.congestionLevel(id),
    maintenanceWindows: (accountId) => views.maintenanceWindows(accountId),
  };
}

/**
 * nearcore's staleness bound (STATUS_WAIT_TIME_MULTIPLIER × max_block_production_delay, 20 s with
 * its default): past it `health` answers NO_NEW_BLOCKS.
 */
export function staleAfterMs(maxBlockProductionDelayMs: number): number {
  return 10 * maxBlockProductionDelayMs;
}

/**
 * Health per nearcore: unhealthy once the head is older than `staleAfterMs`. `headAt` is when the
 * head last moved on a producer, or the head block's timestamp (milliseconds) on a node that makes no
 * blocks, as nearcore measures it: a read-only node on an old genesis is a stale node.
 */
export function healthCheck(headAt: () => number, maxBlockProductionDelayMs: number): () => void {
  return () => {
    const elapsed = Date.now() - headAt();
    if (elapsed > staleAfterMs(maxBlockProductionDelayMs)) throw noNewBlocks(elapsed);
  };
}

/** nearcore's NO_NEW_BLOCKS, `elapsed` since the head last moved. */
export function noNewBlocks(elapsedMs: number): HandlerError {
  // A Rust Duration, as nearcore serializes it: whole seconds and the nanoseconds beyond them.
  const ms = Math.max(0, Math.floor(elapsedMs));
  const elapsed = { secs: Math.floor(ms / 1000), nanos: (ms % 1000) * 1_000_000 };
  return new HandlerError('NO_NEW_BLOCKS', { elapsed }, { name: 'NO_NEW_BLOCKS', info: { elapsed } });
}
