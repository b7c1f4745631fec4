// Executing one action receipt as nearcore's apply_action_receipt does: exec fees, each action in
// order (the last action's result is the receipt's result), the storage-stake check, rollback on
// failure, refunds, the contract's gas reward, and the promise result forwarded to waiting receipts.
// New receipts keep nearcore's order (their index salts their id): the actions' receipts, then the
// deposit refund, the gas refund, then data receipts.
import {
  type AccountContract,
  balanceRefundReceiver,
  type CryptoHash,
  type Receipt,
  SYSTEM_ACCOUNT,
} from '@nearlite/primitives';
import type { TrieUpdate } from '@nearlite/trie';
import { ProfileDataV3, type PromiseResult } from '@nearlite/vm';
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
  transferToGasKey,
  withdrawFromGasKey,
  writeAccount,
} from './actions.js';
import type { RuntimeConfig } from './config/runtime_config.js';
import { deterministicStateInit } from './deterministic_account_id.js';
import { currentContract, padContracts } from './execution_metadata.js';
import { execCompute, execFee, totalPrepaidExecFees, totalPrepaidGas, totalPrepaidSendFees } from './fees.js';
import type { FunctionCallRunner } from './function_call.js';
import { deployGlobalContract, useGlobalContract } from './global_contracts.js';
import { type NewReceiptSpec, specReceiptSize } from './receipt_spec.js';
import { gasBurnPrice, refundUnspent } from './refunds.js';
import { getAccount, setAccount, storageShortfall } from './state.js';
import { validateActions } from './verifier.js';

export type { NewReceiptSpec } from './receipt_spec.js';

export interface ReceiptResult {
  logs: string[];
  gasBurnt: bigint;
  /**
   * What the receipt counts toward the chunk's compute limit: its burnt gas with a deployment's and
   * the host functions' compute costs in place of their gas (nearcore's compute_usage).
   */
  computeUsage: bigint;
  /** The outcome's tokens_burnt. */
  tokensBurnt: bigint;
  /** What the chunk destroys: tokensBurnt less the contract's reward, plus an undeliverable refund. */
  balanceBurnt: bigint;
  error: object | null;
  returnValue: Uint8Array | null;
  returnReceiptIndex: number | null;
  newReceipts: NewReceiptSpec[];
  validatorProposals: ActionContext['validatorProposals'];
  /** What the contract calls burnt their gas on; the receipt's own exec fees are not in it. */
  profile: ProfileDataV3;
  /** Per action, the receiver's contract right before the action ran (ExecutionMetadataV4). */
  contracts: AccountContract[];
}

export interface ExecContext {
  readonly shardId: number;
  readonly blockHeight: number;
  readonly blockTimestamp: bigint;
  readonly epochHeight: number;
  readonly chainId: string;
  readonly gasPrice: bigint;
  readonly randomSeed: CryptoHash;
  readonly config: RuntimeConfig;
  readonly validators: ReadonlyMap<string, bigint>;
  readonly minimumStake?: bigint;
  readonly functionCall?: FunctionCallRunner;
}

type ReturnData =
  | { kind: 'None' }
  | { kind: 'Value'; data: Uint8Array }
  | { kind: 'ReceiptIndex'; index: number };

interface Progress {
  gasBurnt: bigint;
  compute: bigint;
  gasUsed: bigint;
  /** Gas the VM burnt, the base of the contract's reward (counted even when the call fails). */
  gasBurntForFunctionCall: bigint;
  logs: string[];
  returnData: ReturnData;
  profile: ProfileDataV3;
}

