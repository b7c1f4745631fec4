// Shared test scaffolding: the real protocol config, a Map-backed External that records every
// receipt and action, a default VMContext, and WAT compilation through wabt.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { GlobalContractIdentifier, PublicKey } from '@nearlite/primitives';
import {
  type External,
  HostError,
  parseFeesConfig,
  parseVMConfig,
  type ReceiptIndex,
  type StorageAccessTracker,
  type VMContext,
} from '@nearlite/vm';

const raw = JSON.parse(readFileSync(new URL('./fixtures/runtime_config.json', import.meta.url), 'utf8'));
export const rawConfig = raw as { wasm_config: Record<string, unknown>; transaction_costs: unknown };
// The snapshot predates the host-function flags protocol 85 turned on (it says gas keys are off and
// names none of the others): the tests run those functions as they are from 85 on.
export const config = parseVMConfig({
  ...raw.wasm_config,
  global_contract_host_fns: true,
  gas_key_host_fns: true,
  p256_verify_host_fn: true,
  yield_with_id_host_fns: true,
  chain_id_host_fn: true,
});
export const fees = parseFeesConfig(raw.transaction_costs);

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

export interface RecordedReceipt {
  receiver_id: string;
  deps: readonly ReceiptIndex[];
  actions: unknown[];
  yield?: boolean;
}

export class MockExternal implements External {
  readonly storage = new Map<string, Uint8Array>();
  readonly receipts: RecordedReceipt[] = [];
  readonly resumed: { data_id: Uint8Array; data: Uint8Array }[] = [];
  validators = new Map<string, bigint>([['alice.near', 100n]]);
  private dataIds = 0;

