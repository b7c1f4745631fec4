// nearcore's error JSON (InvalidTxError, ActionError kinds), built as plain values.
import { formatPublicKey, type PublicKey } from '@nearlite/primitives';

export type InvalidTxError = string | Record<string, unknown>;

export const invalidTx = {
  signerDoesNotExist: (signer_id: string) => ({ SignerDoesNotExist: { signer_id } }),
  accessKeyNotFound: (account_id: string, pk: PublicKey) => ({
    InvalidAccessKeyError: { AccessKeyNotFound: { account_id, public_key: formatPublicKey(pk) } },
  }),
  invalidNonce: (tx_nonce: bigint, ak_nonce: bigint) => ({ InvalidNonce: { tx_nonce, ak_nonce } }),
  invalidNonceIndex: (tx_nonce_index: number | null, num_nonces: number) => ({
    InvalidNonceIndex: { tx_nonce_index, num_nonces },
  }),
  notEnoughGasKeyBalance: (signer_id: string, balance: bigint, cost: bigint) => ({
    NotEnoughGasKeyBalance: { signer_id, balance: balance.toString(), cost: cost.toString() },
  }),
  notEnoughBalanceForDeposit: (
    signer_id: string,
    balance: bigint,
    cost: bigint,
    reason: 'NotEnoughBalance' | 'LackBalanceForState',
  ) => ({
    NotEnoughBalanceForDeposit: { signer_id, balance: balance.toString(), cost: cost.toString(), reason },
  }),
  nonceTooLarge: (tx_nonce: bigint, upper_bound: bigint) => ({ NonceTooLarge: { tx_nonce, upper_bound } }),
  notEnoughBalance: (signer_id: string, balance: bigint, cost: bigint) => ({
    NotEnoughBalance: { signer_id, balance: balance.toString(), cost: cost.toString() },
  }),
  notEnoughAllowance: (account_id: string, pk: PublicKey, allowance: bigint, cost: bigint) => ({
    InvalidAccessKeyError: {
      NotEnoughAllowance: {
        account_id,
        public_key: formatPublicKey(pk),
        allowance: allowance.toString(),
        cost: cost.toString(),
      },
    },
  }),
  lackBalanceForState: (signer_id: string, amount: bigint) => ({
    LackBalanceForState: { signer_id, amount: amount.toString() },
  }),
  accessKey: (inner: unknown) => ({ InvalidAccessKeyError: inner }),
  actionsValidation: (inner: unknown) => ({ ActionsValidation: inner }),
  sizeExceeded: (size: number, limit: number) => ({ TransactionSizeExceeded: { size, limit } }),
};

export interface ActionError {
  readonly index: number | null;
  readonly kind: unknown;
}
