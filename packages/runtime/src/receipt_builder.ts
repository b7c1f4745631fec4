// Receipts a contract creates while it runs (nearcore's ReceiptManager), and the VM's External over
// the TrieUpdate of the executing account. Yield status and yield-id mappings are written to that
// TrieUpdate as the contract runs (ext.rs), so they commit or roll back with the receipt.
import {
  type Action,
  type CryptoHash,
  compareBytes,
  dataId,
  fromUtf8,
  type GlobalContractIdentifier,
  type PublicKey,
} from '@nearlite/primitives';
import { type TrieUpdate, trieKeyContractData } from '@nearlite/trie';
import { type External, HostError, type ReceiptIndex, type StorageAccessTracker } from '@nearlite/vm';
import {
  getDataIdForYieldId,
  hasPromiseYieldReceipt,
  hasPromiseYieldStatus,
  hasYieldIdMapping,
  PromiseYieldStatus,
  setPromiseYieldStatus,
  setYieldIdMapping,
} from './promise_yield.js';

export interface NewReceipt {
  receiverId: string;
  actions: Action[];
  inputDataIds: CryptoHash[];
  outputDataReceivers: { dataId: CryptoHash; receiverId: string }[];
  /** A PromiseYield receipt: its one input is delivered by a resume or the timeout. */
  isPromiseYield: boolean;
  /** Set by `promise_set_refund_to`: where the receipt's balance refunds go. */
  refundTo?: string;
}

/** A resume's payload, sent as a PromiseResume receipt to the account itself. */
export interface PromiseResumeData {
  dataId: CryptoHash;
  data: Uint8Array;
}

/** A function call with a gas weight: where it is and its weight. */
interface WeightedCall {
  readonly receipt: NewReceipt;
  readonly action: number;
  readonly weight: bigint;
}

/** nearcore's String::from_utf8 of a name a contract passed, failing the call when it is not UTF-8. */
function methodName(bytes: Uint8Array): string {
  try {
    return fromUtf8(bytes);
  } catch {
    throw new HostError('InvalidMethodName');
  }
}

/**
 * nearcore's ext.rs around a write or remove: the lookup's path goes through the accounting first;
 * `payBytes` pays for the old value (and may run out of gas, leaving the value unread); the value is
 * then dereferenced through it; the nodes are charged last, those met for the first time in the chunk
 * (touching_trie_node) before those met again (read_cached_trie_node).
 */
function lookUp(state: TrieUpdate, t: StorageAccessTracker, key: Uint8Array, payBytes: () => void): void {
  const path = state.touchedNodes(key);
  payBytes();
  let touched = path.touched;
  let cached = path.cached;
  if (path.valueHash !== null) {
    if (state.touchValue(path.valueHash)) cached++;
    else touched++;
  }
  if (touched > 0) t.trie_node_touched(BigInt(touched));
  if (cached > 0) t.cached_trie_node_access(BigInt(cached));
}

export class RuntimeExt implements External {
  readonly receipts: NewReceipt[] = [];
  readonly resumes: PromiseResumeData[] = [];
  /** In the order the calls were appended, across receipts, as nearcore's gas_weights. */
  private readonly weightedCalls: WeightedCall[] = [];
  private dataCount = 0;

  constructor(
    private readonly state: TrieUpdate,
    private readonly accountId: string,
    private readonly actionHashValue: CryptoHash,
    private readonly blockHeight: number,
    private readonly validators: ReadonlyMap<string, bigint>,
    /** The recorded storage when the executing receipt began; null for views. */
    private readonly proofSizeBeforeReceipt: number | null = null,
  ) {}

  private key(k: Uint8Array): Uint8Array {
    return trieKeyContractData(this.accountId, k);
  }

  // nearcore's ext.rs: writes and removes look the key up through the trie (MemOrTrie), so they pay
  // for the old value's bytes and for every trie node the lookup touched (its path and the value),
  // none when the chunk already wrote the key (lookUp).
  storage_set(t: StorageAccessTracker, key: Uint8Array, value: Uint8Array): Uint8Array | null {
    const k = this.key(key);
    const prev = this.state.get(k) ?? null;
    lookUp(this.state, t, k, () => {
      if (prev) t.deref_write_evicted_value_bytes(BigInt(prev.length));
    });
    this.state.set(k, value);
    return prev;
  }

  // Reads and has_key go through flat storage (MemOrFlatOrTrie): no node is charged, and the value
  // is dereferenced with a free gas counter (storage_value_read).
  storage_get(_t: StorageAccessTracker, key: Uint8Array): Uint8Array | null {
    return this.state.get(this.key(key)) ?? null;
  }

  // The dereference goes through the chunk's accounting, uncharged: a later write meets it cached.
  storage_value_read(key: Uint8Array, value: Uint8Array): void {
    this.state.readValue(this.key(key), value);
  }

