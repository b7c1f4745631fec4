// Trie values for accounts and access keys, in nearcore's borsh layouts.
import { accountIdError } from './account_id.js';
import { base58Encode } from './base58.js';
import { BorshError, BorshReader, BorshWriter } from './borsh.js';
import type { CryptoHash } from './hash.js';
import { u64View } from './json.js';
import type { GlobalContractIdentifier } from './transaction/action.js';

/**
 * What an account runs (nearcore's AccountContract). Local code lives under the account's
 * ContractCode key; a global contract is shared code stored once per shard under GlobalContractCode.
 */
export type AccountContract =
  | { readonly kind: 'None' }
  | { readonly kind: 'Local'; readonly hash: CryptoHash }
  | { readonly kind: 'Global'; readonly hash: CryptoHash }
  | { readonly kind: 'GlobalByAccount'; readonly accountId: string };

/** The identifier an account's contract refers to, or null for no contract or a local one. */
export function globalIdentifierOf(c: AccountContract): GlobalContractIdentifier | null {
  if (c.kind === 'Global') return { kind: 'CodeHash', hash: c.hash };
  if (c.kind === 'GlobalByAccount') return { kind: 'AccountId', accountId: c.accountId };
  return null;
}

export interface Account {
  amount: bigint;
  locked: bigint;
  /** The local contract's hash; all zeros when there is none (also when a global contract is used). */
  codeHash: CryptoHash;
  storageUsage: bigint;
  /**
   * Set only on nearcore's AccountV2 (what an account becomes when it uses a global contract; it
   * stays V2 afterwards). `contract` is then authoritative and `codeHash` mirrors a Local one.
   */
  v2?: { readonly contract: AccountContract };
}

/** nearcore's Account::SERIALIZATION_SENTINEL: no real balance reaches u128::MAX. */
const SENTINEL = (1n << 128n) - 1n;

/** Why an unversioned (V1) account cannot hold u128::MAX. */
export const UNVERSIONED_SENTINEL =
  'an account of version V1 cannot hold u128::MAX: in borsh it marks a versioned account';

/** True when `a` could not be written: unversioned, with the sentinel as its amount. */
export function isUnversionedSentinel(a: Account): boolean {
  return !a.v2 && a.amount === SENTINEL;
}
const ZERO_HASH = new Uint8Array(32);
const CONTRACT_TAGS = ['None', 'Local', 'Global', 'GlobalByAccount'] as const;

function isZero(h: Uint8Array): boolean {
  for (const b of h) if (b !== 0) return false;
  return true;
}

/** The account's contract whatever its version (a V1 account has None or Local). */
export function accountContract(a: Account): AccountContract {
  if (a.v2) return a.v2.contract;
  return isZero(a.codeHash) ? { kind: 'None' } : { kind: 'Local', hash: a.codeHash };
}

/**
 * nearcore's Account::set_contract: a V1 account stays V1 for None/Local and becomes V2 for a
 * global contract; a V2 account stays V2.
 */
export function withContract(a: Account, contract: AccountContract): Account {
  const codeHash = contract.kind === 'Local' ? contract.hash : ZERO_HASH;
  const { v2: _, ...base } = a;
  if (!a.v2 && (contract.kind === 'None' || contract.kind === 'Local')) return { ...base, codeHash };
  return { ...base, codeHash, v2: { contract } };
}

/**
 * V1 is the legacy 72-byte layout; V2 is the u128::MAX sentinel, the enum tag 0 (V2), then amount,
 * locked, storage_usage and the AccountContract enum.
 */
export function encodeAccount(a: Account): Uint8Array {
  if (!a.v2) {
    // Its bytes would read back as a versioned account's (nearcore writes them so, and cannot read
    // them either): a state row no one could decode.
    if (a.amount === SENTINEL) throw new BorshError(UNVERSIONED_SENTINEL);
    return new BorshWriter(72).u128(a.amount).u128(a.locked).fixed(a.codeHash).u64(a.storageUsage).toBytes();
  }
  const w = new BorshWriter(128).u128(SENTINEL).u8(0).u128(a.amount).u128(a.locked).u64(a.storageUsage);
  writeAccountContract(w, a.v2.contract);
  return w.toBytes();
}

/** The borsh AccountContract enum: None = 0, Local(hash) = 1, Global(hash) = 2, GlobalByAccount(id) = 3. */
export function writeAccountContract(w: BorshWriter, c: AccountContract): void {
  w.u8(CONTRACT_TAGS.indexOf(c.kind));
  if (c.kind === 'Local' || c.kind === 'Global') w.fixed(c.hash);
  else if (c.kind === 'GlobalByAccount') w.string(c.accountId);
}

