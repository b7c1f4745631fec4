// nearcore's ExecutionMetadata (core/primitives/src/transaction.rs) and its view (views.rs).
// Transactions carry V1 (no profile). Receipts carry V4 since protocol 85 (ExecutionMetadataV4): the
// gas profile (ProfileDataV3) plus, per action of the receipt, the contract its receiver had right
// before that action ran.
//
// The profile is what nearcore's VM books, nothing more: a receipt's own execution fees
// (new_action_receipt, each action's exec fee, a function call's base and per-byte exec fee) are in
// gas_burnt but never in the profile, so a transfer's profile is empty and a function call's entries
// sum to its gas_burnt less those fees. Real outcomes show the same (see the runtime README).
import {
  type Account,
  type AccountContract,
  accountContract,
  BorshError,
  type BorshReader,
  type BorshWriter,
  base58Encode,
  readAccountContract,
  writeAccountContract,
} from '@nearlite/primitives';
import { ActionCosts, EXT_COSTS, type ExtCost, ProfileDataV3 } from '@nearlite/vm';

export type ExecutionMetadata =
  | { readonly version: 1 }
  | { readonly version: 3; readonly profile: ProfileDataV3 }
  | {
      readonly version: 4;
      readonly profile: ProfileDataV3;
      /** One entry per action of the receipt, in order; `None` for actions that never ran. */
      readonly contracts: readonly AccountContract[];
    };

const NONE: AccountContract = { kind: 'None' };

/**
 * The contract an account has now (nearcore's `account.contract()`): `Local`, `Global` (by hash) or
 * `GlobalByAccount` for an AccountV2 using a global contract; `None` for an account that does not
 * exist (yet) or has no code.
 */
export function currentContract(account: Account | null): AccountContract {
  return account === null ? NONE : accountContract(account);
}

/** nearcore pads the per-action list to the receipt's action count (actions after a failure). */
export function padContracts(contracts: AccountContract[], actions: number): AccountContract[] {
  while (contracts.length < actions) contracts.push(NONE);
  return contracts;
}

// --- storage form: appended to the outcome, after its version byte ---

const ACTION_COST_NAMES: ReadonlySet<string> = new Set(Object.values(ActionCosts));
const EXT_COST_NAMES: ReadonlySet<string> = new Set(EXT_COSTS);

function writeProfile(w: BorshWriter, p: ProfileDataV3): void {
  w.vec(p.actionCosts(), (w, [name, gas]) => w.string(name).u64(gas));
  w.vec(p.extCosts(), (w, [name, gas]) => w.string(name).u64(gas));
  w.u64(p.getWasmCost());
}

function readProfile(r: BorshReader): ProfileDataV3 {
  const p = new ProfileDataV3();
  for (const [name, gas] of r.vec((r) => [r.string(), r.u64()] as const)) {
    if (!ACTION_COST_NAMES.has(name)) throw new BorshError(`unknown action cost ${name}`);
    p.addActionCost(name as ActionCosts, gas);
  }
  for (const [name, gas] of r.vec((r) => [r.string(), r.u64()] as const)) {
    if (!EXT_COST_NAMES.has(name)) throw new BorshError(`unknown host cost ${name}`);
    p.addExtCost(name as ExtCost, gas);
  }
  p.setWasmCost(r.u64());
  return p;
}

export function writeMetadata(w: BorshWriter, m: ExecutionMetadata): void {
  w.u8(m.version);
  if (m.version === 1) return;
  writeProfile(w, m.profile);
  if (m.version === 4) w.vec(m.contracts, writeAccountContract);
}

/** Reads what writeMetadata wrote; a bare version 3 byte (outcomes stored before profiles) has none. */
export function readMetadata(r: BorshReader): ExecutionMetadata {
  const v = r.u8();
  if (v === 1) return { version: 1 };
  if (v === 3) return { version: 3, profile: r.remaining === 0 ? new ProfileDataV3() : readProfile(r) };
  if (v === 4) {
    const profile = readProfile(r);
    return { version: 4, profile, contracts: r.vec(readAccountContract) };
  }
  throw new BorshError(`unknown execution metadata version ${v}`);
}

// --- the JSON view ---

export interface CostGasUsed {
  readonly cost_category: 'ACTION_COST' | 'WASM_HOST_COST';
  readonly cost: string;
  /** A decimal string (nearcore's dec_format). */
  readonly gas_used: string;
}

/**
 * nearcore's V3 profile view: action costs, WASM_INSTRUCTION and host costs, zero entries left out,
 * sorted by category and then name (byte order, as Rust compares Strings).
 */
export function gasProfileView(p: ProfileDataV3): CostGasUsed[] {
  const costs: CostGasUsed[] = [];
  for (const [name, gas] of p.actionCosts())
    costs.push({ cost_category: 'ACTION_COST', cost: name.toUpperCase(), gas_used: gas.toString() });
  const wasm = p.getWasmCost();
  if (wasm > 0n)
    costs.push({ cost_category: 'WASM_HOST_COST', cost: 'WASM_INSTRUCTION', gas_used: wasm.toString() });
  for (const [name, gas] of p.extCosts())
    costs.push({ cost_category: 'WASM_HOST_COST', cost: name.toUpperCase(), gas_used: gas.toString() });
  const key = (c: CostGasUsed) => `${c.cost_category}\u0000${c.cost}`;
  return costs.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

export type AccountContractView =
  | { readonly local: string }
  | { readonly global_hash: string }
  | { readonly global_account_id: string }
  | null;

export function accountContractView(c: AccountContract): AccountContractView {
  switch (c.kind) {
    case 'None':
      return null;
    case 'Local':
      return { local: base58Encode(c.hash) };
    case 'Global':
      return { global_hash: base58Encode(c.hash) };
    case 'GlobalByAccount':
      return { global_account_id: c.accountId };
  }
}

/** nearcore's ExecutionMetadataView; `contracts` appears only from version 4 on. */
export function executionMetadataView(m: ExecutionMetadata): object {
  if (m.version === 1) return { version: 1, gas_profile: null };
  const gas_profile = gasProfileView(m.profile);
  if (m.version === 3) return { version: 3, gas_profile };
  return { version: 4, gas_profile, contracts: m.contracts.map(accountContractView) };
}

/** A gas profile entry this build does not know. */
export class GasProfileViewError extends Error {
  override readonly name = 'GasProfileViewError';
}

/** Reads a view's gas profile back (real outcomes in tests, followers storing what they are sent). */
export function profileFromView(costs: readonly CostGasUsed[]): ProfileDataV3 {
  const p = new ProfileDataV3();
  for (const c of costs) {
    const gas = BigInt(c.gas_used);
    const name = c.cost.toLowerCase();
    if (c.cost_category === 'ACTION_COST' && ACTION_COST_NAMES.has(name))
      p.addActionCost(name as ActionCosts, gas);
    else if (c.cost_category === 'WASM_HOST_COST' && c.cost === 'WASM_INSTRUCTION') p.setWasmCost(gas);
    else if (c.cost_category === 'WASM_HOST_COST' && EXT_COST_NAMES.has(name))
      p.addExtCost(name as ExtCost, gas);
    else throw new GasProfileViewError(`unknown gas profile entry ${c.cost_category} ${c.cost}`);
  }
  return p;
}
