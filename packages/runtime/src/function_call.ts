// The FunctionCall action through the Wasm VM: context, the External over the receiver's state,
// unused-gas distribution among weighted calls, and a timeout queued for every yield the call made
// (function_call.rs). (The contract's gas reward is the caller's.)
import {
  type Account,
  type Action,
  actionHash,
  balanceRefundReceiver,
  type Receipt,
} from '@nearlite/primitives';
import type { TrieUpdate } from '@nearlite/trie';
import {
  type ContractCache,
  type FunctionCallError,
  type ProfileDataV3,
  type PromiseResult,
  runFunction,
  type VMOutcome,
} from '@nearlite/vm';
import { resolveContract } from './global_contracts.js';
import { PromiseYieldTimeoutQueue } from './promise_yield.js';
import { type NewReceipt, type PromiseResumeData, RuntimeExt } from './receipt_builder.js';
import type { ExecContext } from './receipt_exec.js';
import { buildVMContext, createRandomSeed } from './vm_context.js';
import { functionCallErrorView } from './vm_error.js';

export interface FunctionCallInput {
  readonly ctx: ExecContext;
  readonly state: TrieUpdate;
  readonly receipt: Receipt;
  readonly action: Extract<Action, { type: 'FunctionCall' }>;
  readonly actionIndex: number;
  readonly account: Account;
  readonly promiseResults: readonly PromiseResult[];
  /** The chunk's recorded storage when the receipt began: its calls share one proof-size limit. */
  readonly storageProofSizeBeforeReceipt: number;
}

export interface FunctionCallOutput {
  readonly burntGas: bigint;
  /** The VM's compute usage (its burnt gas with host costs at their compute costs); absent: burntGas. */
  readonly computeUsage?: bigint;
  readonly usedGas: bigint;
  readonly logs: string[];
  readonly error: object | null;
  readonly account: Account;
  readonly receipts: NewReceipt[];
  /** Payloads of the yields this call resumed, sent after `receipts`. */
  readonly resumes?: PromiseResumeData[];
  readonly returnValue: Uint8Array | null;
  readonly returnReceiptIndex: number | null;
  /** The VM's gas profile of the call, failed or not. */
  readonly profile?: ProfileDataV3;
  /** Deposits the contract attached without paying them (`one_yocto_on_promise`). */
  readonly subsidizedAmount?: bigint;
}

/** Runs a FunctionCall action; the Wasm VM implements it (VmFunctionCallRunner). */
export interface FunctionCallRunner {
  run(input: FunctionCallInput): FunctionCallOutput;
}

export class VmFunctionCallRunner implements FunctionCallRunner {
  constructor(private readonly cache?: ContractCache) {}

  run(i: FunctionCallInput): FunctionCallOutput {
    const { ctx, state, receipt, action, account } = i;
    const ar = receipt.receipt;
    if (ar.kind !== 'Action') throw new TypeError('not an action receipt');
    const hash = actionHash(receipt.receiptId, ctx.blockHeight, i.actionIndex);
    const ext = new RuntimeExt(
      state,
      receipt.receiverId,
      hash,
      ctx.blockHeight,
      ctx.validators,
      i.storageProofSizeBeforeReceipt,
    );
    const contract = resolveContract(state, receipt.receiverId, account);
    const outcome: VMOutcome = runFunction({
      code: contract.code,
      codeHash: contract.hash,
      methodName: action.methodName,
      context: buildVMContext(ctx, account, {
        accountId: receipt.receiverId,
        signerId: ar.signerId,
        signerPublicKey: ar.signerPublicKey,
        predecessorId: receipt.predecessorId,
        input: action.args,
        promiseResults: i.promiseResults,
        attachedDeposit: action.deposit,
        prepaidGas: action.gas,
        randomSeed: createRandomSeed(hash, ctx.randomSeed),
        viewMaxGasBurnt: null,
        // Only the last action's result is the receipt's, so only it is told where that result goes
        // (value_return charges data-receipt bytes per receiver).
        outputDataReceivers:
          i.actionIndex === ar.actions.length - 1 ? ar.outputDataReceivers.map((o) => o.receiverId) : [],
        refundTo: balanceRefundReceiver(receipt),
      }),
      config: ctx.config.wasm,
      fees: ctx.config.fees,
      external: ext,
      ...(this.cache ? { cache: this.cache } : {}),
    });
    if (outcome.aborted) {
      return {
        burntGas: outcome.burnt_gas,
        computeUsage: outcome.compute_usage,
        usedGas: outcome.burnt_gas,
        logs: outcome.logs,
        error: functionCallErrorView(outcome.aborted as FunctionCallError),
        account,
        receipts: [],
        returnValue: null,
        returnReceiptIndex: null,
        profile: outcome.profile,
      };
    }
    const timeouts = new PromiseYieldTimeoutQueue(state);
    const timeoutLength = ctx.config.wasm.limit_config.yield_timeout_length_in_blocks;
    for (const r of ext.receipts) {
      if (!r.isPromiseYield) continue;
      timeouts.enqueue({
        accountId: receipt.receiverId,
        dataId: r.inputDataIds[0]!,
        expiresAt: BigInt(ctx.blockHeight) + timeoutLength,
      });
    }
    timeouts.flush();
    const unused = action.gas > outcome.used_gas ? action.gas - outcome.used_gas : 0n;
    const distributed = ext.distributeUnusedGas(unused);
    const rd = outcome.return_data;
    return {
      burntGas: outcome.burnt_gas,
      computeUsage: outcome.compute_usage,
      usedGas: outcome.used_gas + distributed,
      logs: outcome.logs,
      error: null,
      account: { ...account, amount: outcome.balance, storageUsage: outcome.storage_usage },
      receipts: ext.receipts,
      resumes: ext.resumes,
      returnValue: rd.kind === 'Value' ? rd.data : null,
      returnReceiptIndex: rd.kind === 'ReceiptIndex' ? rd.index : null,
      profile: outcome.profile,
      subsidizedAmount: outcome.subsidized_amount,
    };
  }
}
