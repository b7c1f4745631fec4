// nearcore's parameter snapshot for the protocol version nearlite reports, read from the copy in
// fixtures/: expected values in tests come from these numbers, never from nearlite's own tables.
import { readFileSync } from 'node:fs';

const text = readFileSync(
  new URL('./fixtures/near_parameters__config_store__tests__86.json.snap', import.meta.url),
  'utf8',
);

interface SnapFee {
  readonly send_sir: number;
  readonly send_not_sir: number;
  readonly execution: number;
}

export interface Fee {
  readonly sendSir: bigint;
  readonly sendNotSir: bigint;
  readonly exec: bigint;
}

// The snapshot's numbers stay below 2^53, so JSON.parse reads them exactly; the balances are strings.
export const SNAPSHOT = JSON.parse(text.slice(text.indexOf('\n{') + 1)) as {
  storage_amount_per_byte: string;
  min_gas_purchase_price: string;
  account_creation_charge: string;
  transaction_costs: {
    action_receipt_creation_config: SnapFee;
    data_receipt_creation_config: { base_cost: SnapFee; cost_per_byte: SnapFee };
    action_creation_config: Record<string, SnapFee> & {
      add_key_cost: {
        full_access_cost: SnapFee;
        function_call_cost: SnapFee;
        function_call_cost_per_byte: SnapFee;
      };
    };
    burnt_gas_reward: [number, number];
    ml_dsa_65_verification_cost: number;
  };
  wasm_config: {
    ext_costs: Record<string, number>;
    limit_config: Record<string, number>;
    regular_op_cost: number;
  };
} & Record<string, unknown>;

function fee(f: SnapFee): Fee {
  return { sendSir: BigInt(f.send_sir), sendNotSir: BigInt(f.send_not_sir), exec: BigInt(f.execution) };
}

const tc = SNAPSHOT.transaction_costs;
const acc = tc.action_creation_config;
export const FEES = {
  receipt: fee(tc.action_receipt_creation_config),
  dataBase: fee(tc.data_receipt_creation_config.base_cost),
  dataByte: fee(tc.data_receipt_creation_config.cost_per_byte),
  createAccount: fee(acc.create_account_cost!),
  deployBase: fee(acc.deploy_contract_cost!),
  deployByte: fee(acc.deploy_contract_cost_per_byte!),
  functionCallBase: fee(acc.function_call_cost!),
  functionCallByte: fee(acc.function_call_cost_per_byte!),
  transfer: fee(acc.transfer_cost!),
  stake: fee(acc.stake_cost!),
  addFullKey: fee(acc.add_key_cost.full_access_cost),
  addFnKeyBase: fee(acc.add_key_cost.function_call_cost),
  addFnKeyByte: fee(acc.add_key_cost.function_call_cost_per_byte),
  deleteKey: fee(acc.delete_key_cost!),
  deleteAccount: fee(acc.delete_account_cost!),
  delegate: fee(acc.delegate_cost!),
} as const;

/** What an ML-DSA-65 signature burns at conversion beyond a classical one (PostQuantumSignatures). */
export const ML_DSA_65_VERIFICATION_COST = BigInt(tc.ml_dsa_65_verification_cost);
export const MIN_GAS_PURCHASE_PRICE = BigInt(SNAPSHOT.min_gas_purchase_price);
export const ACCOUNT_CREATION_CHARGE = BigInt(SNAPSHOT.account_creation_charge);
export const STORAGE_AMOUNT_PER_BYTE = BigInt(SNAPSHOT.storage_amount_per_byte);

/** One wasm ext cost from the snapshot. */
export function ext(name: string): bigint {
  const v = SNAPSHOT.wasm_config.ext_costs[name];
  if (v === undefined) throw new Error(`no ext cost ${name} in the snapshot`);
  return BigInt(v);
}

// nearcore's human-readable parameter list at protocol 86 (core/parameters/res/runtime_configs/
// parameters.snap), the one place compute costs are written down: the JSON view shows gas only.
const PARAMETERS = readFileSync(new URL('./fixtures/parameters.snap', import.meta.url), 'utf8').split('\n');
const num = (s: string) => BigInt(s.replaceAll('_', ''));

/**
 * A parameter's compute cost: `name` for a host cost (`wasm_storage_write_base`), `name.execution`
 * for a fee's part (`action_deploy_contract.execution`); its gas where the list gives no compute.
 */
export function compute(name: string): bigint {
  const [param, part] = name.split('.');
  const at = PARAMETERS.findIndex((l) => l.split(/\s+/)[0] === param);
  if (at < 0) throw new Error(`no parameter ${param} in parameters.snap`);
  const line = part
    ? PARAMETERS.slice(at + 1, at + 4).find((l) => l.startsWith(`- ${part}:`))
    : PARAMETERS[at];
  const m = line?.match(/(?:^\S+|:)\s+([\d_]+)(?:, compute:\s+([\d_]+))?\s*$/);
  if (!m) throw new Error(`cannot read ${name} in parameters.snap`);
  return num(m[2] ?? m[1]!);
}
