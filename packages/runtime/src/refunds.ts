// nearcore's refund of an action receipt (refund_unspent_gas_and_deposits at protocol 85+, NEP-536
// with the refund penalty at 0, as every shipped parameter file sets it). Gas was bought at the
// receipt's price and is burnt at the lower of that and the chunk's price, so there is never a
// deficit; the surplus of the burnt gas goes back to the signer, less the account-creation charge
// when the receipt created an account. A failed receipt's deposits go back to its
// balance refund receiver (its refund_to, else its predecessor).
import { balanceRefundReceiver, type Receipt } from '@nearlite/primitives';
import type { RuntimeConfig } from './config/runtime_config.js';
import { totalDeposit, totalPrepaidExecFees, totalPrepaidGas, totalPrepaidSendFees } from './fees.js';
import { balanceRefund, gasRefund, type NewReceiptSpec } from './receipt_spec.js';

export interface Refunds {
  readonly receipts: NewReceiptSpec[];
  /** Taken from the price surplus of a receipt that created an account, and burnt. */
  readonly accountCreationCharge: bigint;
}

/** The price a receipt's burnt gas is charged at: never above what it was bought at. */
export function gasBurnPrice(purchasePrice: bigint, chunkGasPrice: bigint): bigint {
  return chunkGasPrice < purchasePrice ? chunkGasPrice : purchasePrice;
}

export function refundUnspent(
  c: RuntimeConfig,
  burnPrice: bigint,
  receipt: Receipt,
  failed: boolean,
  gasBurnt: bigint,
  gasUsed: bigint,
  createdAccount: boolean,
): Refunds {
  const ar = receipt.receipt;
  if (ar.kind !== 'Action') return { receipts: [], accountCreationCharge: 0n };
  const purchasePrice = ar.gasPrice;
  const prepaid =
    totalPrepaidGas(ar.actions) +
    totalPrepaidSendFees(c, ar.actions) +
    totalPrepaidExecFees(c, ar.actions, receipt.receiverId) +
    c.fees.fees.new_action_receipt.execution;
  const spent = failed ? gasBurnt : gasUsed;
  const gasRefundAmount = prepaid > spent ? prepaid - spent : 0n;
  const unusedRefund = gasRefundAmount * purchasePrice;
  // The burn price never exceeds the purchase price (gasBurnPrice), so there is no price deficit.
  let surplus = (purchasePrice - burnPrice) * gasBurnt;
  let accountCreationCharge = 0n;
  if (createdAccount) {
    const burnedCost = burnPrice * c.fees.fees.create_account.execution;
    const wanted = c.accountCreationCharge > burnedCost ? c.accountCreationCharge - burnedCost : 0n;
    // Gas bought before the floor existed may not cover it; nearcore then charges what there is.
    accountCreationCharge = wanted < surplus ? wanted : surplus;
    surplus -= accountCreationCharge;
  }
  const balance = unusedRefund + surplus;
  const receipts: NewReceiptSpec[] = [];
  const deposit = failed ? totalDeposit(ar.actions) : 0n;
  if (deposit > 0n) receipts.push(balanceRefund(balanceRefundReceiver(receipt), deposit));
  if (balance > 0n) receipts.push(gasRefund(ar.signerId, balance, ar.signerPublicKey));
  return { receipts, accountCreationCharge };
}
