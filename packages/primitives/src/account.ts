// Trie values for accounts and access keys, in nearcore's borsh layouts.
import { base58Encode } from './base58.js';
import { BorshError, BorshReader, BorshWriter } from './borsh.js';
import type { CryptoHash } from './hash.js';

export interface Account {
  amount: bigint;
  locked: bigint;
  codeHash: CryptoHash;
  storageUsage: bigint;
}

/** The 72-byte "V1" layout every account without global-contract fields still uses. */
export function encodeAccount(a: Account): Uint8Array {
  return new BorshWriter(72).u128(a.amount).u128(a.locked).fixed(a.codeHash).u64(a.storageUsage).toBytes();
}

export function decodeAccount(bytes: Uint8Array): Account {
  const r = new BorshReader(bytes);
  const amount = r.u128();
  if (amount === (1n << 128n) - 1n) throw new BorshError('versioned (V2) accounts are not supported');
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
}

export function accountView(a: Account): AccountView {
  return {
    amount: a.amount.toString(),
    locked: a.locked.toString(),
    code_hash: base58Encode(a.codeHash),
    storage_usage: Number(a.storageUsage),
    storage_paid_at: 0,
  };
}

export type AccessKeyPermission =
  | { kind: 'FullAccess' }
  | { kind: 'FunctionCall'; allowance: bigint | null; receiverId: string; methodNames: string[] };

export interface AccessKey {
  nonce: bigint;
  permission: AccessKeyPermission;
}

export function writeAccessKey(w: BorshWriter, k: AccessKey): void {
  w.u64(k.nonce);
  const p = k.permission;
  if (p.kind === 'FullAccess') {
    w.u8(1);
  } else {
    w.u8(0);
    w.option(p.allowance, (w, v) => w.u128(v));
    w.string(p.receiverId);
    w.vec(p.methodNames, (w, m) => w.string(m));
  }
}

export function readAccessKey(r: BorshReader): AccessKey {
  const nonce = r.u64();
  const tag = r.u8();
  if (tag === 1) return { nonce, permission: { kind: 'FullAccess' } };
  if (tag !== 0) throw new BorshError(`unsupported access key permission ${tag}`);
  const allowance = r.option((r) => r.u128());
  const receiverId = r.string();
  const methodNames = r.vec((r) => r.string());
  return { nonce, permission: { kind: 'FunctionCall', allowance, receiverId, methodNames } };
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
  | { FunctionCall: { allowance: string | null; receiver_id: string; method_names: string[] } };

export interface AccessKeyView {
  nonce: bigint;
  permission: AccessKeyPermissionView;
}

export function accessKeyPermissionView(p: AccessKeyPermission): AccessKeyPermissionView {
  if (p.kind === 'FullAccess') return 'FullAccess';
  return {
    FunctionCall: {
      allowance: p.allowance === null ? null : p.allowance.toString(),
      receiver_id: p.receiverId,
      method_names: p.methodNames,
    },
  };
}

export function accessKeyView(k: AccessKey): AccessKeyView {
  return { nonce: k.nonce, permission: accessKeyPermissionView(k.permission) };
}

/** Parses the JSON form used by genesis records and `sandbox_patch_state`. */
export function accessKeyFromJson(json: unknown): AccessKey {
  const o = json as { nonce?: unknown; permission?: unknown };
  const nonce = BigInt(o.nonce as number | string | bigint);
  const perm = o.permission;
  if (perm === 'FullAccess') return { nonce, permission: { kind: 'FullAccess' } };
  const fc = (
    perm as { FunctionCall?: { allowance?: string | null; receiver_id: string; method_names: string[] } }
  )?.FunctionCall;
  if (!fc) throw new TypeError('invalid access key permission');
  return {
    nonce,
    permission: {
      kind: 'FunctionCall',
      allowance: fc.allowance === null || fc.allowance === undefined ? null : BigInt(fc.allowance),
      receiverId: fc.receiver_id,
      methodNames: [...fc.method_names],
    },
  };
}