export function readAccountContract(r: BorshReader): AccountContract {
  const tag = r.u8();
  switch (CONTRACT_TAGS[tag]) {
    case 'None':
      return { kind: 'None' };
    case 'Local':
      return { kind: 'Local', hash: r.fixed(32).slice() };
    case 'Global':
      return { kind: 'Global', hash: r.fixed(32).slice() };
    case 'GlobalByAccount': {
      const accountId = r.string();
      const err = accountIdError(accountId);
      if (err !== null) throw new BorshError(`invalid value: "${accountId}", ${err}`);
      return { kind: 'GlobalByAccount', accountId };
    }
    default:
      throw new BorshError(`unknown account contract variant ${tag}`);
  }
}

export function decodeAccount(bytes: Uint8Array): Account {
  const r = new BorshReader(bytes);
  const amount = r.u128();
  if (amount === SENTINEL) {
    const version = r.u8();
    if (version !== 0) throw new BorshError(`unknown account version ${version}`);
    const amount = r.u128();
    const locked = r.u128();
    const storageUsage = r.u64();
    const contract = readAccountContract(r);
    r.end();
    const codeHash = contract.kind === 'Local' ? contract.hash : new Uint8Array(32);
    return { amount, locked, codeHash, storageUsage, v2: { contract } };
  }
  const a = { amount, locked: r.u128(), codeHash: r.fixed(32).slice(), storageUsage: r.u64() };
  r.end();
  return a;
}

export interface AccountView {
  amount: string;
  locked: string;
  code_hash: string;
  storage_usage: number;
  storage_paid_at: number;
  global_contract_hash?: string;
  global_contract_account_id?: string;
}

/** nearcore's AccountView: the global-contract fields are present only when set. */
export function accountView(a: Account): AccountView {
  const view: AccountView = {
    amount: a.amount.toString(),
    locked: a.locked.toString(),
    code_hash: base58Encode(a.codeHash),
    storage_usage: Number(a.storageUsage),
    storage_paid_at: 0,
  };
  const c = accountContract(a);
  if (c.kind === 'Global') view.global_contract_hash = base58Encode(c.hash);
  else if (c.kind === 'GlobalByAccount') view.global_contract_account_id = c.accountId;
  return view;
}

/**
 * A gas key's own balance, which pays for its transactions' gas, and how many nonces it has, each
 * kept in a trie row of its own (GasKeys, protocol 85: nearcore's `GasKeyInfo`).
 */
export interface GasKeyInfo {
  readonly balance: bigint;
  readonly numNonces: number;
}

/**
 * nearcore's AccessKeyPermission. A gas key is a full-access or function-call key with a `gasKey`
 * (borsh tags 3 and 2, `GasKeyFullAccess` and `GasKeyFunctionCall`); every rule of its kind applies.
 */
export type AccessKeyPermission =
  | { kind: 'FullAccess'; gasKey?: GasKeyInfo }
  | {
      kind: 'FunctionCall';
      allowance: bigint | null;
      receiverId: string;
      methodNames: string[];
      gasKey?: GasKeyInfo;
    };

export interface AccessKey {
  nonce: bigint;
  permission: AccessKeyPermission;
}

/** Most nonces a gas key may have (nearcore's MAX_NONCES_FOR_GAS_KEY). */
export const MAX_NONCES_FOR_GAS_KEY = 1024;
/** Bytes of a borsh GasKeyInfo: a u128 balance and a u16 count. */
export const GAS_KEY_INFO_LEN = 18;

function writeGasKeyInfo(w: BorshWriter, g: GasKeyInfo): void {
  w.u128(g.balance).u16(g.numNonces);
}

function readGasKeyInfo(r: BorshReader): GasKeyInfo {
  return { balance: r.u128(), numNonces: r.u16() };
}

/** One of a gas key's nonces as its trie row holds it: a borsh u64. */
export function encodeGasKeyNonce(nonce: bigint): Uint8Array {
  return new BorshWriter(8).u64(nonce).toBytes();
}

export function decodeGasKeyNonce(bytes: Uint8Array): bigint {
  const r = new BorshReader(bytes);
  const nonce = r.u64();
  r.end();
  return nonce;
}

export function writeAccessKey(w: BorshWriter, k: AccessKey): void {
  w.u64(k.nonce);
  const p = k.permission;
  if (p.kind === 'FullAccess') {
    if (p.gasKey) writeGasKeyInfo(w.u8(3), p.gasKey);
    else w.u8(1);
  } else {
    if (p.gasKey) writeGasKeyInfo(w.u8(2), p.gasKey);
    else w.u8(0);
    w.option(p.allowance, (w, v) => w.u128(v));
    w.string(p.receiverId);
    w.vec(p.methodNames, (w, m) => w.string(m));
  }
}

