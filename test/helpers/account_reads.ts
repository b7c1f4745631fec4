// The reads of one account at one height that a follower must answer as its producer does: the
// account, its keys, and its account and access key changes in that block.

export interface Read {
  readonly method: string;
  readonly params: object;
  /** How a failure names it. */
  readonly what: string;
}

export function accountReads(account_id: string, h: number): Read[] {
  return [
    {
      method: 'query',
      params: { request_type: 'view_account', account_id, block_id: h },
      what: `${account_id} #${h}`,
    },
    {
      method: 'query',
      params: { request_type: 'view_access_key_list', account_id, block_id: h },
      what: `keys ${account_id} #${h}`,
    },
    {
      method: 'EXPERIMENTAL_changes',
      params: { changes_type: 'account_changes', account_ids: [account_id], block_id: h },
      what: `account changes ${account_id} #${h}`,
    },
    {
      method: 'EXPERIMENTAL_changes',
      params: { changes_type: 'all_access_key_changes', account_ids: [account_id], block_id: h },
      what: `key changes ${account_id} #${h}`,
    },
  ];
}
