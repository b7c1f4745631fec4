// A stream state change as a trie write: the trie key it touches and the value after it (null for a
// deletion), in nearcore's trie-value layouts, so views and the VM read history as they read a trie.
import {
  type Account,
  type AccountContract,
  accessKeyFromJson,
  base58Hash,
  encodeAccessKey,
  encodeAccount,
  encodeGasKeyNonce,
  fromBase64,
  isDecimalText,
  isU64Json,
  isValidAccountId,
  parsePublicKeyHandle,
} from '@nearlite/primitives';
import type { StateChangeWithCauseJson } from '@nearlite/stream';
import {
  trieKeyAccessKey,
  trieKeyAccount,
  trieKeyContractCode,
  trieKeyContractData,
  trieKeyGasKeyNonce,
} from '@nearlite/trie';

export interface StateWriteAt {
  readonly key: Uint8Array;
  readonly value: Uint8Array | null;
}

export class StateChangeError extends Error {
  override readonly name = 'StateChangeError';
}

type Change = Record<string, unknown>;

/** A member nearcore writes as a string; anything else refuses the change. */
function text(ch: Change, key: string): string {
  const v = ch[key];
  if (typeof v !== 'string') throw new StateChangeError(`change.${key} is not a string`);
  return v;
}

/** A u128 as nearcore writes it: a decimal string. */
function u128(ch: Change, key: string): bigint {
  const v = text(ch, key);
  if (!isDecimalText(v)) throw new StateChangeError(`change.${key} is not a u128 decimal string`);
  return BigInt(v);
}

/** A u64 as nearcore writes it: a JSON number (read exactly, as a bigint when large). */
function u64(v: unknown, what: string): bigint {
  if (!isU64Json(v)) throw new StateChangeError(`${what} is not a u64`);
  return BigInt(v);
}

/** A gas key's nonce index: nearcore's NonceIndex, a u16. */
function nonceIndex(v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 0xffff)
    throw new StateChangeError('change.index is not a u16');
  return v;
}

/** A hash as nearcore writes it: base58 of 32 bytes. */
function hash(ch: Change, key: string): Uint8Array {
  const bytes = base58Hash(text(ch, key));
  if (bytes === null) throw new StateChangeError(`change.${key} is not a hash of 32 bytes`);
  return bytes;
}

/**
 * The account an AccountView describes. A global contract is named only by the view's
 * `global_contract_hash` or `global_contract_account_id`, which only nearcore's AccountV2 holds: such
 * an account is kept as one, so its views and view calls see the contract it uses. Any other is
 * kept unversioned, which views the same.
 */
function accountOf(ch: Change): Account {
  const base = {
    amount: u128(ch, 'amount'),
    locked: u128(ch, 'locked'),
    codeHash: hash(ch, 'code_hash'),
    storageUsage: u64(ch.storage_usage, 'change.storage_usage'),
  };
  const byHash = ch.global_contract_hash === undefined ? null : hash(ch, 'global_contract_hash');
  const byAccount =
    ch.global_contract_account_id === undefined ? null : text(ch, 'global_contract_account_id');
  if (byHash === null && byAccount === null) return base;
  if (byHash !== null && byAccount !== null)
    throw new StateChangeError('change names both a global contract hash and a global contract account');
  if (base.codeHash.some((b) => b !== 0))
    throw new StateChangeError('change names both a local and a global contract');
  if (byAccount !== null && !isValidAccountId(byAccount))
    throw new StateChangeError(`change.global_contract_account_id ${byAccount} is not an account id`);
  const contract: AccountContract =
    byHash !== null ? { kind: 'Global', hash: byHash } : { kind: 'GlobalByAccount', accountId: byAccount! };
  return { ...base, v2: { contract } };
}

/** The trie write a change stands for; null for kinds that touch no key a view can read. */
export function stateChangeWrite(c: StateChangeWithCauseJson): StateWriteAt | null {
  const ch = c.change as Change;
  if (typeof ch !== 'object' || ch === null) throw new StateChangeError('a state change without `change`');
  const account = text(ch, 'account_id');
  if (!isValidAccountId(account))
    throw new StateChangeError(`change.account_id ${account} is not an account id`);
  switch (c.type) {
    case 'account_update':
      return { key: trieKeyAccount(account), value: encodeAccount(accountOf(ch)) };
    case 'account_deletion':
      return { key: trieKeyAccount(account), value: null };
    case 'access_key_update':
      return {
        key: trieKeyAccessKey(account, parsePublicKeyHandle(text(ch, 'public_key'))),
        value: encodeAccessKey(accessKeyFromJson(ch.access_key)),
      };
    case 'access_key_deletion':
      return { key: trieKeyAccessKey(account, parsePublicKeyHandle(text(ch, 'public_key'))), value: null };
    case 'gas_key_nonce_update':
      return {
        key: trieKeyGasKeyNonce(account, parsePublicKeyHandle(text(ch, 'public_key')), nonceIndex(ch.index)),
        value: encodeGasKeyNonce(u64(ch.nonce, 'change.nonce')),
      };
    case 'data_update':
      return {
        key: trieKeyContractData(account, fromBase64(text(ch, 'key_base64'))),
        value: fromBase64(text(ch, 'value_base64')),
      };
    case 'data_deletion':
      return { key: trieKeyContractData(account, fromBase64(text(ch, 'key_base64'))), value: null };
    case 'contract_code_update':
      return { key: trieKeyContractCode(account), value: fromBase64(text(ch, 'code_base64')) };
    case 'contract_code_deletion':
      return { key: trieKeyContractCode(account), value: null };
    default:
      return null;
  }
}
