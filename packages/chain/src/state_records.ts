// State records (genesis / sandbox_patch_state JSON) as trie writes, without genesis's storage
// recomputation: a sandbox patch writes exactly what the caller gave, as nearcore's does. Every field
// is checked as nearcore's StateRecord deserializes it — types, lengths and ranges — before anything
// is written, so no record can leave a value in the trie that a later block cannot decode.
import {
  type AccessKey,
  type Account,
  type AccountContract,
  base58Decode,
  encodeAccessKey,
  encodeAccount,
  encodeGasKeyNonce,
  fromBase64,
  type GasKeyInfo,
  parseAccountId,
  parsePublicKeyHandle,
  sha256,
} from '@nearlite/primitives';
import {
  trieKeyAccessKey,
  trieKeyAccount,
  trieKeyContractCode,
  trieKeyContractData,
  trieKeyGasKeyNonce,
} from '@nearlite/trie';

export class StateRecordError extends Error {
  override readonly name = 'StateRecordError';
}

export interface StateWrite {
  readonly accountId: string;
  readonly key: Uint8Array;
  readonly value: Uint8Array;
  /** For Contract records: the account's code hash must follow. */
  readonly codeHash?: Uint8Array;
}

const U64_MAX = (1n << 64n) - 1n;
const U128_MAX = (1n << 128n) - 1n;
const KINDS = ['Account', 'AccessKey', 'Contract', 'Data', 'GasKeyNonce'] as const;

type Obj = Record<string, unknown>;

function fail(path: string, what: string): never {
  throw new StateRecordError(`${path}: ${what}`);
}

function obj(v: unknown, path: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(path, 'expected an object');
  return v as Obj;
}

function str(o: Obj, k: string, path: string): string {
  const v = o[k];
  if (v === undefined) fail(path, `missing field \`${k}\``);
  if (typeof v !== 'string') fail(`${path}.${k}`, 'expected a string');
  return v;
}

/** nearcore's dec_format: a u128 as a decimal string (or a JSON integer). */
function u128(o: Obj, k: string, path: string): bigint {
  const v = o[k];
  if (v === undefined) fail(path, `missing field \`${k}\``);
  let n: bigint;
  if (typeof v === 'string' && /^\d{1,39}$/.test(v)) n = BigInt(v);
  else if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) n = BigInt(v);
  else fail(`${path}.${k}`, 'expected a u128 as a decimal string');
  if (n > U128_MAX) fail(`${path}.${k}`, 'out of range for u128');
  return n;
}

function u64(o: Obj, k: string, path: string): bigint {
  const v = o[k];
  if (v === undefined) fail(path, `missing field \`${k}\``);
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) fail(`${path}.${k}`, 'expected a u64');
  const n = BigInt(v);
  if (n > U64_MAX) fail(`${path}.${k}`, 'out of range for u64');
  return n;
}

function base64(o: Obj, k: string, path: string): Uint8Array {
  const text = str(o, k, path);
  try {
    return fromBase64(text);
  } catch {
    fail(`${path}.${k}`, 'expected base64');
  }
}

function hash32(o: Obj, k: string, path: string): Uint8Array {
  const text = str(o, k, path);
  let bytes: Uint8Array;
  try {
    bytes = base58Decode(text);
  } catch {
    fail(`${path}.${k}`, 'expected a base58 hash');
  }
  if (bytes.length !== 32) fail(`${path}.${k}`, `expected a hash of 32 bytes, got ${bytes.length}`);
  return bytes;
}

function accountId(o: Obj, k: string, path: string): string {
  const text = str(o, k, path);
  try {
    return parseAccountId(text);
  } catch (err) {
    fail(`${path}.${k}`, (err as Error).message);
  }
}

function publicKey(o: Obj, k: string, path: string): ReturnType<typeof parsePublicKeyHandle> {
  const text = str(o, k, path);
  try {
    return parsePublicKeyHandle(text);
  } catch (err) {
    fail(`${path}.${k}`, (err as Error).message);
  }
}

function accessKey(v: unknown, path: string): AccessKey {
  const o = obj(v, path);
  const nonce = u64(o, 'nonce', path);
  const perm = o.permission;
  if (perm === undefined) fail(path, 'missing field `permission`');
  if (perm === 'FullAccess') return { nonce, permission: { kind: 'FullAccess' } };
  const p = obj(perm, `${path}.permission`);
  const keys = Object.keys(p);
  const variant = keys[0];
  if (
    keys.length !== 1 ||
    (variant !== 'FunctionCall' && variant !== 'GasKeyFunctionCall' && variant !== 'GasKeyFullAccess')
  )
    fail(
      `${path}.permission`,
      'expected `FullAccess`, `{"FunctionCall": …}`, `{"GasKeyFunctionCall": …}` or `{"GasKeyFullAccess": …}`',
    );
  const fcPath = `${path}.permission.${variant}`;
  const fc = obj(p[variant], fcPath);
  const gasKey = variant === 'FunctionCall' ? undefined : gasKeyInfo(fc, fcPath);
  if (gasKey && variant === 'GasKeyFullAccess') return { nonce, permission: { kind: 'FullAccess', gasKey } };
  const allowance =
    fc.allowance === null || fc.allowance === undefined ? null : u128(fc, 'allowance', fcPath);
  const names = fc.method_names;
  if (!Array.isArray(names) || names.some((m) => typeof m !== 'string'))
    fail(`${fcPath}.method_names`, 'expected a sequence of strings');
  return {
    nonce,
    permission: {
      kind: 'FunctionCall',
      allowance,
      receiverId: accountId(fc, 'receiver_id', fcPath),
      methodNames: [...(names as string[])],
      ...(gasKey ? { gasKey } : {}),
    },
  };
}

function gasKeyInfo(o: Obj, path: string): GasKeyInfo {
  const n = u64(o, 'num_nonces', path);
  if (n > 0xffffn) fail(`${path}.num_nonces`, 'out of range for u16');
  return { balance: u128(o, 'balance', path), numNonces: Number(n) };
}

/** One record as trie writes; throws StateRecordError naming the field for anything nearcore refuses. */
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
      return { accountId: id, key: trieKeyAccount(id), value: encodeAccount(versioned(account, a, aPath)) };
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

/** Every record checked before any is written: one bad record refuses the whole patch. */
export function stateRecordsToWrites(records: readonly unknown[]): StateWrite[] {
  return records.map((r, i) => stateRecordToWrite(r, i));
}
