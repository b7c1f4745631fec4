// nearcore's Runtime::update_validator_accounts (runtime/runtime/src/lib.rs), the first step of
// applying a chunk in the first block of an epoch: the ended epoch's rewards are added to each
// validator's locked balance, and the protocol treasury's share to its amount unless the treasury is
// itself a validator. In that case nearcore's reward map holds the treasury's validator reward in
// place of its treasury share, so that share is minted but paid to no one.
import type { TrieUpdate } from '@nearlite/trie';
import { getAccount, setAccount } from './state.js';

export interface ValidatorAccountsUpdate {
  /** The accounts nearcore's stake_info names: the validators whose stake it tracks. */
  readonly stakeInfo: ReadonlySet<string>;
  readonly validatorRewards: ReadonlyMap<string, bigint>;
  readonly protocolTreasuryAccountId: string;
}

/**
 * Applies `u` to the accounts of shard `shardId` (nearcore filters the update by shard before apply).
 * Stake is never returned: this chain's validators keep their genesis seats.
 */
export function updateValidatorAccounts(
  state: TrieUpdate,
  u: ValidatorAccountsUpdate,
  shardId: number,
  accountShard: (accountId: string) => number,
): void {
  for (const accountId of u.stakeInfo) {
    if (accountShard(accountId) !== shardId) continue;
    const account = getAccount(state, accountId);
    if (!account) continue;
    // Written back even without a reward, so the account shows in the block's state changes.
    const reward = u.validatorRewards.get(accountId) ?? 0n;
    setAccount(state, accountId, { ...account, locked: account.locked + reward });
  }
  const treasury = u.protocolTreasuryAccountId;
  if (accountShard(treasury) === shardId && !u.stakeInfo.has(treasury)) {
    const account = getAccount(state, treasury);
    const reward = u.validatorRewards.get(treasury) ?? 0n;
    if (account) setAccount(state, treasury, { ...account, amount: account.amount + reward });
  }
  state.commit({ type: 'validator_accounts_update' });
}
