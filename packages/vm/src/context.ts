// What the runtime tells the VM about the call (nearcore's VMContext) and what the VM hands back
// (VMOutcome). Field names are nearcore's.
import type { AccountContract } from '@nearlite/primitives';
import type { FunctionCallError } from './errors.js';
import type { ProfileDataV3 } from './profile.js';

export type PromiseResult =
  | { readonly kind: 'Successful'; readonly data: Uint8Array }
  | { readonly kind: 'Failed' }
  | { readonly kind: 'NotReady' };

export interface ViewConfig {
  readonly max_gas_burnt: bigint;
}

export interface VMContext {
  readonly current_account_id: string;
  readonly signer_account_id: string;
  /** borsh-serialized PublicKey (key-type byte ‖ key bytes), as nearcore stores it. */
  readonly signer_account_pk: Uint8Array;
  readonly predecessor_account_id: string;
  readonly input: Uint8Array;
  readonly promise_results: readonly PromiseResult[];
  readonly block_height: bigint;
  readonly block_timestamp: bigint;
  readonly epoch_height: bigint;
  /** The chain's id (genesis `chain_id`), as the `chain_id` host function returns it. */
  readonly chain_id: string;
  readonly account_balance: bigint;
  readonly account_locked_balance: bigint;
  readonly storage_usage: bigint;
  readonly attached_deposit: bigint;
  readonly prepaid_gas: bigint;
  readonly random_seed: Uint8Array;
  /** Non-null for view calls: state-changing host functions fail with ProhibitedInView. */
  readonly view_config: ViewConfig | null;
  /** Accounts waiting on this call's return value (data receipts); charged per returned byte. */
  readonly output_data_receivers: readonly string[];
  /** Where this receipt's balance refunds go (`refund_to_account_id`); the predecessor when absent. */
  readonly refund_to_account_id?: string;
  /** What the account runs, as `current_contract_code` reports it (none when absent). */
  readonly account_contract?: AccountContract;
}

export type ReturnData =
  | { readonly kind: 'None' }
  | { readonly kind: 'Value'; readonly data: Uint8Array }
  | { readonly kind: 'ReceiptIndex'; readonly index: number };

export interface VMOutcome {
  balance: bigint;
  storage_usage: bigint;
  return_data: ReturnData;
  burnt_gas: bigint;
  used_gas: bigint;
  /**
   * What the call counts toward the chunk's compute limit: burnt_gas with each host cost at its
   * compute cost (nearcore's total_compute_usage).
   */
  compute_usage: bigint;
  /**
   * Deposits a zero-balance contract attached to its calls without paying them (`one_yocto_on_promise`):
   * minted, so the chunk's balance_burnt is lowered by it.
   */
  subsidized_amount: bigint;
  logs: string[];
  aborted: FunctionCallError | null;
  /** What the burnt gas was spent on (nearcore's ProfileDataV3); empty for a call that never loaded. */
  profile: ProfileDataV3;
}
