// Receipts an action receipt creates, before the chain-wide id is assigned (their index in creation
// order becomes the salt of their id).
import {
  type Action,
  BorshWriter,
  type CryptoHash,
  type GlobalContractDistributionReceipt,
  KeyType,
  type PublicKey,
  type Receipt,
  SYSTEM_ACCOUNT,
  writeReceipt,
} from '@nearlite/primitives';

export type NewReceiptSpec =
  | {
      kind: 'Action';
      predecessorId: string;
      receiverId: string;
      signerId: string;
      signerPublicKey: PublicKey;
      gasPrice: bigint;
      outputDataReceivers: { dataId: CryptoHash; receiverId: string }[];
      inputDataIds: CryptoHash[];
      actions: Action[];
      isPromiseYield?: true;
      /**
       * Where its balance refunds go instead of its predecessor: present on an ActionReceiptV2 (what
       * a contract creates), null for its None.
       */
      refundTo?: string | null;
    }
  | {
      kind: 'Data';
      predecessorId: string;
      receiverId: string;
      dataId: CryptoHash;
      data: Uint8Array | null;
      isPromiseResume?: true;
    }
  | ({ predecessorId: string; receiverId: string } & GlobalContractDistributionReceipt);

/** The receipt a spec becomes once the chain gives it its id. */
export function specReceipt(n: NewReceiptSpec, receiptId: CryptoHash): Receipt {
  if (n.kind === 'Data') {
    const { kind: _, predecessorId, receiverId, ...data } = n;
    return { predecessorId, receiverId, receiptId, receipt: { kind: 'Data', ...data } };
  }
  if (n.kind === 'GlobalContractDistribution') {
    const { predecessorId, receiverId, ...distribution } = n;
    return { predecessorId, receiverId, receiptId, receipt: distribution };
  }
  const { kind: _, predecessorId, receiverId, ...action } = n;
  return { predecessorId, receiverId, receiptId, receipt: { kind: 'Action', ...action } };
}

const NO_ID = new Uint8Array(32);

/** borsh::object_length of the receipt: its id is 32 bytes whatever it will be. */
export function specReceiptSize(n: NewReceiptSpec): number {
  const w = new BorshWriter(256);
  writeReceipt(w, specReceipt(n, NO_ID));
  return w.length;
}

/** nearcore's `PublicKey::empty(ED25519)`, the signer key of balance refunds. */
export const EMPTY_ED25519_KEY: PublicKey = { keyType: KeyType.ED25519, data: new Uint8Array(32) };

/** Receipt::new_balance_refund: a free transfer from `system` (deposit refunds, DeleteAccount payout). */
export function balanceRefund(receiverId: string, amount: bigint): NewReceiptSpec {
  return {
    kind: 'Action',
    predecessorId: SYSTEM_ACCOUNT,
    receiverId,
    signerId: SYSTEM_ACCOUNT,
    signerPublicKey: EMPTY_ED25519_KEY,
    gasPrice: 0n,
    outputDataReceivers: [],
    inputDataIds: [],
    actions: [{ type: 'Transfer', deposit: amount }],
  };
}

/** Receipt::new_gas_refund: signer and key are the payer's, so the key's allowance can be restored. */
export function gasRefund(signerId: string, amount: bigint, signerPublicKey: PublicKey): NewReceiptSpec {
  return { ...balanceRefund(signerId, amount), signerId, signerPublicKey } as NewReceiptSpec;
}
