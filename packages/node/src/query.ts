// `query` on a producing node: each request kind to the view client's view of it, `call_function`
// to the view-call workers.
import type { ViewClient } from '@nearlite/chain';
import type { BlockReference, QueryRequest } from '@nearlite/jsonrpc';

export type CallFunction = (
  ref: BlockReference,
  accountId: string,
  methodName: string,
  args: Uint8Array,
) => Promise<object> | object;

export function queryView(
  v: ViewClient,
  callFunction: CallFunction,
  ref: BlockReference,
  req: QueryRequest,
): Promise<object> | object {
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
      return v.viewState(ref, req.accountId, req.prefix, req.includeProof, req.page);
    case 'view_access_key':
      return v.viewAccessKey(ref, req.accountId, req.publicKey);
    case 'view_access_key_list':
      return v.viewAccessKeyList(ref, req.accountId);
    case 'view_gas_key_nonces':
      return v.viewGasKeyNonces(ref, req.accountId, req.publicKey);
    case 'call_function':
      return callFunction(ref, req.accountId, req.methodName, req.args);
  }
}
