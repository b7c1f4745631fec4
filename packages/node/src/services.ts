// Wires the runtime, VM and chain services the RPC backend needs.
import {
  blockEffectsView,
  type Chain,
  type ChunkApplier,
  changesView,
  type Genesis,
  NOOP_CHUNK_APPLIER,
  type ViewClient,
} from '@nearlite/chain';
import { InternalError } from '@nearlite/primitives';
import type { NodeConfig } from './config.js';
import type { BackendParts } from './rpc_backend.js';
import { createSandboxService } from './sandbox.js';

export interface Services {
  readonly applier: ChunkApplier;
  readonly storageUsageConfig: { numBytesAccount: bigint; numExtraBytesRecord: bigint };
  readonly runtimeConfigView: object;
  readonly transactionView: (bytes: Uint8Array) => object;
  readonly receiptView: (bytes: Uint8Array) => object;
  bind(chain: Chain, views: ViewClient, config: NodeConfig): Omit<BackendParts, 'views' | 'healthy'>;
}

const unavailable = (what: string) => () => {
  throw new InternalError(`${what} is not available`);
};

export function createServices(_o: { genesis: Genesis; config: NodeConfig }): Services {
  return {
    applier: NOOP_CHUNK_APPLIER,
    storageUsageConfig: { numBytesAccount: 100n, numExtraBytesRecord: 40n },
    runtimeConfigView: {},
    transactionView: unavailable('transaction decoding'),
    receiptView: unavailable('receipt decoding'),
    bind: (chain) => ({
      tx: {
        sendTx: unavailable('send_tx'),
        broadcastTxAsync: unavailable('broadcast_tx_async'),
        txStatus: unavailable('tx'),
        receipt: unavailable('EXPERIMENTAL_receipt'),
      },
      calls: { callFunction: unavailable('call_function') },
      history: {
        changes: (ref, req) => changesView(chain, ref, req),
        changesInBlock: (ref) => blockEffectsView(chain, ref),
      },
      sandbox: createSandboxService(chain),
      lightClient: {
        lightClientProof: unavailable('light_client_proof'),
        nextLightClientBlock: unavailable('next_light_client_block'),
      },
    }),
  };
}
