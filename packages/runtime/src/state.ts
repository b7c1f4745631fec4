// Typed reads and writes of accounts, keys and code over a TrieUpdate.
import {
  type AccessKey,
  type Account,
  decodeAccessKey,
  decodeAccount,
  encodeAccessKey,
  encodeAccount,
  type PublicKey,
} from '@nearlite/primitives';
import { type TrieUpdate, trieKeyAccessKey, trieKeyAccount, trieKeyContractCode } from '@nearlite/trie';

export function getAccount(s: TrieUpdate, id: string): Account | null {
  const raw = s.get(trieKeyAccount(id));
  return raw ? decodeAccount(raw) : null;
}

export function setAccount(s: TrieUpdate, id: string, a: Account): void {
  s.set(trieKeyAccount(id), encodeAccount(a));
}

export function getAccessKey(s: TrieUpdate, id: string, pk: PublicKey): AccessKey | null {
  const raw = s.get(trieKeyAccessKey(id, pk));
  return raw ? decodeAccessKey(raw) : null;
}

export function setAccessKey(s: TrieUpdate, id: string, pk: PublicKey, k: AccessKey): void {
  s.set(trieKeyAccessKey(id, pk), encodeAccessKey(k));
}

export function getCode(s: TrieUpdate, id: string): Uint8Array | null {
  return s.get(trieKeyContractCode(id)) ?? null;
}

/** nearcore's check_storage_stake: how much more balance the account needs for its storage, or 0. */
export function storageShortfall(a: Account, amountPerByte: bigint): bigint {
  const required = a.storageUsage * amountPerByte;
  if (a.locked >= required) return 0n;
  const available = a.amount + a.locked;
  return available >= required ? 0n : required - available;
}
