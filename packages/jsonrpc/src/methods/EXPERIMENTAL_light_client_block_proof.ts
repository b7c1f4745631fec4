import { cryptoHash, requireField, structFields } from '../params.js';
import type { MethodHandler } from './types.js';

/** `{block_hash, light_client_head}` or `[block_hash, light_client_head]`. */
export const EXPERIMENTAL_light_client_block_proof: MethodHandler = (params, backend) => {
  const p = structFields(params, 'RpcLightClientBlockProofRequest', ['block_hash', 'light_client_head']);
  const blockHash = cryptoHash(requireField(p, 'block_hash'));
  return backend.lightClientBlockProof(blockHash, cryptoHash(requireField(p, 'light_client_head')));
};
