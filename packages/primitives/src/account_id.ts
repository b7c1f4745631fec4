// nearcore's account-id rules (near-account-id 2.x), with its Display strings, which clients see.
import { rustDebugChar } from './rust_debug.js';

export type AccountId = string;

export class InvalidAccountIdError extends Error {
  override readonly name = 'InvalidAccountIdError';
  constructor(
    readonly accountId: string,
    readonly reason: string,
  ) {
    super(reason);
  }
}

function isSeparator(c: number): boolean {
  return c === 0x2d || c === 0x5f || c === 0x2e; // - _ .
}

function isAlnum(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39);
}

/** Returns the Display text of the parse error, or null when the id is valid. */
export function accountIdError(id: string): string | null {
  const len = Buffer.byteLength(id, 'utf8');
  if (len < 2) return 'the Account ID is too short';
  if (len > 64) return 'the Account ID is too long';
  let lastSeparator = true; // a separator at index 0 is redundant
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if (isSeparator(c)) {
      if (lastSeparator)
        return `the Account ID has a redundant separator ${rustDebugChar(id[i]!)} at index ${i}`;
      lastSeparator = true;
    } else if (isAlnum(c)) {
      lastSeparator = false;
    } else {
      const ch = String.fromCodePoint(id.codePointAt(i)!);
      return `the Account ID contains an invalid character ${rustDebugChar(ch)} at index ${i}`;
    }
  }
  if (lastSeparator)
    return `the Account ID has a redundant separator ${rustDebugChar(id[id.length - 1]!)} at index ${id.length - 1}`;
  return null;
}

export function isValidAccountId(id: string): boolean {
  return accountIdError(id) === null;
}

export function parseAccountId(id: string): AccountId {
  const err = accountIdError(id);
  if (err !== null) throw new InvalidAccountIdError(id, err);
  return id;
}

const HEX64 = /^[0-9a-f]{64}$/;
const ETH_IMPLICIT = /^0x[0-9a-f]{40}$/;
const DETERMINISTIC = /^0s[0-9a-f]{40}$/;

export type AccountType =
  | 'NearImplicitAccount'
  | 'EthImplicitAccount'
  | 'NearDeterministicAccount'
  | 'NamedAccount';

export function accountType(id: AccountId): AccountType {
  if (HEX64.test(id)) return 'NearImplicitAccount';
  if (ETH_IMPLICIT.test(id)) return 'EthImplicitAccount';
  if (DETERMINISTIC.test(id)) return 'NearDeterministicAccount';
  return 'NamedAccount';
}

export function isImplicitAccount(id: AccountId): boolean {
  return accountType(id) !== 'NamedAccount';
}

export function isTopLevelAccount(id: AccountId): boolean {
  return id !== 'system' && !id.includes('.');
}

/** `a.b.near` is a sub-account of `b.near`; only the direct parent may create it. */
export function isSubAccountOf(id: AccountId, parent: AccountId): boolean {
  return (
    id.length > parent.length + 1 &&
    id.endsWith(parent) &&
    id[id.length - parent.length - 1] === '.' &&
    !id.slice(0, id.length - parent.length - 1).includes('.')
  );
}

export const SYSTEM_ACCOUNT: AccountId = 'system';
