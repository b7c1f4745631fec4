// The contract between the state trie and its writers (runtime, genesis, sandbox patches).
import type { CryptoHash } from '@nearlite/primitives';

/** Why a key changed, as nearcore's `StateChangeCause` (serialized in RPC as `{type, tx_hash|receipt_hash}`). */
export type StateChangeCause =
  | { readonly type: 'not_writable_to_disk' }
  | { readonly type: 'initial_state' }
  | { readonly type: 'transaction_processing'; readonly txHash: CryptoHash }
  | { readonly type: 'action_receipt_processing_started'; readonly receiptHash: CryptoHash }
  | { readonly type: 'action_receipt_gas_reward'; readonly receiptHash: CryptoHash }
  | { readonly type: 'receipt_processing'; readonly receiptHash: CryptoHash }
  | { readonly type: 'postponed_receipt'; readonly receiptHash: CryptoHash }
  | { readonly type: 'updated_delayed_receipts' }
  | { readonly type: 'validator_accounts_update' }
  | { readonly type: 'migration' }
  | { readonly type: 'resharding' }
  | { readonly type: 'bandwidth_scheduler_state_update' };

/** One committed value of a key; `value === null` means the key was deleted. */
export interface StateChangeRecord {
  readonly cause: StateChangeCause;
  readonly value: Uint8Array | null;
}

/** Every change of one key during a chunk application, in order. */
export interface RawStateChangesWithTrieKey {
  readonly key: Uint8Array;
  readonly changes: readonly StateChangeRecord[];
}

/** The net effect of a TrieUpdate: final value per touched key (`null` = deleted), keys ascending. */
export interface TrieUpdateResult {
  readonly changes: readonly { readonly key: Uint8Array; readonly value: Uint8Array | null }[];
  readonly stateChanges: readonly RawStateChangesWithTrieKey[];
}
