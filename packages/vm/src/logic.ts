// VMLogic: the per-call state host functions work on (nearcore's logic/logic.rs), plus the helpers
// several host-function families share. The host functions themselves live in host/*.ts.
import { isValidAccountId } from '@nearlite/primitives';
import type { VMConfig } from './config.js';
import type { ReturnData, VMContext, VMOutcome } from './context.js';
import type { FunctionCallError } from './errors.js';
import { HostError, VMRunnerError } from './errors.js';
import type { External, ReceiptIndex } from './external.js';
import type { ActionCosts, RuntimeFeesConfig } from './fees.js';
import { sendFee } from './fees.js';
import { GasCounter } from './gas_counter.js';
import { type Memory, memoryOrRegister, Registers, U64_MAX } from './vmstate.js';

/** A promise is one receipt, or (after promise_and) a joint set of receipts. */
export type Promise = { readonly receipt: ReceiptIndex } | { readonly joint: readonly ReceiptIndex[] };

const utf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const utf16Decoder = new TextDecoder('utf-16le', { fatal: true, ignoreBOM: true });
const utf8Encoder = new TextEncoder();

export class VMLogic {
  readonly gas: GasCounter;
  readonly registers = new Registers();
  readonly promises: Promise[] = [];
  readonly logs: string[] = [];
  totalLogLength = 0n;
  returnData: ReturnData = { kind: 'None' };
  currentAccountBalance: bigint;
  subsidizedAmount = 0n;
  currentStorageUsage: bigint;
  readonly isView: boolean;
  memory: Memory | null = null;
  /** The chunk's recorded storage when the call's receipt began (nearcore's RecordedStorageCounter). */
  private readonly recordedStorageBeforeReceipt: number;

  constructor(
    readonly ext: External,
    readonly context: VMContext,
    readonly config: VMConfig,
    readonly fees: RuntimeFeesConfig,
  ) {
    this.isView = context.view_config !== null;
    const maxBurnt = context.view_config?.max_gas_burnt ?? config.limit_config.max_gas_burnt;
    this.gas = new GasCounter(config.ext_costs, maxBurnt, context.prepaid_gas, this.isView);
    this.currentAccountBalance = context.account_balance + context.attached_deposit;
    this.currentStorageUsage = context.storage_usage;
    this.recordedStorageBeforeReceipt = ext.storage_proof_size_before_receipt();
  }

  /**
   * After each storage operation: what the call's receipt has added to the chunk's recorded storage
   * proof, this call and the receipt's actions before it, may not pass
   * per_receipt_storage_proof_size_limit.
   */
  observeRecordedStorage(): void {
    const added = this.ext.get_recorded_storage_size() - this.recordedStorageBeforeReceipt;
    const limit = this.config.limit_config.per_receipt_storage_proof_size_limit;
    if (added > limit) throw new HostError({ RecordedStorageExceeded: { limit: BigInt(limit) } });
  }

  get mem(): Memory {
    if (this.memory === null)
      throw new VMRunnerError('WasmUnknownError', 'host function called without memory');
    return this.memory;
  }

  prohibitInView(methodName: string): void {
    if (this.isView) throw new HostError({ ProhibitedInView: { method_name: methodName } });
  }

  read(ptr: bigint, len: bigint): Uint8Array {
    return memoryOrRegister(this.gas, this.mem, this.registers, ptr, len);
  }

  setRegister(id: bigint, data: Uint8Array, chargeBytes = true): void {
    this.registers.set(this.gas, this.config.limit_config, id, data, chargeBytes);
  }

  deductBalance(amount: bigint): void {
    if (amount > this.currentAccountBalance) throw new HostError('BalanceExceeded');
    this.currentAccountBalance -= amount;
  }

  /**
   * The deposit of a function call this contract attaches to a promise. A contract with no balance may
   * attach exactly 1 yoctoNEAR (what `ft_transfer_call` and the like require) without paying it:
   * deterministic accounts can then call them before anyone funds them.
   */
  deductFunctionCallDeposit(amount: bigint): void {
    if (amount === 1n && this.config.one_yocto_on_promise && this.currentAccountBalance === 0n) {
      this.subsidizedAmount += amount;
      return;
    }
    this.deductBalance(amount);
  }

  checkCanAddLogMessage(): void {
    const limit = this.config.limit_config.max_number_logs;
    if (BigInt(this.logs.length) >= limit) throw new HostError({ NumberOfLogsExceeded: { limit } });
  }

  private totalLogLengthExceeded(add: bigint): never {
    const limit = this.config.limit_config.max_total_log_length;
    throw new HostError({ TotalLogLengthExceeded: { length: this.totalLogLength + add, limit } });
  }

  checkedPushLog(message: string): void {
    const len = BigInt(utf8Encoder.encode(message).length);
    this.totalLogLength += len;
    // nearcore's checked_push_log keeps the sum and then reports it plus the message's length again,
    // so the error counts this message twice.
    if (this.totalLogLength > this.config.limit_config.max_total_log_length) this.totalLogLengthExceeded(len);
    this.logs.push(message);
  }

  private maxLogLen(): bigint {
    const left = this.config.limit_config.max_total_log_length - this.totalLogLength;
    return left > 0n ? left : 0n;
  }

