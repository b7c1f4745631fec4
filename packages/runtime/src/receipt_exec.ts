// Executing one action receipt: exec fees, each action in order, the storage-stake check, rollback on
// failure, promise results forwarded as data receipts, and refunds (nearcore's apply_action_receipt).
import {
  type Action,
  type CryptoHash,
  type PublicKey,
  type Receipt,
  SYSTEM_ACCOUNT,
} from '@nearlite/primitives';
import { type TrieUpdate, trieKeyAccount } from '@nearlite/trie';
import type { PromiseResult } from '@nearlite/vm';
import {
  type ActionContext,
  type ActionErrorKind,
  addKey,
  createAccount,
  delegate,
  deleteAccount,
  deleteKey,
  deployContract,
  stake,
  transfer,
  writeAccount,
} from './actions.js';
import type { RuntimeConfig } from './config/runtime_config.js';
import { execFee, totalDeposit, totalPrepaidExecFees, totalPrepaidGas } from './fees.js';
import type { FunctionCallRunner } from './function_call.js';
import { getAccount, storageShortfall } from './state.js';

export type NewReceiptSpec =
  | {
      kind: 'Action';
      predecessorId: string;
      receiverId: string;
      signerId: string;
      signerPublicKey: PublicKey | null;
      gasPrice: bigint;
      outputDataReceivers: { dataId: CryptoHash; receiverId: string }[];
      inputDataIds: CryptoHash[];
      actions: Action[];
    }
  | { kind: 'Data'; predecessorId: string; receiverId: string; dataId: CryptoHash; data: Uint8Array | null };

export interface ReceiptResult {
  logs: string[];
  gasBurnt: bigint;
  tokensBurnt: bigint;
  /** Gas reward credited to the contract (part of tokensBurnt that is not destroyed). */
  reward: bigint;
  /** Balance that could not be delivered (a refund to a deleted account) and is burnt. */
  lostBalance: bigint;
  error: object | null;
  returnValue: Uint8Array | null;
  returnReceiptIndex: number | null;
  newReceipts: NewReceiptSpec[];
  validatorProposals: ActionContext['validatorProposals'];
}

export interface ExecContext {
  readonly blockHeight: number;
  readonly blockTimestamp: bigint;
  readonly epochHeight: number;
  readonly gasPrice: bigint;
  readonly randomSeed: CryptoHash;
  readonly config: RuntimeConfig;
  readonly validators: ReadonlyMap<string, bigint>;
  readonly functionCall?: FunctionCallRunner;
  readonly actionHash: (index: number) => CryptoHash;
}

const refund = (receiverId: string, amount: bigint): NewReceiptSpec => ({
  kind: 'Action',
  predecessorId: SYSTEM_ACCOUNT,
  receiverId,
  signerId: SYSTEM_ACCOUNT,
  signerPublicKey: null,
  gasPrice: 0n,
  outputDataReceivers: [],
  inputDataIds: [],
  actions: [{ type: 'Transfer', deposit: amount }],
});