  storage_remove(t: StorageAccessTracker, key: Uint8Array): Uint8Array | null {
    const k = this.key(key);
    const prev = this.state.get(k) ?? null;
    lookUp(this.state, t, k, () => {
      if (prev) t.deref_removed_value_bytes(BigInt(prev.length));
    });
    // nearcore removes unconditionally: an absent key is then in the chunk's overlay too.
    this.state.remove(k);
    return prev;
  }

  storage_has_key(_t: StorageAccessTracker, key: Uint8Array): boolean {
    return this.state.has(this.key(key));
  }

  get_recorded_storage_size(): number {
    return this.state.recordedStorageSize();
  }

  storage_proof_size_before_receipt(): number {
    return this.proofSizeBeforeReceipt ?? this.get_recorded_storage_size();
  }

  generate_data_id(): Uint8Array {
    return dataId(this.actionHashValue, this.blockHeight, this.dataCount++);
  }

  validator_stake(account_id: string): bigint | null {
    return this.validators.get(account_id) ?? null;
  }

  validator_total_stake(): bigint {
    let sum = 0n;
    for (const v of this.validators.values()) sum += v;
    return sum;
  }

  create_action_receipt(receipt_indices: readonly ReceiptIndex[], receiver_id: string): ReceiptIndex {
    const inputDataIds: CryptoHash[] = [];
    for (const i of receipt_indices) {
      const id = this.generate_data_id();
      this.receipts[i]!.outputDataReceivers.push({ dataId: id, receiverId: receiver_id });
      inputDataIds.push(id);
    }
    this.receipts.push({
      receiverId: receiver_id,
      actions: [],
      inputDataIds,
      outputDataReceivers: [],
      isPromiseYield: false,
    });
    return this.receipts.length - 1;
  }

  private pushYieldReceipt(receiverId: string, dataId: CryptoHash): ReceiptIndex {
    this.receipts.push({
      receiverId,
      actions: [],
      inputDataIds: [dataId],
      outputDataReceivers: [],
      isPromiseYield: true,
    });
    return this.receipts.length - 1;
  }

  create_promise_yield_receipt(receiver_id: string): { receipt_index: ReceiptIndex; data_id: Uint8Array } {
    const data_id = this.generate_data_id();
    const receipt_index = this.pushYieldReceipt(receiver_id, data_id);
    setPromiseYieldStatus(this.state, receiver_id, data_id, PromiseYieldStatus.Yielded);
    return { receipt_index, data_id };
  }

  // The TrieUpdate already holds this call's own writes, so an id used earlier in the same call is
  // a duplicate too.
  create_promise_yield_receipt_with_id(
    receiver_id: string,
    yield_id: Uint8Array,
  ): { receipt_index: ReceiptIndex; data_id: Uint8Array } | null {
    if (hasYieldIdMapping(this.state, receiver_id, yield_id)) return null;
    const data_id = this.generate_data_id();
    setYieldIdMapping(this.state, receiver_id, yield_id, data_id);
    const receipt_index = this.pushYieldReceipt(receiver_id, data_id);
    setPromiseYieldStatus(this.state, receiver_id, data_id, PromiseYieldStatus.Yielded);
    return { receipt_index, data_id };
  }

  // A yield parked by an earlier receipt is in the trie; one created by this call so far has only
  // its status. Either way the resume is sent and the status records it, so the timeout that may
  // still fire is discarded when it arrives.
  submit_promise_resume_data(data_id: Uint8Array, data: Uint8Array): boolean {
    const parked = hasPromiseYieldReceipt(this.state, this.accountId, data_id);
    if (!parked && !hasPromiseYieldStatus(this.state, this.accountId, data_id)) return false;
    this.resumes.push({ dataId: data_id.slice(), data: data.slice() });
    setPromiseYieldStatus(this.state, this.accountId, data_id, PromiseYieldStatus.ResumeInitiated);
    return true;
  }

  submit_promise_resume_data_with_yield_id(yield_id: Uint8Array, data: Uint8Array): boolean {
    const dataId = getDataIdForYieldId(this.state, this.accountId, yield_id);
    return dataId !== null && this.submit_promise_resume_data(dataId, data);
  }

  private push(i: ReceiptIndex, a: Action): void {
    this.receipts[i]!.actions.push(a);
  }

  append_action_create_account(i: ReceiptIndex): void {
    this.push(i, { type: 'CreateAccount' });
  }

  append_action_deploy_contract(i: ReceiptIndex, code: Uint8Array): void {
    this.push(i, { type: 'DeployContract', code: code.slice() });
  }

  append_action_function_call_weight(
    i: ReceiptIndex,
    method_name: Uint8Array,
    args: Uint8Array,
    attached_deposit: bigint,
    prepaid_gas: bigint,
    gas_weight: bigint,
  ): void {
    const r = this.receipts[i]!;
    const name = methodName(method_name);
    if (gas_weight > 0n)
      this.weightedCalls.push({ receipt: r, action: r.actions.length, weight: gas_weight });
    r.actions.push({
      type: 'FunctionCall',
      methodName: name,
      args: args.slice(),
      gas: prepaid_gas,
      deposit: attached_deposit,
    });
  }

