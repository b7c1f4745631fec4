// State records (genesis / sandbox_patch_state JSON) as trie writes, without genesis's storage
// recomputation: a sandbox patch writes exactly what the caller gave, as nearcore's does. Every field
// is checked as nearcore's StateRecord deserializes it — types, lengths and ranges — before anything
// is written, so no record can leave a value in the trie that a later block cannot decode.
import {
  type Account,
  type AccountContract,
  base58Encode,
  bytesEqual,
  decodeAccount,
  encodeAccessKey,
  encodeAccount,
  encodeGasKeyNonce,
  isUnversionedSentinel,
  sha256,
  UNVERSIONED_SENTINEL,
} from '@nearlite/primitives';
import {
  trieKeyAccessKey,
  trieKeyAccount,
  trieKeyContractCode,
  trieKeyContractData,
  trieKeyGasKeyNonce,
} from '@nearlite/trie';
import {
  accessKey,
  accountId,
  base64,
  fail,
  hash32,
  type Obj,
  obj,
  publicKey,
  str,
  u64,
  u128,
} from './state_record_fields.js';

export { StateRecordError } from './state_record_fields.js';

export interface StateWrite {
  readonly accountId: string;
  readonly key: Uint8Array;
  readonly value: Uint8Array;
  /** For Contract records: the account's code hash must follow. */
  readonly codeHash?: Uint8Array;
}

const KINDS = ['Account', 'AccessKey', 'Contract', 'Data', 'GasKeyNonce'] as const;

/**
 * nearcore's Account deserializer: `version` (default V1) picks the layout; the global-contract
 * fields may not be combined with each other or with local code, and only a V2 account keeps them.
 */
function versioned(account: Account, a: Obj, path: string): Account {
  const version = a.version === undefined ? 'V1' : str(a, 'version', path);
  if (version !== 'V1' && version !== 'V2')
    fail(`${path}.version`, `unknown variant \`${version}\`, expected \`V1\` or \`V2\``);
  const globalHash = a.global_contract_hash === undefined ? null : hash32(a, 'global_contract_hash', path);
  const globalAccount =
    a.global_contract_account_id === undefined ? null : accountId(a, 'global_contract_account_id', path);
  const local = account.codeHash.some((b) => b !== 0);
  if (local && (globalHash || globalAccount))
    fail(path, "An Account can't contain both a local and global contract");
  if (globalHash && globalAccount) fail(path, "An Account can't contain both types of global contracts");
  if (version === 'V1') return account;
  const contract: AccountContract = globalAccount
    ? { kind: 'GlobalByAccount', accountId: globalAccount }
    : globalHash
      ? { kind: 'Global', hash: globalHash }
      : local
        ? { kind: 'Local', hash: account.codeHash }
        : { kind: 'None' };
  return { ...account, v2: { contract } };
}

/** One record as trie writes; throws StateRecordError naming the field for anything nearcore refuses. */
export function stateRecordToWrite(record: unknown, index = 0): StateWrite {
  const top = `records[${index}]`;
  const r = obj(record, top);
  const variants = Object.keys(r);
  if (variants.length !== 1) fail(top, 'expected exactly one record variant');
  const kind = variants[0]!;
  if (!(KINDS as readonly string[]).includes(kind))
    fail(top, `unsupported record variant \`${kind}\`, expected one of ${KINDS.join(', ')}`);
  const path = `${top}.${kind}`;
  const o = obj(r[kind], path);
  const id = accountId(o, 'account_id', path);
  switch (kind) {
    case 'Account': {
      const aPath = `${path}.account`;
      const a = obj(o.account, aPath);
      const account: Account = {
        amount: u128(a, 'amount', aPath),
        locked: u128(a, 'locked', aPath),
        codeHash: hash32(a, 'code_hash', aPath),
        storageUsage: u64(a, 'storage_usage', aPath),
      };
      const written = versioned(account, a, aPath);
      if (isUnversionedSentinel(written)) fail(`${aPath}.amount`, UNVERSIONED_SENTINEL);
      return { accountId: id, key: trieKeyAccount(id), value: encodeAccount(written) };
    }
    case 'AccessKey':
      return {
        accountId: id,
        key: trieKeyAccessKey(id, publicKey(o, 'public_key', path)),
        value: encodeAccessKey(accessKey(o.access_key, `${path}.access_key`)),
      };
    case 'GasKeyNonce': {
      const index = u64(o, 'index', path);
      if (index > 0xffffn) fail(`${path}.index`, 'out of range for u16');
      return {
        accountId: id,
        key: trieKeyGasKeyNonce(id, publicKey(o, 'public_key', path), Number(index)),
        value: encodeGasKeyNonce(u64(o, 'nonce', path)),
      };
    }
    case 'Contract': {
      const code = base64(o, 'code', path);
      return { accountId: id, key: trieKeyContractCode(id), value: code, codeHash: sha256(code) };
    }
    default:
      return {
        accountId: id,
        key: trieKeyContractData(id, base64(o, 'data_key', path)),
        value: base64(o, 'value', path),
      };
  }
}

/**
 * Why nearcore's apply_state_patch would stop at a Contract record, or null: the account must be
 * there when the record is applied (written by an earlier record or already in the state,
 * `accountAt`) with a local code hash equal to the code's. nearcore asserts this and panics, which
 * stops its sandbox; here the patch is refused.
 */
export function contractRecordError(
  write: StateWrite,
  accountAt: (accountId: string) => Uint8Array | undefined,
): string | null {
  if (!write.codeHash) return null;
  const raw = accountAt(write.accountId);
  if (raw === undefined)
    return `Contract record of ${write.accountId} should be preceded by the corresponding account record`;
  const accountHash = decodeAccount(raw).codeHash;
  if (bytesEqual(accountHash, write.codeHash)) return null;
  return `Contract record of ${write.accountId}: its code hashes to ${base58Encode(write.codeHash)}, the account's code_hash is ${base58Encode(accountHash)}`;
}

/**
 * `contractRecordError` for a whole patch against the state before it (`stateAccount`), each
 * Contract record seeing the Account records before it.
 */
export function patchError(
  writes: readonly StateWrite[],
  stateAccount: (accountId: string) => Uint8Array | undefined,
): string | null {
  const written = new Map<string, Uint8Array>();
  for (const w of writes) {
    if (w.codeHash) {
      const err = contractRecordError(w, (id) => (written.has(id) ? written.get(id) : stateAccount(id)));
      if (err !== null) return err;
    } else if (bytesEqual(w.key, trieKeyAccount(w.accountId))) written.set(w.accountId, w.value);
  }
  return null;
}

/** Every record checked before any is written: one bad record refuses the whole patch. */
export function stateRecordsToWrites(records: readonly unknown[]): StateWrite[] {
  return records.map((r, i) => stateRecordToWrite(r, i));
}
