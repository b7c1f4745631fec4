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
  type GasKeyInfo,
  type PublicKey,
} from '@nearlite/primitives';
import {
  gasKeyNonceKey,
  type TrieUpdate,
  trieKeyAccessKey,
  trieKeyAccount,
  trieKeyGasKeyNonce,
} from '@nearlite/trie';

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

/**
 * The nonce at `index` of the gas key `gasKey`; null when the key has no such index, or its row is
 * missing (a patched state can leave it out: nearcore calls that inconsistent state).
 */
export function getGasKeyNonce(
  s: TrieUpdate,
  id: string,
  pk: PublicKey,
  gasKey: GasKeyInfo,
  index: number,
): bigint | null {
  if (index >= gasKey.numNonces) return null;
  const raw = s.get(trieKeyGasKeyNonce(id, pk, index));
  return raw ? decodeGasKeyNonce(raw) : null;
}

export function setGasKeyNonce(s: TrieUpdate, id: string, pk: PublicKey, index: number, nonce: bigint): void {
  s.set(trieKeyGasKeyNonce(id, pk, index), encodeGasKeyNonce(nonce));
}

/** Sets each of a new gas key's `count` nonces to `nonce`, or removes them all with `null`. */
export function setGasKeyNonces(
  s: TrieUpdate,
  id: string,
  pk: PublicKey,
  count: number,
  nonce: bigint | null,
): void {
  const key = trieKeyAccessKey(id, pk);
  const value = nonce === null ? null : encodeGasKeyNonce(nonce);
  for (let i = 0; i < count; i++) {
    if (value === null) s.remove(gasKeyNonceKey(key, i));
    else s.set(gasKeyNonceKey(key, i), value);
  }
}

/** The signer's key with its gas key part, when `pk` names a gas key of `id`. */
export function getGasKey(
  s: TrieUpdate,
  id: string,
  pk: PublicKey,
): { readonly key: AccessKey; readonly gasKey: GasKeyInfo } | null {
  const key = getAccessKey(s, id, pk);
  const gasKey = key?.permission.gasKey;
  return key && gasKey ? { key, gasKey } : null;
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