export function executeActionReceipt(
  ctx: ExecContext,
  state: TrieUpdate,
  receipt: Receipt,
  promiseResults: PromiseResult[],
): ReceiptResult {
  const ar = receipt.receipt;
  if (ar.kind !== 'Action') throw new TypeError('not an action receipt');
  const c = ctx.config;
  const receiptHash = receipt.receiptId;
  // Whatever the receipt's arrival changed (promise results taken) is committed before it runs.
  state.commit({ type: 'action_receipt_processing_started', receiptHash });
  const isRefund = receipt.predecessorId === SYSTEM_ACCOUNT;
  const account = getAccount(state, receipt.receiverId);
  // The receipt's proof-size baseline comes after its receiver is read, as nearcore takes it: the
  // account's path never counts against the receipt's calls.
  const storageProofSizeBeforeReceipt = state.recordedStorageSize();
  const actx: ActionContext = {
    state,
    config: c,
    receiverId: receipt.receiverId,
    predecessorId: receipt.predecessorId,
    actorId: receipt.predecessorId,
    signerId: ar.signerId,
    signerPublicKey: ar.signerPublicKey,
    gasPrice: ar.gasPrice,
    blockHeight: ctx.blockHeight,
    chainId: ctx.chainId,
    minimumStake: ctx.minimumStake ?? 0n,
    isRefund,
    isOnlyAction: ar.actions.length === 1,
    balanceRefundReceiver: balanceRefundReceiver(receipt),
    account,
    storageProofSizeBeforeReceipt,
    newReceipts: [],
    validatorProposals: [],
    tokensBurnt: 0n,
    subsidizedAmount: 0n,
    extraCompute: 0n,
  };
  const existedBefore = actx.account !== null;
  const exec = c.fees.fees.new_action_receipt.execution;
  const p: Progress = {
    gasBurnt: exec,
    compute: exec,
    gasUsed: exec,
    gasBurntForFunctionCall: 0n,
    logs: [],
    returnData: { kind: 'None' },
    profile: new ProfileDataV3(),
  };
  const contracts: AccountContract[] = [];
  let error: { index: number | null; kind: ActionErrorKind } | null = null;
  for (const [i, action] of ar.actions.entries()) {
    const fee = execFee(c, action, receipt.receiverId);
    p.gasBurnt += fee;
    p.compute += execCompute(c, action, receipt.receiverId);
    p.gasUsed += fee;
    p.returnData = { kind: 'None' };
    contracts.push(currentContract(actx.account));
    const before = actx.newReceipts.length;
    const kind =
      applyAction(ctx, actx, receipt, i, promiseResults, p) ??
      validateNewReceipts(c, actx.newReceipts, before);
    if (kind !== null) {
      error = { index: i, kind };
      break;
    }
  }
  if (!error && actx.account) {
    const short = storageShortfall(actx.account, c.storageAmountPerByte);
    if (short > 0n) {
      error = {
        index: null,
        kind: { LackBalanceForState: { account_id: receipt.receiverId, amount: short.toString() } },
      };
    } else writeAccount(actx);
  }
  // A failed receipt keeps its logs and gas but none of its effects.
  const newReceipts = error ? [] : actx.newReceipts;
  const burnPrice = gasBurnPrice(ar.gasPrice, ctx.gasPrice);
  // The receipt created its receiver (CreateAccount, or a transfer to an implicit account).
  const createdAccount = !error && !existedBefore && actx.account !== null;
  const refunds = isRefund
    ? { receipts: [], accountCreationCharge: 0n }
    : refundUnspent(c, burnPrice, receipt, error !== null, p.gasBurnt, p.gasUsed, createdAccount);
  newReceipts.push(...refunds.receipts);
  if (error) state.rollback();
  else state.commit({ type: 'receipt_processing', receiptHash });

  // A refund's outcome reports the gas its actions burnt (it counts toward the chunk's gas too), but
  // the refund is free: it burns no tokens.
  const gasBurnt = p.gasBurnt;
  let tokensBurnt = isRefund ? 0n : gasBurnt * burnPrice + refunds.accountCreationCharge;
  if (!error) tokensBurnt += actx.tokensBurnt;
  const tokensBurntForOutcome = tokensBurnt;
  const [num, den] = c.burntGasReward;
  const reward = ((p.gasBurntForFunctionCall * num) / den) * burnPrice;
  if (reward > 0n) {
    const acc = getAccount(state, receipt.receiverId);
    if (acc) {
      tokensBurnt -= reward;
      setAccount(state, receipt.receiverId, { ...acc, amount: acc.amount + reward });
      state.commit({ type: 'action_receipt_gas_reward', receiptHash });
    }
  }

  const rd: ReturnData = error ? { kind: 'None' } : p.returnData;
  if (ar.outputDataReceivers.length > 0) {
    if (rd.kind === 'ReceiptIndex') {
      const target = newReceipts[rd.index] as Extract<NewReceiptSpec, { kind: 'Action' }>;
      target.outputDataReceivers.push(...ar.outputDataReceivers);
    } else {
      const data = error ? null : rd.kind === 'Value' ? rd.data : new Uint8Array(0);
      for (const odr of ar.outputDataReceivers) {
        newReceipts.push({
          kind: 'Data',
          predecessorId: receipt.receiverId,
          receiverId: odr.receiverId,
          dataId: odr.dataId,
          data,
        });
      }
    }
  }
  // A refund that cannot be delivered (its receiver is gone) is burnt.
  const lostBalance = isRefund && error ? refundAmount(receipt) : 0n;
  return {
    logs: p.logs,
    gasBurnt,
    computeUsage: p.compute + actx.extraCompute,
    tokensBurnt: tokensBurntForOutcome,
    // nearcore's chunk balance_burnt is the burnt amounts less what successful receipts subsidized.
    balanceBurnt: tokensBurnt + lostBalance - (error ? 0n : actx.subsidizedAmount),
    error: error ? { ActionError: { index: error.index, kind: error.kind } } : null,
    returnValue: rd.kind === 'Value' ? rd.data : rd.kind === 'None' && !error ? new Uint8Array(0) : null,
    returnReceiptIndex: rd.kind === 'ReceiptIndex' ? rd.index : null,
    newReceipts,
    validatorProposals: error ? [] : actx.validatorProposals,
    profile: p.profile,
    contracts: padContracts(contracts, ar.actions.length),
  };
}

