// Wires the runtime, the VM and the chain's services into what the RPC backend needs.
import {
  blockEffectsView,
  type Chain,
  type ChunkApplier,
  changesView,
  type Genesis,
  lightClientExecutionProof,
  nextLightClientBlock,
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
import {
  DEFAULT_RUNTIME_CONFIG_VIEW,
  parseRuntimeConfig,
  Runtime,
  VmFunctionCallRunner,
} from '@nearlite/runtime';
import { ContractCache } from '@nearlite/vm';
import type { NodeConfig } from './config.js';
import { producerCallFunction } from './producer_views.js';
import { queryView } from './query.js';
import type { ServiceMethods } from './rpc_backend.js';
import { sandboxMethods } from './sandbox.js';
import { SignaturePool } from './signature_pool.js';
import { ViewCallPool } from './view_pool.js';

export interface Services {
  readonly applier: ChunkApplier;
  readonly storageUsageConfig: { numBytesAccount: bigint; numExtraBytesRecord: bigint };
  readonly runtimeConfigView: object;
  readonly transactionView: (bytes: Uint8Array) => object;
  readonly receiptView: (bytes: Uint8Array) => object;
  /** The RPC methods served over `chain` besides the view client's own. */
  bind(chain: Chain, views: ViewClient, config: NodeConfig): ServiceMethods;
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

export function createServices(o: { genesis: Genesis; config: NodeConfig }): Services {
  const runtimeConfig = parseRuntimeConfig(DEFAULT_RUNTIME_CONFIG_VIEW);
  // Every epoch of this chain has the genesis validators (chain/src/epoch.ts), so receipts and views
  // at any block see this set.
  const validators = new Map(o.genesis.config.validators.map((v) => [v.accountId, v.amount]));
  // One compiled-module cache for the chain and view calls: a contract is prepared once per code hash.
  const cache = new ContractCache();
  const viewPool = new ViewCallPool(2);
  const signatures = new SignaturePool({ size: 2 });
  const runtime = new Runtime({
    config: runtimeConfig,
    validators,
    functionCall: new VmFunctionCallRunner(cache),
  });
  const codecs = (chain: Chain) => runtimeTxCodecs(chain, runtimeConfig);
  let viewGasBurnt = 0n;
  return {
    viewGasBurnt: () => viewGasBurnt,
    applier: {
      prepareTransactions: (state, txs, gasPrice, height) =>
        runtime.prepareTransactions(state, txs, gasPrice, height),
      applyChunk: (ctx, state, txs, incoming) => {
        const r = runtime.applyChunk(ctx, state, txs, incoming);
        return { ...r, validatorProposals: r.validatorProposals };
      },
    },
    storageUsageConfig: {
      numBytesAccount: runtimeConfig.fees.storage_usage_config.num_bytes_account,
      numExtraBytesRecord: runtimeConfig.fees.storage_usage_config.num_extra_bytes_record,
    },
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
    bind(chain, views, config) {
      const service = new TxService({
        chain,
        codecs: codecs(chain),
        timeoutMs: config.pollingTimeoutMs,
        signatures,
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
        query: (ref, req) => queryView(views, callFunction, ref, req),
        changes: (ref, req) => changesView(chain, ref, req),
        changesInBlock: (ref) => blockEffectsView(chain, ref),
        lightClientProof: (req, head) => lightClientExecutionProof(chain, codecs(chain), req, head),
        nextLightClientBlock: (last) => nextLightClientBlock(chain, last),
        ...(config.sandbox ? sandboxMethods(chain, config.blockTimeMs) : {}),
      };
    },
  };
}
