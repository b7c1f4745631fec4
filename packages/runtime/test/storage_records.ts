// What the storage checks count: each account's storage_usage recounted from the records it owns,
// by nearcore's StorageUsageConfig. Shared by the conservation tests and the chain's four-shard ones.
import { accountContract, decodeAccount } from '@nearlite/primitives';
import { DEFAULT_RUNTIME_CONFIG_VIEW, parseRuntimeConfig } from '@nearlite/runtime';
import { TrieKeyCol } from '@nearlite/trie';

const config = parseRuntimeConfig(DEFAULT_RUNTIME_CONFIG_VIEW);

/** A shard's state as (trie key, value) pairs: a TestChain's `stateEntries()`, a trie's `iterPrefix`. */
export type StateEntries = Iterable<readonly [Uint8Array, Uint8Array]>;

/**
 * Each account's storage by nearcore's rules: 100 bytes for the account; its local code's length, or
 * its global contract identifier's (a hash's 32 bytes, an account id's length); and for every access
 * key, gas-key nonce and data record its key and value plus 40.
 */
export function storageFromRecords(state: StateEntries): Map<string, bigint> {
  const extra = BigInt(config.fees.storage_usage_config.num_extra_bytes_record);
  const accountBytes = BigInt(config.fees.storage_usage_config.num_bytes_account);
  const usage = new Map<string, bigint>();
  const add = (id: string, n: bigint) => usage.set(id, (usage.get(id) ?? 0n) + n);
  for (const [k, v] of state) {
    const key = Buffer.from(k.buffer, k.byteOffset, k.length);
    const col = key[0];
    if (col === TrieKeyCol.Account) {
      const id = key.subarray(1).toString('utf8');
      add(id, accountBytes);
      const contract = accountContract(decodeAccount(v));
      if (contract.kind === 'Global') add(id, 32n);
      else if (contract.kind === 'GlobalByAccount') add(id, BigInt(Buffer.byteLength(contract.accountId)));
    } else if (col === TrieKeyCol.ContractCode) add(key.subarray(1).toString('utf8'), BigInt(v.length));
    else if (col === TrieKeyCol.AccessKey) {
      // A gas key's nonce rows sit under its access key: the key, a u16 index, a u64 nonce.
      const sep = key.indexOf(TrieKeyCol.AccessKey, 1);
      add(key.subarray(1, sep).toString('utf8'), extra + BigInt(key.length - sep - 1 + v.length));
    } else if (col === TrieKeyCol.ContractData) {
      const sep = key.indexOf(0x2c, 1);
      add(key.subarray(1, sep).toString('utf8'), extra + BigInt(key.length - sep - 1 + v.length));
    }
  }
  return usage;
}

/**
 * The first account whose storage_usage is not what its records add up to, described; or null.
 * `state` is called twice: once to count the records, once to read the accounts.
 */
export function storageMismatch(state: () => StateEntries): string | null {
  const records = storageFromRecords(state());
  for (const [k, v] of state()) {
    if (k[0] !== TrieKeyCol.Account) continue;
    const id = Buffer.from(k.buffer, k.byteOffset, k.length).subarray(1).toString('utf8');
    const { storageUsage } = decodeAccount(v);
    if (storageUsage !== records.get(id))
      return `${id}'s storage_usage ${storageUsage}, its records ${records.get(id)}`;
  }
  return null;
}
