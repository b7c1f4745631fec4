// nearcore's validate_genesis (core/chain-configs/src/genesis_validate.rs), which a node runs over its
// genesis at every start: the records' supply, stakes and owners against the config, and the config's
// ratios. A genesis edited by hand or by a tool (near-kit's restart with a dump, extra accounts) that
// nearcore would refuse is refused here too, with every failure in nearcore's words.
import { isValidStakingKey } from '@nearlite/primitives';
import { type Genesis, GenesisError, type GenesisRecord, loadGenesis } from './config.js';

/** A Rational32 from its serde pair, reduced as num_rational keeps it; null if it is not one. */
function ratio(v: unknown): { n: bigint; d: bigint } | null {
  if (!Array.isArray(v) || v.length !== 2 || !v.every(Number.isSafeInteger)) return null;
  let [n, d] = [BigInt(v[0] as number), BigInt(v[1] as number)];
  if (d === 0n) return null;
  if (d < 0n) [n, d] = [-n, -d];
  let [a, b] = [n < 0n ? -n : n, d];
  while (b !== 0n) [a, b] = [b, a % b];
  return a === 0n ? { n: 0n, d: 1n } : { n: n / a, d: d / a };
}

/** num_rational's Display: `n` for a whole number, `n/d` otherwise. */
const shown = (r: { n: bigint; d: bigint }) => (r.d === 1n ? `${r.n}` : `${r.n}/${r.d}`);
const below = (a: { n: bigint; d: bigint }, b: { n: bigint; d: bigint }) => a.n * b.d < b.n * a.d;
const ONE = { n: 1n, d: 1n };

function amount(v: unknown): bigint {
  try {
    return BigInt(String(v));
  } catch {
    // A malformed balance is the state records' to report, naming the field.
    return 0n;
  }
}

/** Every failure nearcore's validator reports for this genesis, in its order; empty when it passes. */
export function genesisSemanticsErrors(genesis: Genesis): string[] {
  const errors: string[] = [];
  let totalSupply = 0n;
  const staked = new Map<string, bigint>();
  const accounts = new Set<string>();
  const keyOwners = new Set<string>();
  const contractOwners = new Set<string>();
  for (const record of genesis.records as readonly Partial<Record<string, { account_id?: unknown }>>[]) {
    const kind = Object.keys(record)[0] as keyof GenesisRecord | undefined;
    const body = kind === undefined ? undefined : record[kind];
    const id = String(body?.account_id);
    if (kind === 'Account') {
      if (accounts.has(id)) errors.push(`Duplicate account id ${id} in genesis records`);
      const a = (body as { account?: { amount?: unknown; locked?: unknown } }).account ?? {};
      const locked = amount(a.locked);
      totalSupply += locked + amount(a.amount);
      accounts.add(id);
      if (locked > 0n) staked.set(id, locked);
    } else if (kind === 'AccessKey') {
      keyOwners.add(id);
    } else if (kind === 'Contract') {
      if (contractOwners.has(id)) errors.push(`account ${id} has more than one contract deployed`);
      contractOwners.add(id);
    }
  }

  const { config } = genesis;
  const validators = new Map<string, bigint>();
  for (const v of config.validators) {
    if (!isValidStakingKey(v.publicKey)) errors.push('validator staking key is not valid');
    validators.set(v.accountId, v.amount);
  }
  if (validators.size !== config.validators.length)
    errors.push(
      `Duplicate account in validators. The number of account_ids: ${accounts.size} does not match the number of validators: ${validators.size}.`,
    );
  if (validators.size === 0) errors.push('No validators in genesis');
  if (totalSupply !== config.totalSupply)
    errors.push(
      `wrong total supply. account.locked() + account.amount() = ${totalSupply} is not equal to the total supply = ${config.totalSupply} specified in genesis config.`,
    );
  const sameStakes =
    validators.size === staked.size && [...validators].every(([id, stake]) => staked.get(id) === stake);
  if (!sameStakes) errors.push('Validator accounts do not match staked accounts.');
  for (const id of keyOwners) if (!accounts.has(id)) errors.push(`access key account ${id} does not exist`);
  for (const id of contractOwners)
    if (!accounts.has(id)) errors.push(`contract account ${id} does not exist,`);

  const min = ratio(config.raw.online_min_threshold);
  const max = ratio(config.raw.online_max_threshold);
  if (min && max) {
    if (!below(min, max))
      errors.push(`Online max threshold ${shown(max)} smaller than min threshold ${shown(min)}`);
    if (below(ONE, max))
      errors.push(`Online max threshold must be less or equal than 1, but current value is ${shown(max)}`);
    if (max.n >= 10_000_000n)
      errors.push("online_max_threshold's numerator is too large, may lead to overflow.");
    if (min.n >= 10_000_000n)
      errors.push("online_min_threshold's numerator is too large, may lead to overflow.");
    if (max.d >= 10_000_000n)
      errors.push("online_max_threshold's denominator is too large, may lead to overflow.");
    if (min.d >= 10_000_000n)
      errors.push("online_min_threshold's denominator is too large, may lead to overflow.");
  }
  const rate = ratio(config.gasPriceAdjustmentRate);
  if (rate && !below(rate, ONE))
    errors.push(`Gas price adjustment rate must be less than 1, value in config is ${shown(rate)}`);
  if (config.epochLength === 0) errors.push('Epoch Length must be greater than 0');
  return errors;
}

/** Refuses a genesis nearcore's node would refuse at start, naming every failure. */
export function validateGenesis(genesis: Genesis, path: string): void {
  const errors = genesisSemanticsErrors(genesis);
  if (errors.length > 0)
    throw new GenesisError(`genesis ${path} fails nearcore's genesis validation:\n  ${errors.join('\n  ')}`);
}

/** A genesis file loaded as `loadGenesis` loads it, then checked as nearcore's node checks it at start. */
export function loadValidGenesis(path: string, recordsFile?: string): Genesis {
  const genesis = loadGenesis(path, recordsFile);
  validateGenesis(genesis, path);
  return genesis;
}