export function readAccessKey(r: BorshReader): AccessKey {
  const nonce = r.u64();
  const tag = r.u8();
  if (tag === 1) return { nonce, permission: { kind: 'FullAccess' } };
  if (tag === 3) return { nonce, permission: { kind: 'FullAccess', gasKey: readGasKeyInfo(r) } };
  if (tag !== 0 && tag !== 2) throw new BorshError(`unsupported access key permission ${tag}`);
  const gasKey = tag === 2 ? readGasKeyInfo(r) : undefined;
  const allowance = r.option((r) => r.u128());
  const receiverId = r.string();
  const methodNames = r.vec((r) => r.string());
  const permission: AccessKeyPermission = { kind: 'FunctionCall', allowance, receiverId, methodNames };
  return { nonce, permission: gasKey ? { ...permission, gasKey } : permission };
}

export function encodeAccessKey(k: AccessKey): Uint8Array {
  const w = new BorshWriter(64);
  writeAccessKey(w, k);
  return w.toBytes();
}

export function decodeAccessKey(bytes: Uint8Array): AccessKey {
  const r = new BorshReader(bytes);
  const k = readAccessKey(r);
  r.end();
  return k;
}

export type AccessKeyPermissionView =
  | 'FullAccess'
  | { FunctionCall: { allowance: string | null; receiver_id: string; method_names: string[] } }
  | {
      GasKeyFunctionCall: {
        balance: string;
        num_nonces: number;
        allowance: string | null;
        receiver_id: string;
        method_names: string[];
      };
    }
  | { GasKeyFullAccess: { balance: string; num_nonces: number } };

export interface AccessKeyView {
  nonce: number | bigint;
  permission: AccessKeyPermissionView;
}

export function accessKeyPermissionView(p: AccessKeyPermission): AccessKeyPermissionView {
  if (p.kind === 'FullAccess') {
    return p.gasKey
      ? { GasKeyFullAccess: { balance: p.gasKey.balance.toString(), num_nonces: p.gasKey.numNonces } }
      : 'FullAccess';
  }
  const fc = {
    allowance: p.allowance === null ? null : p.allowance.toString(),
    receiver_id: p.receiverId,
    method_names: p.methodNames,
  };
  return p.gasKey
    ? { GasKeyFunctionCall: { balance: p.gasKey.balance.toString(), num_nonces: p.gasKey.numNonces, ...fc } }
    : { FunctionCall: fc };
}

export function accessKeyView(k: AccessKey): AccessKeyView {
  return { nonce: u64View(k.nonce), permission: accessKeyPermissionView(k.permission) };
}

/** Parses the JSON form used by genesis records, `sandbox_patch_state` and state changes. */
export function accessKeyFromJson(json: unknown): AccessKey {
  const o = json as { nonce?: unknown; permission?: unknown };
  const nonce = BigInt(o.nonce as number | string | bigint);
  const perm = o.permission;
  if (perm === 'FullAccess') return { nonce, permission: { kind: 'FullAccess' } };
  type Fc = { allowance?: string | null; receiver_id: string; method_names: string[] };
  type Gk = { balance: string | number; num_nonces: number };
  const p = perm as { FunctionCall?: Fc; GasKeyFunctionCall?: Fc & Gk; GasKeyFullAccess?: Gk } | null;
  const gasKeyOf = (g: Gk): GasKeyInfo => ({ balance: BigInt(g.balance), numNonces: Number(g.num_nonces) });
  if (p?.GasKeyFullAccess)
    return { nonce, permission: { kind: 'FullAccess', gasKey: gasKeyOf(p.GasKeyFullAccess) } };
  // A gas key's function-call permission: nearcore's serde tuple [GasKeyInfo, FunctionCallPermission]
  // (genesis records), or its view's one object (state changes).
  const tuple = Array.isArray(p?.GasKeyFunctionCall) ? (p.GasKeyFunctionCall as unknown as [Gk, Fc]) : null;
  const gasFc = tuple ? { ...tuple[0], ...tuple[1] } : p?.GasKeyFunctionCall;
  const fc = p?.FunctionCall ?? gasFc;
  if (!fc) throw new TypeError('invalid access key permission');
  const permission: AccessKeyPermission = {
    kind: 'FunctionCall',
    allowance: fc.allowance === null || fc.allowance === undefined ? null : BigInt(fc.allowance),
    receiverId: fc.receiver_id,
    methodNames: [...fc.method_names],
  };
  return {
    nonce,
    permission: gasFc ? { ...permission, gasKey: gasKeyOf(gasFc) } : permission,
  };
}
