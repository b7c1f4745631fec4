// Typed reads and writes of accounts, keys and code over a TrieUpdate.
import {
  type AccessKey,
  type Account,
  decodeAccessKey,
  decodeAccount,
  decodeGasKeyNonce,
  encodeAccessKey,
  encodeAccount,
  encodeGasKeyNonce,
  type PublicKey,
} from '@nearlite/primitives';
import { type TrieUpdate, trieKeyAccessKey, trieKeyAccount, trieKeyGasKeyNonce } from '@nearlite/trie';

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

/** Writes `key` back with its gas key's balance replaced (the key must be a gas key). */
export function setGasKeyBalance(
  s: TrieUpdate,
  id: string,
  pk: PublicKey,
  key: AccessKey,
  balance: bigint,
): void {
  const gasKey = { ...key.permission.gasKey!, balance };
  setAccessKey(s, id, pk, { ...key, permission: { ...key.permission, gasKey } });
}

/** One nonce of a gas key; null when the key has no such index (or is not a gas key). */
export function getGasKeyNonce(s: TrieUpdate, id: string, pk: PublicKey, index: number): bigint | null {
  const raw = s.get(trieKeyGasKeyNonce(id, pk, index));
  return raw ? decodeGasKeyNonce(raw) : null;
}

export function setGasKeyNonce(s: TrieUpdate, id: string, pk: PublicKey, index: number, nonce: bigint): void {
  s.set(trieKeyGasKeyNonce(id, pk, index), encodeGasKeyNonce(nonce));
}

/** NEP-448: an account using at most this many bytes needs no balance for its storage. */
export const ZERO_BALANCE_ACCOUNT_STORAGE_LIMIT = 770n;

/** nearcore's get_insufficient_storage_stake: how much more balance the account needs, or 0. */
export function storageShortfall(a: Account, amountPerByte: bigint): bigint {
  const required = a.storageUsage * amountPerByte;
  const available = a.amount + a.locked;
  if (available >= required || a.storageUsage <= ZERO_BALANCE_ACCOUNT_STORAGE_LIMIT) return 0n;
  return required - available;
}
