// The request vocabulary shared by the RPC layer and the chain's views, declared once. Names follow
// nearcore's (BlockReference, TxExecutionStatus, StateChangesRequestView).
import type { CryptoHash } from './hash.js';

export type Finality = 'optimistic' | 'near-final' | 'final';

/**
 * A block height, or a block hash (already base58-decoded and 32 bytes long). A height a double
 * cannot hold is a bigint: a request may name one, though no block is there.
 */
export type BlockId = number | bigint | CryptoHash;

export type BlockReference =
  | { readonly finality: Finality }
  | { readonly blockId: BlockId }
  | { readonly syncCheckpoint: 'genesis' | 'earliest_available' };

/** nearcore's TxExecutionStatus variants, in its order (the order its unknown-variant error lists). */
export const TX_EXECUTION_STATUSES = [
  'NONE',
  'INCLUDED',
  'EXECUTED_OPTIMISTIC',
  'INCLUDED_FINAL',
  'EXECUTED',
  'FINAL',
] as const;

export type TxExecutionStatus = (typeof TX_EXECUTION_STATUSES)[number];

export type ChangesRequest =
  | { readonly changesType: 'account_changes'; readonly accountIds: readonly string[] }
  | {
      readonly changesType: 'single_access_key_changes';
      readonly keys: readonly { readonly accountId: string; readonly publicKey: string }[];
    }
  | { readonly changesType: 'all_access_key_changes'; readonly accountIds: readonly string[] }
  | { readonly changesType: 'contract_code_changes'; readonly accountIds: readonly string[] }
  | {
      readonly changesType: 'data_changes';
      readonly accountIds: readonly string[];
      readonly keyPrefix: Uint8Array;
    };
