// NEP-616 deterministic accounts: a StateInit names the global contract an account runs and its
// initial contract data, and the account's id is derived from it, so anyone can create the account
// and nobody can give it other code or data.
import { createRequire } from 'node:module';
import type { keccak_256 as Keccak256 } from '@noble/hashes/sha3.js';
import { BorshWriter } from '../borsh.js';
import { toHex } from '../hash.js';
import { lazy } from '../lazy.js';
import { type Action, writeGlobalContractIdentifier } from './action.js';

export type StateInit = Pick<Extract<Action, { type: 'DeterministicStateInit' }>, 'code' | 'data'>;

/** Loaded on first use: few chains ever derive a deterministic id. */
const keccak256 = lazy(
  () =>
    (createRequire(import.meta.url)('@noble/hashes/sha3.js') as { keccak_256: typeof Keccak256 }).keccak_256,
);

/** borsh DeterministicAccountStateInit: the V1 tag, the code identifier, the data map in key order. */
export function writeStateInit(w: BorshWriter, init: StateInit): void {
  w.u8(0);
  writeGlobalContractIdentifier(w, init.code);
  w.vec(init.data, (w, [k, v]) => w.bytes(k).bytes(v));
}

/** nearcore's DeterministicAccountStateInit::len_bytes: the data's keys and values, summed. */
export function stateInitDataBytes(init: StateInit): bigint {
  let n = 0;
  for (const [k, v] of init.data) n += k.length + v.length;
  return BigInt(n);
}

/** nearcore's derive_near_deterministic_account_id: "0s" and the last 20 bytes of keccak256(borsh). */
export function deriveDeterministicAccountId(init: StateInit): string {
  const w = new BorshWriter(64);
  writeStateInit(w, init);
  return `0s${toHex(keccak256()(w.toBytes()).subarray(12))}`;
}
