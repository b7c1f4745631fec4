// A `query` as the upstream RPC reads it, at the block this node resolved: what the follower does
// not hold (trie nodes for a proof, state from before it followed) is asked for there.
import type { QueryRequest } from '@nearlite/jsonrpc';
import { base58Encode, type CryptoHash, toBase64 } from '@nearlite/primitives';

export function upstreamQueryParams(req: QueryRequest, blockHash: CryptoHash): Record<string, unknown> {
  const at = { block_id: base58Encode(blockHash) };
  const type = { request_type: req.requestType };
  switch (req.requestType) {
    case 'view_global_contract_code':
      return { ...type, code_hash: base58Encode(req.codeHash), ...at };
    case 'view_state':
      return {
        ...type,
        account_id: req.accountId,
        prefix_base64: toBase64(req.prefix),
        ...(req.includeProof ? { include_proof: true } : {}),
        ...(req.page?.afterKey ? { after_key_base64: toBase64(req.page.afterKey) } : {}),
        ...(req.page?.limit ? { limit: req.page.limit } : {}),
        ...at,
      };
    case 'view_access_key':
    case 'view_gas_key_nonces':
      return { ...type, account_id: req.accountId, public_key: req.publicKey, ...at };
    case 'call_function':
      return {
        ...type,
        account_id: req.accountId,
        method_name: req.methodName,
        args_base64: toBase64(req.args),
        ...at,
      };
    default:
      return { ...type, account_id: req.accountId, ...at };
  }
}
