// Wires the chain's services into what the RPC backend needs.
import {
  blockEffectsView,
  type ChainHandle,
  changesView,
  lightClientBlockProof,
  lightClientExecutionProof,
  nextLightClientBlock,
  receiptToTx,
  runtimeTxCodecs,
  TransactionDecodeError,
  TxService,
  type ViewClient,
} from '@nearlite/chain';
import { chargeViewGas, RpcParseError } from '@nearlite/jsonrpc';
import {
  decodeReceipt,
  decodeSignedTransaction,
  receiptView,
  signedTransactionView,
} from '@nearlite/primitives';
import { DEFAULT_RUNTIME_CONFIG_VIEW } from '@nearlite/runtime';
import type { DbKind } from '@nearlite/store';
import { RUNTIME_CONFIG } from './applier.js';
import { clientConfigView, withExpectedShutdown } from './client_config.js';
import { fastForwardStepMs, type NodeConfig } from './config.js';
import { producerCallFunction } from './producer_views.js';
import { queryView } from './query.js';
import type { ServiceMethods } from './rpc_backend.js';
import { sandboxMethods } from './sandbox.js';
import { SignaturePool } from './signature_pool.js';
import { ViewCallPool } from './view_pool.js';

export interface Services {
  readonly runtimeConfigView: object;
  readonly transactionView: (bytes: Uint8Array) => object;
  readonly receiptView: (bytes: Uint8Array) => object;
  /** The RPC methods served over `chain` besides the view client's own. */
  /** `storeKind`: the kind the store records, which EXPERIMENTAL_split_storage_info names. */
  bind(
    chain: ChainHandle,
    views: ViewClient,
    config: NodeConfig,
    storeKind: DbKind,
    /** `expected_shutdown` now (a SIGHUP may change it); config.json's at the start by default. */
    expectedShutdown?: () => number | null,
  ): ServiceMethods;
  /** Gas burnt by view calls since start, for the metrics. */
  viewGasBurnt(): bigint;
  /** Starts the view-call and signature workers; called once the node is serving. */
  warm(): void;
  close(): Promise<void>;
}

/** Decode failures of client bytes are PARSE_ERRORs on the wire. */
function mapDecodeError(err: unknown): never {
  if (err instanceof TransactionDecodeError) throw new RpcParseError(err.message);
  throw err;
}

function asParseError<T>(fn: () => T): T {
  try {
    const r = fn();
    return (r instanceof Promise ? r.catch(mapDecodeError) : r) as T;
  } catch (err) {
    return mapDecodeError(err);
  }
}

/** `sandbox`: view calls offer the sandbox's host functions, their debug messages going to `log`. */
export function createServices(
  sandbox: { readonly log: ((message: string) => void) | null } | null = null,
  maxGasBurntView: bigint | null = null,
): Services {
  const runtimeConfig = RUNTIME_CONFIG;
  const viewPool = new ViewCallPool(2, sandbox, maxGasBurntView);
  const signatures = new SignaturePool({ size: 2 });
  let viewGasBurnt = 0n;
  return {
    viewGasBurnt: () => viewGasBurnt,
    runtimeConfigView: DEFAULT_RUNTIME_CONFIG_VIEW,
    transactionView: (bytes) => signedTransactionView(decodeSignedTransaction(bytes)),
    receiptView: (bytes) => receiptView(decodeReceipt(bytes)),
    warm: () => {
      viewPool.warm();
      signatures.warm();
    },
    close: async () => {
      await Promise.all([viewPool.close(), signatures.close()]);
    },
    bind(chain, views, config, storeKind, expectedShutdown = () => config.expectedShutdown) {
      // One set of codecs serves admission, answers, proofs and receipt_to_tx.
      const txCodecs = runtimeTxCodecs(chain, runtimeConfig);
      const service = new TxService({
        chain,
        codecs: txCodecs,
        timeoutMs: config.pollingTimeoutMs,
        signatures,
      });
      // The configuration does not change while the node runs, but for `expected_shutdown`.
      const clientConfig = clientConfigView({
        config,
        genesis: chain.genesis.config,
      });
      const callFunction = producerCallFunction(chain, views, viewPool, (gas) => {
        chargeViewGas(gas);
        viewGasBurnt += gas;
      });
      return {
        sendTx: (bytes, w) => asParseError(() => service.sendTx(bytes, w)),
        broadcastTxAsync: (bytes) => asParseError(() => service.broadcastTxAsync(bytes)),
        txStatus: (q, w, r) => asParseError(() => service.txStatus(q, w, r)),
        receipt: (id) => service.receipt(id),
        receiptToTx: (req) => receiptToTx(chain, txCodecs, req),
        query: (ref, req) => queryView(views, callFunction, ref, req),
        changes: (ref, req) => changesView(chain, ref, req),
        changesInBlock: (ref) => blockEffectsView(chain, ref),
        lightClientProof: (req, head) => lightClientExecutionProof(chain, txCodecs, req, head),
        nextLightClientBlock: (last) => nextLightClientBlock(chain, last),
        lightClientBlockProof: (block, head) => lightClientBlockProof(chain, block, head),
        splitStorageInfo: () => splitStorageInfo(chain, storeKind),
        clientConfig: () => withExpectedShutdown(clientConfig, expectedShutdown()),
        ...(config.sandbox ? sandboxMethods(chain, fastForwardStepMs(config)) : {}),
      };
    },
  };
}

/** EXPERIMENTAL_split_storage_info of a node with one database: no cold head, the hot one's kind. */
function splitStorageInfo(chain: ChainHandle, kind: DbKind): object {
  const head = chain.headHeader();
  const final = chain.chainStore.blockHeader(head.rest.lastFinalBlock);
  return {
    head_height: head.lite.height,
    final_head_height: final?.lite.height ?? chain.genesis.config.genesisHeight,
    cold_head_height: null,
    hot_db_kind: kind === 'archival' ? 'Archive' : 'RPC',
  };
}