export function executeActionReceipt(
  ctx: ExecContext,
  state: TrieUpdate,
  receipt: Receipt,
  promiseResults: PromiseResult[],
): ReceiptResult {
  const ar = receipt.receipt;
  if (ar.kind !== 'Action') throw new TypeError('not an action receipt');
  const c = ctx.config;
  const isRefund = receipt.predecessorId === SYSTEM_ACCOUNT;
  const existedBefore = getAccount(state, receipt.receiverId) !== null;
  const actx: ActionContext = {
    state,
    config: c,
    receiverId: receipt.receiverId,
    actorId: receipt.predecessorId,
    signerId: ar.signerId,
    blockHeight: ctx.blockHeight,
    account: getAccount(state, receipt.receiverId),
    newReceipts: [],
    validatorProposals: [],
  };
  let gasBurnt = isRefund ? 0n : c.fees.fees.new_action_receipt.execution;
  let gasUsed = gasBurnt;
  const logs: string[] = [];
  let vmReceipts: NewReceiptSpec[] = [];
  let returnValue: Uint8Array | null = null;
  let returnIndex: number | null = null;
  let reward = 0n;
  let error: { index: number | null; kind: ActionErrorKind } | null = null;

  for (const [i, action] of ar.actions.entries()) {
    if (!isRefund) {
      const fee = execFee(c, action, receipt.receiverId);
      gasBurnt += fee;
      gasUsed += fee;
    }
    let kind: ActionErrorKind | null = null;
    switch (action.type) {
      case 'CreateAccount':
        kind = createAccount(actx);
        break;
      case 'Transfer':
        kind = transfer(actx, action.deposit, i === 0);
        break;
      case 'DeployContract':
        kind = deployContract(actx, action.code);
        break;
      case 'AddKey':
        kind = addKey(actx, action);
        break;
      case 'DeleteKey':
        kind = deleteKey(actx, action);
        break;
      case 'DeleteAccount':
        kind = deleteAccount(actx, action.beneficiaryId);
        break;
      case 'Stake':
        kind = stake(actx, action);
        break;
      case 'Delegate': {
        kind = delegate(actx, action);
        if (kind === null) {
          // The inner receipt's execution was prepaid with this one; it is used now, not refunded.
          const d = action.delegateAction;
          gasUsed +=
            c.fees.fees.new_action_receipt.execution +
            totalPrepaidExecFees(c, d.actions, d.receiverId) +
            totalPrepaidGas(d.actions);
        }
        break;
      }
      case 'FunctionCall': {
        if (!actx.account) {
          kind = { AccountDoesNotExist: { account_id: receipt.receiverId } };
          break;
        }
        actx.account = { ...actx.account, amount: actx.account.amount + action.deposit };
        writeAccount(actx);
        if (!ctx.functionCall) {
          kind = {
            FunctionCallError: { CompilationError: { CodeDoesNotExist: { account_id: receipt.receiverId } } },
          };
          break;
        }
        const r = ctx.functionCall.run({
          ctx,
          state,
          receipt,
          action,
          actionIndex: i,
          account: actx.account,
          promiseResults,
        });
        gasBurnt += r.burntGas;
        gasUsed += r.usedGas;
        logs.push(...r.logs);
        if (r.error) {
          kind = { FunctionCallError: r.error };
          break;
        }
        actx.account = r.account;
        reward += r.reward;
        vmReceipts = r.receipts.map((n) => ({
          kind: 'Action',
          predecessorId: receipt.receiverId,
          receiverId: n.receiverId,
          signerId: ar.signerId,
          signerPublicKey: ar.signerPublicKey,
          gasPrice: ar.gasPrice,
          outputDataReceivers: n.outputDataReceivers,
          inputDataIds: n.inputDataIds,
          actions: n.actions,
        }));
        returnValue = r.returnValue;
        returnIndex = r.returnReceiptIndex;
        break;
      }
      default:
        kind = { UnsupportedAction: { action: action.type } };
    }
    if (kind !== null) {
      error = { index: i, kind };
      break;
    }
  }
  if (!error) {
    if (actx.account) {
      writeAccount(actx);
      const short = storageShortfall(actx.account, c.storageAmountPerByte);
      if (short > 0n)
        error = {
          index: null,
          kind: { LackBalanceForState: { account_id: receipt.receiverId, amount: short.toString() } },
        };
    } else if (existedBefore) state.remove(trieKeyAccount(receipt.receiverId));
  }
  const newReceipts: NewReceiptSpec[] = [];
  let lostBalance = 0n;
  if (error) {
    state.rollback();
    vmReceipts = [];
    returnValue = null;
    returnIndex = null;
    reward = 0n;
  } else {
    if (reward > 0n) {
      const acc = getAccount(state, receipt.receiverId);
      if (acc) actx.account = { ...acc, amount: acc.amount + reward };
      writeAccount(actx);
    }
    state.commit({ type: 'receipt_processing', receiptHash: receipt.receiptId });
    newReceipts.push(...vmReceipts);
    for (const n of actx.newReceipts) {
      newReceipts.push(
        n.predecessorId === SYSTEM_ACCOUNT
          ? refund(n.receiverId, (n.actions[0] as { deposit: bigint }).deposit)
          : {
              kind: 'Action',
              predecessorId: n.predecessorId,
              receiverId: n.receiverId,
              signerId: ar.signerId,
              signerPublicKey: ar.signerPublicKey,
              gasPrice: ar.gasPrice,
              outputDataReceivers: [],
              inputDataIds: [],
              actions: n.actions,
            },
      );
    }
  }
  // The caller's promise result: forwarded to the receipt this call returned, or sent as data.
  if (returnIndex !== null) {
    const target = newReceipts[returnIndex] as Extract<NewReceiptSpec, { kind: 'Action' }>;
    target.outputDataReceivers.push(...ar.outputDataReceivers);
  } else {
    for (const odr of ar.outputDataReceivers) {
      newReceipts.push({
        kind: 'Data',
        predecessorId: receipt.receiverId,
        receiverId: odr.receiverId,
        dataId: odr.dataId,
        data: error ? null : (returnValue ?? new Uint8Array(0)),
      });
    }
  }
  if (isRefund) {
    if (error) lostBalance = totalDeposit(ar.actions);
  } else {
    const deposit = error ? totalDeposit(ar.actions) : 0n;
    const prepaid =
      totalPrepaidGas(ar.actions) +
      totalPrepaidExecFees(c, ar.actions, receipt.receiverId) +
      c.fees.fees.new_action_receipt.execution;
    const spent = error ? gasBurnt : gasUsed;
    const gasRefund = prepaid > spent ? prepaid - spent : 0n;
    let gasBalanceRefund = gasRefund * ar.gasPrice;
    if (ar.gasPrice > ctx.gasPrice) gasBalanceRefund += (ar.gasPrice - ctx.gasPrice) * gasBurnt;
    if (deposit > 0n) newReceipts.push(refund(receipt.predecessorId, deposit));
    if (gasBalanceRefund > 0n) newReceipts.push(refund(ar.signerId, gasBalanceRefund));
  }
  return {
    logs,
    gasBurnt,
    tokensBurnt: gasBurnt * ctx.gasPrice,
    reward,
    lostBalance,
    error: error ? { ActionError: { index: error.index, kind: error.kind } } : null,
    returnValue,
    returnReceiptIndex: returnIndex,
    newReceipts,
    validatorProposals: error ? [] : actx.validatorProposals,
  };
}
