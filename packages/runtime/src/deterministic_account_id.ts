// NEP-616 deterministic accounts (nearcore's runtime/runtime/src/deterministic_account_id.rs). The
// receiver's id was checked against the StateInit when the transaction was admitted, so whoever
// sends the action can only create the account the id names: the global contract it runs and its
// initial data. An account that already runs a contract is left as it is, so initialising twice
// (lazily, by every caller that needs the account) succeeds and only refunds the deposit.
import { type Action, accountContract } from '@nearlite/primitives';
import { trieKeyContractData } from '@nearlite/trie';
import { type ActionContext, type ActionErrorKind, newAccount } from './actions.js';
import { setGlobalContract } from './global_contracts.js';
import { balanceRefund } from './receipt_spec.js';
import { storageShortfall } from './state.js';

export function deterministicStateInit(
  ctx: ActionContext,
  action: Extract<Action, { type: 'DeterministicStateInit' }>,
): ActionErrorKind | null {
  // A missing account is created with nothing on it. Unlike CreateAccount this does not make it the
  // actor, so the actions after it cannot add keys or deploy code to it.
  let account = ctx.account ?? newAccount(ctx, 0n);
  if (accountContract(account).kind === 'None') {
    const err = setGlobalContract(ctx, account, action.code);
    if (err !== null) return err;
    account = ctx.account ?? account;
    // The account holds no contract data yet, so every entry adds its full size.
    const extra = ctx.config.fees.storage_usage_config.num_extra_bytes_record;
    let usage = account.storageUsage;
    for (const [key, value] of action.data) {
      ctx.state.set(trieKeyContractData(ctx.receiverId, key), value);
      usage += BigInt(key.length + value.length) + extra;
    }
    account = { ...account, storageUsage: usage };
  }
  // The deposit pays for the storage the account lacks and the rest goes back as a balance refund.
  // A deposit short of it all goes to the account, refunding nothing: the actions after it (a
  // Transfer) may still make up the rest, and the receipt's storage check after its last action
  // fails it if they do not.
  const missing = storageShortfall(account, ctx.config.storageAmountPerByte);
  const refund = missing < action.deposit ? action.deposit - missing : 0n;
  ctx.account = { ...account, amount: account.amount + action.deposit - refund };
  if (refund > 0n) ctx.newReceipts.push(balanceRefund(ctx.balanceRefundReceiver, refund));
  return null;
}