  // Like nearcore's MockedExternal: the old value's bytes are charged; there is no trie to touch.
  storage_set(t: StorageAccessTracker, key: Uint8Array, value: Uint8Array): Uint8Array | null {
    const k = hex(key);
    const old = this.storage.get(k) ?? null;
    if (old) t.deref_write_evicted_value_bytes(BigInt(old.length));
    this.storage.set(k, value.slice());
    return old;
  }
  storage_get(_t: StorageAccessTracker, key: Uint8Array): Uint8Array | null {
    return this.storage.get(hex(key)) ?? null;
  }
  storage_remove(t: StorageAccessTracker, key: Uint8Array): Uint8Array | null {
    const k = hex(key);
    const old = this.storage.get(k) ?? null;
    if (old) t.deref_removed_value_bytes(BigInt(old.length));
    this.storage.delete(k);
    return old;
  }
  storage_has_key(_t: StorageAccessTracker, key: Uint8Array): boolean {
    return this.storage.has(hex(key));
  }
  /** What get_recorded_storage_size answers; a test moves it to stand for the chunk's recording. */
  recordedStorageSize = 0;
  get_recorded_storage_size(): number {
    return this.recordedStorageSize;
  }
  storage_proof_size_before_receipt(): number {
    return this.recordedStorageSize;
  }
  generate_data_id(): Uint8Array {
    return new Uint8Array(32).fill(++this.dataIds);
  }
  validator_stake(account_id: string): bigint | null {
    return this.validators.get(account_id) ?? null;
  }
  validator_total_stake(): bigint {
    let t = 0n;
    for (const v of this.validators.values()) t += v;
    return t;
  }
  create_action_receipt(receipt_indices: readonly ReceiptIndex[], receiver_id: string): ReceiptIndex {
    this.receipts.push({ receiver_id, deps: [...receipt_indices], actions: [] });
    return this.receipts.length - 1;
  }
  create_promise_yield_receipt(receiver_id: string): { receipt_index: ReceiptIndex; data_id: Uint8Array } {
    this.receipts.push({ receiver_id, deps: [], actions: [], yield: true });
    return { receipt_index: this.receipts.length - 1, data_id: this.generate_data_id() };
  }
  /** Pending yields by yield id (hex), as the runtime's YieldIdToDataId mapping. */
  readonly yieldIds = new Map<string, Uint8Array>();
  create_promise_yield_receipt_with_id(
    receiver_id: string,
    yield_id: Uint8Array,
  ): { receipt_index: ReceiptIndex; data_id: Uint8Array } | null {
    if (this.yieldIds.has(hex(yield_id))) return null;
    const created = this.create_promise_yield_receipt(receiver_id);
    this.yieldIds.set(hex(yield_id), created.data_id);
    return created;
  }
  submit_promise_resume_data(data_id: Uint8Array, data: Uint8Array): boolean {
    this.resumed.push({ data_id, data });
    return true;
  }
  submit_promise_resume_data_with_yield_id(yield_id: Uint8Array, data: Uint8Array): boolean {
    const dataId = this.yieldIds.get(hex(yield_id));
    if (dataId === undefined) return false;
    return this.submit_promise_resume_data(dataId, data);
  }
  private push(i: ReceiptIndex, action: unknown): void {
    const r = this.receipts[i];
    if (r === undefined) throw new Error(`unknown receipt ${i}`);
    r.actions.push(action);
  }
  append_action_create_account(i: ReceiptIndex): void {
    this.push(i, { CreateAccount: {} });
  }
  append_action_deploy_contract(i: ReceiptIndex, code: Uint8Array): void {
    this.push(i, { DeployContract: { code: hex(code) } });
  }
  append_action_function_call_weight(
    i: ReceiptIndex,
    method_name: Uint8Array,
    args: Uint8Array,
    deposit: bigint,
    gas: bigint,
    gas_weight: bigint,
  ): void {
    const dec = new TextDecoder();
    this.push(i, {
      FunctionCall: {
        method_name: dec.decode(method_name),
        args: dec.decode(args),
        deposit,
        gas,
        gas_weight,
      },
    });
  }
  append_action_transfer(i: ReceiptIndex, deposit: bigint): void {
    this.push(i, { Transfer: { deposit } });
  }
  append_action_stake(i: ReceiptIndex, stake: bigint, pk: PublicKey): void {
    this.push(i, { Stake: { stake, public_key: hex(pk.data) } });
  }
  append_action_add_key_with_full_access(i: ReceiptIndex, pk: PublicKey, nonce: bigint): void {
    this.push(i, { AddKey: { public_key: hex(pk.data), nonce, permission: 'FullAccess' } });
  }
  append_action_add_key_with_function_call(
    i: ReceiptIndex,
    pk: PublicKey,
    nonce: bigint,
    allowance: bigint | null,
    receiver_id: string,
    method_names: readonly Uint8Array[],
  ): void {
    const names = method_names.map((m) => new TextDecoder().decode(m));
    this.push(i, {
      AddKey: { public_key: hex(pk.data), nonce, allowance, receiver_id, method_names: names },
    });
  }
  append_action_transfer_to_gas_key(i: ReceiptIndex, pk: PublicKey, deposit: bigint): void {
    this.push(i, { TransferToGasKey: { public_key: hex(pk.data), deposit } });
  }
  append_action_add_gas_key(
    i: ReceiptIndex,
    pk: PublicKey,
    num_nonces: number,
    fc: { allowance: bigint | null; receiver_id: string; method_names: readonly Uint8Array[] } | null,
  ): void {
    const names = fc?.method_names.map((m) => new TextDecoder().decode(m));
    this.push(i, {
      AddGasKey: fc
        ? {
            public_key: hex(pk.data),
            num_nonces,
            allowance: fc.allowance,
            receiver_id: fc.receiver_id,
            method_names: names,
          }
        : { public_key: hex(pk.data), num_nonces },
    });
  }
  append_action_delete_key(i: ReceiptIndex, pk: PublicKey): void {
    this.push(i, { DeleteKey: { public_key: hex(pk.data) } });
  }
  append_action_delete_account(i: ReceiptIndex, beneficiary_id: string): void {
    this.push(i, { DeleteAccount: { beneficiary_id } });
  }
  append_action_deploy_global_contract(i: ReceiptIndex, code: Uint8Array, mode: 0 | 1): void {
    this.push(i, { DeployGlobalContract: { code: hex(code), deploy_mode: mode } });
  }
  append_action_use_global_contract(i: ReceiptIndex, id: GlobalContractIdentifier): void {
    this.push(i, {
      UseGlobalContract: id.kind === 'CodeHash' ? { code_hash: hex(id.hash) } : { account_id: id.accountId },
    });
  }
  append_action_deterministic_state_init(
    i: ReceiptIndex,
    id: GlobalContractIdentifier,
    deposit: bigint,
  ): number {
    this.push(i, {
      DeterministicStateInit: {
        code: id.kind === 'CodeHash' ? { code_hash: hex(id.hash) } : { account_id: id.accountId },
        data: {} as Record<string, string>,
        deposit,
      },
    });
    return this.receipts[i]!.actions.length - 1;
  }
  set_deterministic_state_init_data_entry(
    i: ReceiptIndex,
    actionIndex: bigint,
    key: Uint8Array,
    value: Uint8Array,
  ): void {
    const a = this.receipts[i]?.actions[Number(actionIndex)] as
      | { DeterministicStateInit?: { data: Record<string, string> } }
      | undefined;
    if (!a?.DeterministicStateInit)
      throw new HostError({ InvalidActionIndex: { receipt_index: BigInt(i), action_index: actionIndex } });
    const data = a.DeterministicStateInit.data;
    if (hex(key) in data) throw new HostError('DataEntryAlreadyExists');
    data[hex(key)] = hex(value);
  }
  set_refund_to(i: ReceiptIndex, accountId: string): void {
    this.push(i, { RefundTo: accountId });
  }
  get_receipt_receiver(i: ReceiptIndex): string {
    const r = this.receipts[i];
    if (r === undefined) throw new Error(`unknown receipt ${i}`);
    return r.receiver_id;
  }
}

