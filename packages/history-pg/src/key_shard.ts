// Which shard database keeps a trie key's history: the shard of the account the key belongs to.
// nearcore's trie keys (and their prefixes that views scan) are a column byte followed by the
// account id, and an account id's characters ([a-z0-9._-]) never include the separators that follow
// it, so the account is the run of account characters after the column byte. Keys of no account
// (delayed receipts and other shard-wide rows) stay with the first shard.

export interface ShardLayoutLike {
  readonly shardIds: readonly number[];
  accountIdToShardId(accountId: string): number;
}

function isAccountChar(b: number): boolean {
  return (b >= 0x61 && b <= 0x7a) || (b >= 0x30 && b <= 0x39) || b === 0x2e || b === 0x5f || b === 0x2d;
}

const ACCOUNT_COLUMNS = new Set([0, 1, 2, 3, 4, 5, 6, 9]);

export function accountOfTrieKey(key: Uint8Array): string | null {
  if (key.length < 2 || !ACCOUNT_COLUMNS.has(key[0]!)) return null;
  let end = 1;
  while (end < key.length && isAccountChar(key[end]!)) end++;
  return end > 1 ? new TextDecoder('utf-8', { ignoreBOM: true }).decode(key.subarray(1, end)) : null;
}

export function shardOfTrieKey(layout: ShardLayoutLike, key: Uint8Array): number {
  const account = accountOfTrieKey(key);
  return account === null ? layout.shardIds[0]! : layout.accountIdToShardId(account);
}