  append_action_transfer(i: ReceiptIndex, deposit: bigint): void {
    this.push(i, { type: 'Transfer', deposit });
  }

  append_action_stake(i: ReceiptIndex, stake: bigint, publicKey: PublicKey): void {
    this.push(i, { type: 'Stake', stake, publicKey });
  }

  append_action_add_key_with_full_access(i: ReceiptIndex, publicKey: PublicKey, nonce: bigint): void {
    this.push(i, { type: 'AddKey', publicKey, accessKey: { nonce, permission: { kind: 'FullAccess' } } });
  }

  append_action_transfer_to_gas_key(i: ReceiptIndex, publicKey: PublicKey, deposit: bigint): void {
    this.push(i, { type: 'TransferToGasKey', publicKey, deposit });
  }

  append_action_add_gas_key(
    i: ReceiptIndex,
    publicKey: PublicKey,
    num_nonces: number,
    fc: {
      readonly allowance: bigint | null;
      readonly receiver_id: string;
      readonly method_names: readonly Uint8Array[];
    } | null,
  ): void {
    const gasKey = { balance: 0n, numNonces: num_nonces };
    const permission = fc
      ? {
          kind: 'FunctionCall' as const,
          allowance: fc.allowance,
          receiverId: fc.receiver_id,
          methodNames: fc.method_names.map(methodName),
          gasKey,
        }
      : { kind: 'FullAccess' as const, gasKey };
    this.push(i, { type: 'AddKey', publicKey, accessKey: { nonce: 0n, permission } });
  }

  append_action_add_key_with_function_call(
    i: ReceiptIndex,
    publicKey: PublicKey,
    nonce: bigint,
    allowance: bigint | null,
    receiver_id: string,
    method_names: readonly Uint8Array[],
  ): void {
    this.push(i, {
      type: 'AddKey',
      publicKey,
      accessKey: {
        nonce,
        permission: {
          kind: 'FunctionCall',
          allowance,
          receiverId: receiver_id,
          methodNames: method_names.map(methodName),
        },
      },
    });
  }

  append_action_delete_key(i: ReceiptIndex, publicKey: PublicKey): void {
    this.push(i, { type: 'DeleteKey', publicKey });
  }

  append_action_delete_account(i: ReceiptIndex, beneficiary_id: string): void {
    this.push(i, { type: 'DeleteAccount', beneficiaryId: beneficiary_id });
  }

  append_action_deploy_global_contract(i: ReceiptIndex, code: Uint8Array, mode: 0 | 1): void {
    this.push(i, { type: 'DeployGlobalContract', code: code.slice(), deployMode: mode });
  }

  append_action_use_global_contract(i: ReceiptIndex, identifier: GlobalContractIdentifier): void {
    this.push(i, { type: 'UseGlobalContract', identifier });
  }

  append_action_deterministic_state_init(
    i: ReceiptIndex,
    code: GlobalContractIdentifier,
    deposit: bigint,
  ): number {
    this.push(i, { type: 'DeterministicStateInit', code, data: [], deposit });
    return this.receipts[i]!.actions.length - 1;
  }

  set_deterministic_state_init_data_entry(
    i: ReceiptIndex,
    actionIndex: bigint,
    key: Uint8Array,
    value: Uint8Array,
  ): void {
    const actions = this.receipts[i]!.actions;
    const a = actionIndex < BigInt(actions.length) ? actions[Number(actionIndex)] : undefined;
    if (a?.type !== 'DeterministicStateInit')
      throw new HostError({ InvalidActionIndex: { receipt_index: BigInt(i), action_index: actionIndex } });
    // The data is a map in key order, as borsh encodes nearcore's BTreeMap.
    let at = 0;
    while (at < a.data.length && compareBytes(a.data[at]![0], key) < 0) at++;
    if (at < a.data.length && compareBytes(a.data[at]![0], key) === 0)
      throw new HostError('DataEntryAlreadyExists');
    const data = [...a.data];
    data.splice(at, 0, [key, value]);
    actions[Number(actionIndex)] = { ...a, data };
  }

  set_refund_to(i: ReceiptIndex, accountId: string): void {
    this.receipts[i]!.refundTo = accountId;
  }

  get_receipt_receiver(i: ReceiptIndex): string {
    return this.receipts[i]!.receiverId;
  }

  /**
   * nearcore's distribute_unused_gas: weighted function calls share the gas the call did not use,
   * each its weight's share rounded down, and the last call appended takes what rounding left.
   */
  distributeUnusedGas(unused: bigint): bigint {
    let total = 0n;
    for (const c of this.weightedCalls) total += c.weight;
    if (total === 0n || unused === 0n) return 0n;
    let given = 0n;
    this.weightedCalls.forEach((c, n) => {
      const a = c.receipt.actions[c.action] as Extract<Action, { type: 'FunctionCall' }>;
      let share = (unused * c.weight) / total;
      given += share;
      if (n === this.weightedCalls.length - 1) {
        share += unused - given;
        given = unused;
      }
      c.receipt.actions[c.action] = { ...a, gas: a.gas + share };
    });
    return given;
  }
}