export function makeContext(over: Partial<VMContext> = {}): VMContext {
  return {
    current_account_id: 'contract.near',
    signer_account_id: 'alice.near',
    signer_account_pk: new Uint8Array(33),
    predecessor_account_id: 'bob.near',
    input: new Uint8Array(0),
    promise_results: [],
    block_height: 10n,
    block_timestamp: 1_700_000_000_000_000_000n,
    epoch_height: 3n,
    chain_id: 'test',
    account_balance: 1_000_000n,
    account_locked_balance: 7n,
    storage_usage: 1000n,
    attached_deposit: 5n,
    prepaid_gas: 300_000_000_000_000n,
    random_seed: new Uint8Array(32).fill(9),
    view_config: null,
    output_data_receivers: [],
    ...over,
  };
}

type Wabt = {
  parseWat(name: string, src: string): { toBinary(o: object): { buffer: Uint8Array }; destroy(): void };
};
const require = createRequire(import.meta.url);
const wabtPromise: Promise<Wabt> = (require('wabt') as () => Promise<Wabt>)();

export async function wat(src: string): Promise<Uint8Array> {
  const w = await wabtPromise;
  const m = w.parseWat('contract.wat', src);
  try {
    return new Uint8Array(m.toBinary({}).buffer);
  } finally {
    m.destroy();
  }
}

let hashCounter = 0;
/** A fresh fake code hash per compiled contract, so tests never share cache entries by accident. */
export function freshHash(): Uint8Array {
  const h = new Uint8Array(32);
  new DataView(h.buffer).setUint32(0, ++hashCounter);
  h[31] = 0xaa;
  return h;
}

import { IMPORT_TABLE, runFunction, type VMOutcome } from '@nearlite/vm';

/** `(import "env" …)` lines for every host function, named `$<name>`. */
export const ALL_IMPORTS = Object.entries(IMPORT_TABLE)
  .map(([name, d]) => {
    const params = d.params.length > 0 ? ` (param ${d.params.join(' ')})` : '';
    const result = d.result === null ? '' : ` (result ${d.result})`;
    return `(import "env" "${name}" (func $${name}${params}${result}))`;
  })
  .join('\n');

/** A module with every import, one page of memory, and `body` (functions, data). */
export function contract(body: string): Promise<Uint8Array> {
  return wat(`(module ${ALL_IMPORTS} (memory 1) ${body})`);
}

export interface Call {
  code: Uint8Array;
  codeHash: Uint8Array;
  method: string;
  context?: Partial<VMContext>;
  external?: MockExternal;
}

export function call(c: Call): VMOutcome {
  return runFunction({
    code: c.code,
    codeHash: c.codeHash,
    methodName: c.method,
    context: makeContext(c.context),
    config,
    fees,
    external: c.external ?? new MockExternal(),
  });
}

export const text = (b: Uint8Array): string => new TextDecoder().decode(b);

/** The u64 in a value's first eight bytes, little-endian, as contracts write one to value_return. */
export const u64le = (b: Uint8Array): bigint => new DataView(b.buffer, b.byteOffset, 8).getBigUint64(0, true);

export function returned(o: VMOutcome): Uint8Array {
  if (o.return_data.kind !== 'Value')
    throw new Error(
      `no value returned: ${JSON.stringify(o.aborted, (_k, v) => (typeof v === 'bigint' ? String(v) : v))}`,
    );
  return o.return_data.data;
}
