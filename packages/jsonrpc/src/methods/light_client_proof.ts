import type { LightClientProofRequest } from '../backend.js';
import { accountId, cryptoHash, expectStruct, type Obj, requireField } from '../params.js';
import { invalidType, missingField, unknownVariant } from '../serde.js';
import type { MethodHandler } from './types.js';

/** The internally tagged `TransactionOrReceiptId` (tag `type`). */
function parseId(p: Obj): LightClientProofRequest {
  if (!Object.hasOwn(p, 'type')) throw missingField('type');
  switch (p.type) {
    case 'transaction':
      return {
        type: 'transaction',
        transactionHash: cryptoHash(requireField(p, 'transaction_hash')),
        senderId: accountId(requireField(p, 'sender_id')),
      };
    case 'receipt':
      return {
        type: 'receipt',
        receiptId: cryptoHash(requireField(p, 'receipt_id')),
        receiverId: accountId(requireField(p, 'receiver_id')),
      };
    default:
      if (typeof p.type !== 'string') throw invalidType(p.type, 'variant identifier');
      throw unknownVariant(p.type, ['transaction', 'receipt']);
  }
}

export const light_client_proof: MethodHandler = (params, backend) => {
  const p = expectStruct(params, 'RpcLightClientExecutionProofRequest');
  const head = cryptoHash(requireField(p, 'light_client_head'));
  return backend.lightClientProof(parseId(p), head);
};