/**
 * nearcore's validate_receipt for the receipts one action created (a contract's promises, a
 * delegate's inner receipt, a global contract's distribution): each within max_receipt_size, an
 * action receipt's actions passing the checks a transaction's do against its own receiver; the
 * first that fails fails the action with NewReceiptValidationError.
 */
function validateNewReceipts(
  c: RuntimeConfig,
  receipts: readonly NewReceiptSpec[],
  from: number,
): ActionErrorKind | null {
  const limit = c.wasm.limit_config.max_receipt_size;
  for (let i = from; i < receipts.length; i++) {
    const r = receipts[i]!;
    const size = BigInt(specReceiptSize(r));
    if (size > limit) return { NewReceiptValidationError: { ReceiptSizeExceeded: { size, limit } } };
    if (r.kind !== 'Action') continue;
    const err = validateActions(c, r.actions, r.receiverId);
    if (err !== null) return { NewReceiptValidationError: { ActionsValidation: err } };
  }
  return null;
}

function refundAmount(receipt: Receipt): bigint {
  const ar = receipt.receipt;
  if (ar.kind !== 'Action') return 0n;
  let sum = 0n;
  for (const a of ar.actions) if (a.type === 'Transfer') sum += a.deposit;
  return sum;
}

function applyAction(
  ctx: ExecContext,
  actx: ActionContext,
  receipt: Receipt,
  i: number,
  promiseResults: PromiseResult[],
  p: Progress,
): ActionErrorKind | null {
  const ar = receipt.receipt as Extract<Receipt['receipt'], { kind: 'Action' }>;
  const action = ar.actions[i]!;
  switch (action.type) {
    case 'CreateAccount':
      return createAccount(actx);
    case 'Transfer':
      return transfer(actx, action.deposit);
    case 'DeployContract':
      return deployContract(actx, action.code);
    case 'AddKey':
      return addKey(actx, action);
    case 'DeleteKey':
      return deleteKey(actx, action);
    case 'DeleteAccount':
      return deleteAccount(actx, action.beneficiaryId);
    case 'Stake':
      return stake(actx, action);
    case 'Delegate':
    case 'DelegateV2': {
      const kind = delegate(actx, action);
      if (kind === null) {
        // The inner receipt's gas was bought with this one: it is used (not refunded) here, and the
        // inner send fees are burnt here because the inner receipt is sent now.
        const c = ctx.config;
        const d = action.delegateAction;
        const prepaidSend = totalPrepaidSendFees(c, ar.actions);
        p.gasUsed +=
          c.fees.fees.new_action_receipt.execution +
          totalPrepaidExecFees(c, d.actions, d.receiverId) +
          totalPrepaidGas(d.actions) +
          prepaidSend;
        p.gasBurnt += prepaidSend;
        p.compute += prepaidSend;
      }
      return kind;
    }
    case 'FunctionCall':
      return functionCall(ctx, actx, receipt, i, promiseResults, p);
    case 'DeployGlobalContract':
      return deployGlobalContract(actx, action.code, action.deployMode, ctx.shardId);
    case 'UseGlobalContract':
      return useGlobalContract(actx, action.identifier);
    case 'DeterministicStateInit':
      return deterministicStateInit(actx, action);
    case 'TransferToGasKey':
      return transferToGasKey(actx, action);
    case 'WithdrawFromGasKey':
      return withdrawFromGasKey(actx, action);
  }
}

