// nearcore's refund of an action receipt (generate_refund_receipts / NEP-536 with the penalty at 0,
// as every shipped parameter file sets it): a failed receipt's deposits go back to the predecessor,
// unspent prepaid gas to the signer at the price it was bought; a price drop since purchase is
// refunded too, a price rise is a deficit taken from the refund first and then from what is burnt.
import type { Receipt } from '@nearlite/primitives';
import type { RuntimeConfig } from './config/runtime_config.js';
import { totalDeposit, totalPrepaidExecFees, totalPrepaidGas, totalPrepaidSendFees } from './fees.js';
import { balanceRefund, gasRefund, type NewReceiptSpec } from './receipt_spec.js';

export interface Refunds {
  readonly receipts: NewReceiptSpec[];
  /** Burnt gas the signer did not pay for because the gas price rose after the purchase. */
  readonly gasDeficit: bigint;
}

export function refundUnspent(
  c: RuntimeConfig,
  currentGasPrice: bigint,
  receipt: Receipt,
  failed: boolean,
  gasBurnt: bigint,
  gasUsed: bigint,
): Refunds {
  const ar = receipt.receipt;
  if (ar.kind !== 'Action') return { receipts: [], gasDeficit: 0n };
  const prepaid =
    totalPrepaidGas(ar.actions) +
    totalPrepaidSendFees(c, ar.actions) +
    totalPrepaidExecFees(c, ar.actions, receipt.receiverId) +
    c.fees.fees.new_action_receipt.execution;
  const spent = failed ? gasBurnt : gasUsed;
  const gasRefundAmount = prepaid > spent ? prepaid - spent : 0n;
  let balance = gasRefundAmount * ar.gasPrice;
  let gasDeficit = 0n;
  if (currentGasPrice > ar.gasPrice) {
    gasDeficit = (currentGasPrice - ar.gasPrice) * gasBurnt;
    if (balance >= gasDeficit) {
      balance -= gasDeficit;
      gasDeficit = 0n;
    } else {
      gasDeficit -= balance;
      balance = 0n;
    }
  } else balance += (ar.gasPrice - currentGasPrice) * gasBurnt;
  const receipts: NewReceiptSpec[] = [];
  const deposit = failed ? totalDeposit(ar.actions) : 0n;
  if (deposit > 0n) receipts.push(balanceRefund(receipt.predecessorId, deposit));
  if (balance > 0n) receipts.push(gasRefund(ar.signerId, balance, ar.signerPublicKey));
  return { receipts, gasDeficit };
}
