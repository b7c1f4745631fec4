// The RPC layer's backend, composed from the chain's view client and transaction service.

import type { ViewClient } from '@nearlite/chain';
import type {
  BlockReference,
  ChangesRequest,
  QueryRequest,
  RpcBackend,
  TxExecutionStatus,
  TxStatusQuery,
} from '@nearlite/jsonrpc';
import { type CryptoHash, HandlerError } from '@nearlite/primitives';

export interface TxService {
  sendTx(signedTx: Uint8Array, waitUntil: TxExecutionStatus): Promise<object>;
  broadcastTxAsync(signedTx: Uint8Array): string;
  txStatus(query: TxStatusQuery, waitUntil: TxExecutionStatus, withReceipts: boolean): Promise<object>;
  receipt(receiptId: CryptoHash): object;
}

export interface CallService {
  callFunction(
    ref: BlockReference,
    accountId: string,
    methodName: string,
    args: Uint8Array,
  ): Promise<object> | object;
}

export interface HistoryService {
  changes(ref: BlockReference, request: ChangesRequest): object;
  changesInBlock(ref: BlockReference): object;
}

export interface SandboxService {
  patchState(records: readonly unknown[]): Promise<object>;
  fastForward(deltaHeight: number): Promise<object>;
}

export interface BackendParts {
  readonly views: ViewClient;
  readonly tx: TxService;
  readonly calls: CallService;
  readonly history: HistoryService;
  /** Only on a node run as a sandbox (`--sandbox`); otherwise the sandbox methods do not exist. */
  readonly sandbox: SandboxService | null;
  readonly lightClient: Pick<RpcBackend, 'lightClientProof' | 'nextLightClientBlock'>;
  readonly healthy: () => void;
}

export function createRpcBackend(p: BackendParts): RpcBackend {
  const v = p.views;
  return {
    headHeight: () => v.chain.head().height,
    block: (ref) => v.block(ref),
    chunk: (id) => v.chunk(id),
    query(ref, req: QueryRequest) {
      switch (req.requestType) {
        case 'view_account':
          return v.viewAccount(ref, req.accountId);
        case 'view_code':
          return v.viewCode(ref, req.accountId);
        case 'view_global_contract_code':
          return v.viewGlobalContractCode(ref, { kind: 'CodeHash', hash: req.codeHash });
        case 'view_global_contract_code_by_account_id':
          return v.viewGlobalContractCode(ref, { kind: 'AccountId', accountId: req.accountId });
        case 'view_state':
          return v.viewState(ref, req.accountId, req.prefix, req.includeProof);
        case 'view_access_key':
          return v.viewAccessKey(ref, req.accountId, req.publicKey);
        case 'view_access_key_list':
          return v.viewAccessKeyList(ref, req.accountId);
        case 'call_function':
          return p.calls.callFunction(ref, req.accountId, req.methodName, req.args);
      }
    },
    changes: (ref, req) => p.history.changes(ref, req),
    changesInBlock: (ref) => p.history.changesInBlock(ref),
    status: () => v.status(),
    health: () => p.healthy(),
    networkInfo: () => v.networkInfo(),
    validators: (ref) => v.validators(ref),
    gasPrice: (blockId) => v.gasPrice(blockId),
    genesisConfig: () => v.genesisConfig(),
    protocolConfig: (ref) => v.protocolConfig(ref),
    sendTx: (tx, w) => p.tx.sendTx(tx, w),
    broadcastTxAsync: (tx) => p.tx.broadcastTxAsync(tx),
    txStatus: (q, w, r) => p.tx.txStatus(q, w, r),
    receipt: (id) => p.tx.receipt(id),
    lightClientProof: (req, head) => p.lightClient.lightClientProof(req, head),
    nextLightClientBlock: (last) => p.lightClient.nextLightClientBlock(last),
    ...(p.sandbox ? sandboxMethods(p.sandbox) : {}),
  };
}

function sandboxMethods(s: SandboxService): Pick<RpcBackend, 'sandboxPatchState' | 'sandboxFastForward'> {
  return {
    sandboxPatchState: (records) => s.patchState(records),
    sandboxFastForward: (delta) => s.fastForward(delta),
  };
}

/** Health per nearcore: unhealthy when the head is older than 10 × the block production delay. */
export function healthCheck(lastBlockAt: () => number, blockTimeMs: number, producing: boolean): () => void {
  return () => {
    if (!producing) return;
    const elapsed = Date.now() - lastBlockAt();
    if (elapsed > Math.max(10 * blockTimeMs, 20_000)) {
      throw new HandlerError(
        'NO_NEW_BLOCKS',
        { elapsed: { secs: Math.floor(elapsed / 1000), nanos: 0 } },
        { name: 'NO_NEW_BLOCKS', info: { elapsed: { secs: Math.floor(elapsed / 1000), nanos: 0 } } },
      );
    }
  };
}
