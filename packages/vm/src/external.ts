// The synchronous interface the runtime implements over its TrieUpdate and receipt manager
// (nearcore's `External`, logic/dependencies.rs). The VM never imports store, trie or runtime.
import type { GlobalContractIdentifier, PublicKey } from '@nearlite/primitives';

/** Receipt indices are the External's own numbering (nearcore's ReceiptIndex, u64). */
export type ReceiptIndex = number;

/**
 * Lets the External charge trie-access gas while it reads (nearcore's StorageAccessTracker).
 * Each method throws a HostError (GasExceeded / GasLimitExceeded) when gas runs out.
 */
export interface StorageAccessTracker {
  trie_node_touched(count: bigint): void;
  cached_trie_node_access(count: bigint): void;
  deref_write_evicted_value_bytes(bytes: bigint): void;
  deref_removed_value_bytes(bytes: bigint): void;
}

export interface External {
  /** Writes `value` under `key` of the current account; returns the previous value, if any. */
  storage_set(tracker: StorageAccessTracker, key: Uint8Array, value: Uint8Array): Uint8Array | null;
  storage_get(tracker: StorageAccessTracker, key: Uint8Array): Uint8Array | null;
  /**
   * `storage_read` paid for the value `storage_get` found and dereferences it (nearcore's
   * ValuePtr::deref, with a free gas counter): what the chunk's trie accounting learns of it.
   */
  storage_value_read?(key: Uint8Array, value: Uint8Array): void;
  /** Removes `key`; returns the removed value, if any. */
  storage_remove(tracker: StorageAccessTracker, key: Uint8Array): Uint8Array | null;
  storage_has_key(tracker: StorageAccessTracker, key: Uint8Array): boolean;
  /**
   * nearcore's get_recorded_storage_size: the upper bound of the storage proof the chunk has
   * recorded so far; 0 where nothing is recorded (view calls).
   */
  get_recorded_storage_size(): number;
  /**
   * nearcore's storage_proof_size_before_receipt: the upper bound as it stood when the executing
   * receipt began (after its receiver's account was read), so that its function calls together add
   * at most per_receipt_storage_proof_size_limit (protocol 86's EnforcePerReceiptStorageProofLimit).
   * Where no receipt is executing (views), the current size.
   */
  storage_proof_size_before_receipt(): number;

  generate_data_id(): Uint8Array;
  /** Stake of `account_id` in the current epoch, or null if it is not a validator. */
  validator_stake(account_id: string): bigint | null;
  validator_total_stake(): bigint;

  create_action_receipt(receipt_indices: readonly ReceiptIndex[], receiver_id: string): ReceiptIndex;
  /** Creates a PromiseYield receipt with one data dependency; returns it and the 32-byte data id. */
  create_promise_yield_receipt(receiver_id: string): { receipt_index: ReceiptIndex; data_id: Uint8Array };
  /**
   * The same under a caller-chosen 32-byte yield id; null (and nothing created) while a yield with
   * that id is still pending for the account.
   */
  create_promise_yield_receipt_with_id(
    receiver_id: string,
    yield_id: Uint8Array,
  ): { receipt_index: ReceiptIndex; data_id: Uint8Array } | null;
  /** True if `data_id` is a pending yield of this account; its resume is then sent with `data`. */
  submit_promise_resume_data(data_id: Uint8Array, data: Uint8Array): boolean;
  /** `submit_promise_resume_data` for the yield created under `yield_id`; false if there is none. */
  submit_promise_resume_data_with_yield_id(yield_id: Uint8Array, data: Uint8Array): boolean;

  append_action_create_account(receipt_index: ReceiptIndex): void;
  append_action_deploy_contract(receipt_index: ReceiptIndex, code: Uint8Array): void;
  append_action_function_call_weight(
    receipt_index: ReceiptIndex,
    method_name: Uint8Array,
    args: Uint8Array,
    attached_deposit: bigint,
    prepaid_gas: bigint,
    gas_weight: bigint,
  ): void;
  append_action_transfer(receipt_index: ReceiptIndex, deposit: bigint): void;
  append_action_stake(receipt_index: ReceiptIndex, stake: bigint, public_key: PublicKey): void;
  append_action_add_key_with_full_access(
    receipt_index: ReceiptIndex,
    public_key: PublicKey,
    nonce: bigint,
  ): void;
  append_action_add_key_with_function_call(
    receipt_index: ReceiptIndex,
    public_key: PublicKey,
    nonce: bigint,
    allowance: bigint | null,
    receiver_id: string,
    method_names: readonly Uint8Array[],
  ): void;
  append_action_delete_key(receipt_index: ReceiptIndex, public_key: PublicKey): void;
  append_action_transfer_to_gas_key(
    receipt_index: ReceiptIndex,
    public_key: PublicKey,
    deposit: bigint,
  ): void;
  /** An AddKey of a gas key (balance 0): full access, or calls as the `functionCall` permission says. */
  append_action_add_gas_key(
    receipt_index: ReceiptIndex,
    public_key: PublicKey,
    num_nonces: number,
    function_call: {
      readonly allowance: bigint | null;
      readonly receiver_id: string;
      readonly method_names: readonly Uint8Array[];
    } | null,
  ): void;
  append_action_delete_account(receipt_index: ReceiptIndex, beneficiary_id: string): void;
  /** `mode` 0 deploys under the code's hash, 1 under the current account's id. */
  append_action_deploy_global_contract(receipt_index: ReceiptIndex, code: Uint8Array, mode: 0 | 1): void;
  append_action_use_global_contract(receipt_index: ReceiptIndex, id: GlobalContractIdentifier): void;
  /** Appends a DeterministicStateInit with no data yet; returns its index among the receipt's actions. */
  append_action_deterministic_state_init(
    receipt_index: ReceiptIndex,
    code: GlobalContractIdentifier,
    deposit: bigint,
  ): number;
  /**
   * Adds one entry to the receipt's DeterministicStateInit at `action_index`: InvalidActionIndex if
   * there is no such action there, DataEntryAlreadyExists if the key is set already.
   */
  set_deterministic_state_init_data_entry(
    receipt_index: ReceiptIndex,
    action_index: bigint,
    key: Uint8Array,
    value: Uint8Array,
  ): void;

  /** Balance refunds of the receipt go to `account_id` (ActionReceiptV2's refund_to). */
  set_refund_to(receipt_index: ReceiptIndex, account_id: string): void;
  get_receipt_receiver(receipt_index: ReceiptIndex): string;
}