function functionCall(
  ctx: ExecContext,
  actx: ActionContext,
  receipt: Receipt,
  i: number,
  promiseResults: PromiseResult[],
  p: Progress,
): ActionErrorKind | null {
  const ar = receipt.receipt as Extract<Receipt['receipt'], { kind: 'Action' }>;
  const action = ar.actions[i] as Extract<(typeof ar.actions)[number], { type: 'FunctionCall' }>;
  if (!actx.account) return { AccountDoesNotExist: { account_id: receipt.receiverId } };
  // The deposit is not added here: the VM starts from the balance plus the attached deposit
  // (nearcore's VMLogic), and its outcome's balance becomes the account's, written with the receipt.
  if (!ctx.functionCall) {
    return {
      FunctionCallError: { CompilationError: { CodeDoesNotExist: { account_id: receipt.receiverId } } },
    };
  }
  const r = ctx.functionCall.run({
    ctx,
    state: actx.state,
    receipt,
    action,
    actionIndex: i,
    account: actx.account,
    promiseResults,
    storageProofSizeBeforeReceipt: actx.storageProofSizeBeforeReceipt,
  });
  p.gasBurnt += r.burntGas;
  p.compute += r.computeUsage ?? r.burntGas;
  p.gasUsed += r.usedGas;
  p.gasBurntForFunctionCall += r.burntGas;
  p.logs.push(...r.logs);
  if (r.profile) p.profile.merge(r.profile);
  if (r.error) return { FunctionCallError: r.error };
  actx.account = r.account;
  actx.subsidizedAmount += r.subsidizedAmount ?? 0n;
  const offset = actx.newReceipts.length;
  for (const n of r.receipts) {
    actx.newReceipts.push({
      kind: 'Action',
      predecessorId: receipt.receiverId,
      receiverId: n.receiverId,
      signerId: ar.signerId,
      signerPublicKey: ar.signerPublicKey,
      gasPrice: ar.gasPrice,
      outputDataReceivers: n.outputDataReceivers,
      inputDataIds: n.inputDataIds,
      actions: n.actions,
      ...(n.isPromiseYield ? { isPromiseYield: true as const } : {}),
      // nearcore's action_function_call makes every receipt a contract creates an
      // ActionReceiptV2 (ActionV2 / PromiseYieldV2), its refund_to None unless the contract set it.
      refundTo: n.refundTo ?? null,
    });
  }
  // Resumes follow the call's action receipts, so the returned receipt index stays valid.
  for (const resume of r.resumes ?? []) {
    actx.newReceipts.push({
      kind: 'Data',
      predecessorId: receipt.receiverId,
      receiverId: receipt.receiverId,
      dataId: resume.dataId,
      data: resume.data,
      isPromiseResume: true,
    });
  }
  p.returnData =
    r.returnReceiptIndex !== null
      ? { kind: 'ReceiptIndex', index: offset + r.returnReceiptIndex }
      : r.returnValue !== null
        ? { kind: 'Value', data: r.returnValue }
        : { kind: 'None' };
  return null;
}
