// nearcore's global-contract parameters, read from the copy of the parameter file that introduced
// them (core/parameters/res/runtime_configs/77.yaml; no later file up to protocol 86 changes them).
// The runtime_config view, and so the …__86.json.snap snapshot, has no field for them.
import { readFileSync } from 'node:fs';
import type { Fee } from './snapshot.js';

const text = readFileSync(new URL('./fixtures/runtime_configs_77.yaml', import.meta.url), 'utf8');

const num = (s: string) => BigInt(s.replaceAll('_', ''));

/** The `new:` value of one fee parameter. */
function fee(name: string): Fee {
  const start = text.indexOf(`${name}: {`);
  if (start < 0) throw new Error(`no ${name} in the parameter file`);
  const body = text.slice(text.indexOf('new:', start));
  const pick = (field: string) => num(new RegExp(`${field}: ([\\d_]+)`).exec(body)![1]!);
  return { sendSir: pick('send_sir'), sendNotSir: pick('send_not_sir'), exec: pick('execution') };
}

export const GLOBAL = {
  deployBase: fee('action_deploy_global_contract'),
  deployByte: fee('action_deploy_global_contract_per_byte'),
  useBase: fee('action_use_global_contract'),
  useByte: fee('action_use_global_contract_per_identifier_byte'),
  storagePerByte: num(/global_contract_storage_amount_per_byte: \{.*new: ([\d_]+) YN/.exec(text)![1]!),
} as const;
