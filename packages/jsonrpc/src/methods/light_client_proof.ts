import { argsError } from '../errors.js';
import { accountId, cryptoHash, expectObject, requireField } from '../params.js';
import type { MethodHandler } from './types.js';

export const light_client_proof: MethodHandler = (params, backend) => {
  const p = expectObject(params);
  const head = cryptoHash(requireField(p, 'light_client_head'));
  if (p.type === 'transaction') {
    return backend.lightClientProof(
      {
        type: 'transaction',
        transactionHash: cryptoHash(requireField(p, 'transaction_hash')),
        senderId: accountId(requireField(p, 'sender_id')),
      },
      head,
    );
  }
  if (p.type === 'receipt') {
    return backend.lightClientProof(
      {
        type: 'receipt',
        receiptId: cryptoHash(requireField(p, 'receipt_id')),
        receiverId: accountId(requireField(p, 'receiver_id')),
      },
      head,
    );
  }
  throw argsError('unknown variant, expected `transaction` or `receipt`');
};
