// nearcore's Runtime::update_validator_accounts (runtime/runtime/src/lib.rs), the first step of
// applying a chunk in the first block of an epoch: the ended epoch's rewards are added to each
// validator's locked balance, and the protocol treasury's share to its amount unless the treasury is
// itself a validator. In that case nearcore's reward map holds the treasury's validator reward in
// place of its treasury share, so that share is minted but paid to no one. Locked balance that no
// stake of the last three epoch infos holds, nor the account's last proposal, is returned to it.
import type { TrieUpdate } from '@nearlite/trie';
import { getAccount, setAccount } from './state.js';

export interface ValidatorAccountsUpdate {
  /** nearcore's stake_info: each account of the last three epoch infos' stake changes, at its largest stake. */
  readonly stakeInfo: ReadonlyMap<string, bigint>;
  /** The Stake actions the shard's previous chunk ran, by account (the last one's stake). */
  readonly lastProposals: ReadonlyMap<string, bigint>;
  readonly validatorRewards: ReadonlyMap<string, bigint>;
  readonly protocolTreasuryAccountId: string;
}

/** Applies `u` to the accounts of shard `shardId` (nearcore filters the update by shard before apply). */
export function updateValidatorAccounts(
  state: TrieUpdate,
  u: ValidatorAccountsUpdate,
  shardId: number,
  accountShard: (accountId: string) => number,
): void {
  for (const [accountId, maxOfStakes] of u.stakeInfo) {
    if (accountShard(accountId) !== shardId) continue;
    const account = getAccount(state, accountId);
    if (!account) continue;
    const locked = account.locked + (u.validatorRewards.get(accountId) ?? 0n);
    const lastProposal = u.lastProposals.get(accountId) ?? 0n;
    const keep = maxOfStakes > lastProposal ? maxOfStakes : lastProposal;
    // nearcore refuses a locked balance under the stakes it must hold (a broken invariant); none is
    // returned then rather than stopping the chain.
    const returned = locked > keep ? locked - keep : 0n;
    // Written back even with nothing to change, so the account shows in the block's state changes.
    setAccount(state, accountId, {
      ...account,
      locked: locked - returned,
      amount: account.amount + returned,
    });
  }
  const treasury = u.protocolTreasuryAccountId;
  if (accountShard(treasury) === shardId && !u.stakeInfo.has(treasury)) {
    const account = getAccount(state, treasury);
    const reward = u.validatorRewards.get(treasury) ?? 0n;
    if (account) setAccount(state, treasury, { ...account, amount: account.amount + reward });
  }
  state.commit({ type: 'validator_accounts_update' });
}