  /** nearcore's get_utf8_string; `len == u64::MAX` reads a NUL-terminated string byte by byte. */
  getUtf8String(len: bigint, ptr: bigint): string {
    this.gas.payBase('utf8_decoding_base');
    const maxLen = this.maxLogLen();
    let buf: Uint8Array;
    if (len !== U64_MAX) {
      if (len > maxLen) this.totalLogLengthExceeded(len);
      buf = this.mem.view(this.gas, ptr, len);
    } else {
      const bytes: number[] = [];
      for (let i = 0n; i <= maxLen; i++) {
        const el = this.mem.getU8(this.gas, ptr + i);
        if (el === 0) break;
        if (i === maxLen) this.totalLogLengthExceeded(maxLen + 1n);
        bytes.push(el);
      }
      buf = Uint8Array.from(bytes);
    }
    this.gas.payPer('utf8_decoding_byte', BigInt(buf.length));
    try {
      return utf8Decoder.decode(buf);
    } catch {
      throw new HostError('BadUTF8');
    }
  }

  /** nearcore's get_utf16_string; `len == u64::MAX` reads up to a 0x0000 code unit. */
  getUtf16String(len: bigint, ptr: bigint): string {
    this.gas.payBase('utf16_decoding_base');
    const maxLen = this.maxLogLen();
    let buf: Uint8Array;
    if (len === U64_MAX) {
      len = 0n;
      for (;;) {
        if (this.mem.getU16(this.gas, ptr + len) === 0) break;
        len += 2n;
        if (len > maxLen) this.totalLogLengthExceeded(len);
      }
      buf = this.mem.viewForFree(ptr, len);
    } else {
      buf = this.mem.view(this.gas, ptr, len);
    }
    if (buf.length % 2 !== 0) throw new HostError('BadUTF16');
    if (len > maxLen) this.totalLogLengthExceeded(len);
    this.gas.payPer('utf16_decoding_byte', len);
    try {
      return utf16Decoder.decode(buf);
    } catch {
      throw new HostError('BadUTF16');
    }
  }

  readAndParseAccountId(ptr: bigint, len: bigint): string {
    const buf = this.read(ptr, len);
    this.gas.payBase('utf8_decoding_base');
    this.gas.payPer('utf8_decoding_byte', BigInt(buf.length));
    let id: string;
    try {
      id = utf8Decoder.decode(buf);
    } catch {
      throw new HostError('BadUTF8');
    }
    if (!isValidAccountId(id)) throw new HostError('InvalidAccountId');
    return id;
  }

  checkedPushPromise(p: Promise): bigint {
    const idx = BigInt(this.promises.length);
    this.promises.push(p);
    const limit = this.config.limit_config.max_promises_per_function_call_action;
    const n = BigInt(this.promises.length);
    if (n > limit) throw new HostError({ NumberPromisesExceeded: { number_of_promises: n, limit } });
    return idx;
  }

  getPromise(promiseIdx: bigint): Promise {
    const p = promiseIdx < BigInt(this.promises.length) ? this.promises[Number(promiseIdx)] : undefined;
    if (p === undefined) throw new HostError({ InvalidPromiseIndex: { promise_idx: promiseIdx } });
    return p;
  }

  promiseIdxToReceiptIdxWithSir(promiseIdx: bigint): [ReceiptIndex, boolean] {
    const p = this.getPromise(promiseIdx);
    if (!('receipt' in p)) throw new HostError('CannotAppendActionToJointPromise');
    const receiver = this.ext.get_receipt_receiver(p.receipt);
    return [p.receipt, receiver === this.context.current_account_id];
  }

  payActionBase(action: ActionCosts, sir: boolean): void {
    const f = this.fees.fees[action];
    const burn = sendFee(f, sir);
    this.gas.payActionAccumulated(burn, burn + f.execution, action);
  }

  payActionPerByte(action: ActionCosts, numBytes: bigint, sir: boolean): void {
    const f = this.fees.fees[action];
    const burn = sendFee(f, sir) * numBytes;
    this.gas.payActionAccumulated(burn, burn + f.execution * numBytes, action);
  }

  /**
   * Receipt creation: dispatch fees plus data-dependency fees are burnt now, execution fees reserved.
   * nearcore books the data dependencies under new_action_receipt too (splitting them would change
   * the protocol's profiles).
   */
  payGasForNewReceipt(sir: boolean, dataDependencies: readonly boolean[]): void {
    const f = this.fees.fees;
    let burn = sendFee(f.new_action_receipt, sir);
    const use = f.new_action_receipt.execution;
    for (const dep of dataDependencies) {
      burn += sendFee(f.new_data_receipt_base, dep) + f.new_data_receipt_base.execution;
    }
    this.gas.payActionAccumulated(burn, use + burn, 'new_action_receipt');
  }

  outcome(aborted: FunctionCallError | null): VMOutcome {
    const burnt = this.gas.burntGas();
    const profile = this.gas.profileData();
    return {
      balance: this.currentAccountBalance,
      storage_usage: this.currentStorageUsage,
      return_data: this.returnData,
      burnt_gas: burnt,
      used_gas: this.gas.usedGas(),
      compute_usage: profile.totalComputeUsage(this.config.ext_costs, this.config.ext_compute_costs),
      subsidized_amount: aborted ? 0n : this.subsidizedAmount,
      logs: this.logs,
      aborted,
      profile,
    };
  }
}
