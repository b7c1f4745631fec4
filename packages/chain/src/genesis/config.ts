// nearcore's genesis file: the config fields at the top level plus `records`. Loading keeps the config
// object as given (so `genesis_config` answers with the operator's own file) and parses what the
// chain itself needs into typed fields.
import { readFileSync } from 'node:fs';
import { type PublicKey, parseAccountId, parseCommentedJson, parsePublicKey } from '@nearlite/primitives';

export type Rational = readonly [number, number];

export interface GenesisValidator {
  readonly accountId: string;
  readonly publicKey: PublicKey;
  readonly publicKeyText: string;
  readonly amount: bigint;
}

export type GenesisRecord =
  | { readonly Account: { account_id: string; account: Record<string, unknown> } }
  | { readonly AccessKey: { account_id: string; public_key: string; access_key: unknown } }
  | { readonly Contract: { account_id: string; code: string } }
  | { readonly Data: { account_id: string; data_key: string; value: string } }
  | { readonly GasKeyNonce: { account_id: string; public_key: string; index: number; nonce: number } }
  // Receipts in flight and the data they wait for, in nearcore's serde JSON (genesis_receipts.ts).
  | { readonly PostponedReceipt: { receiver_id: string } & Record<string, unknown> }
  | { readonly DelayedReceipt: { receiver_id: string } & Record<string, unknown> }
  | { readonly ReceivedData: { account_id: string; data_id: string; data: string | null } };

export interface GenesisConfig {
  /** The config object exactly as in the file, without records. */
  readonly raw: Readonly<Record<string, unknown>>;
  readonly protocolVersion: number;
  readonly genesisTime: string;
  readonly genesisTimeNs: bigint;
  readonly chainId: string;
  readonly genesisHeight: number;
  readonly epochLength: number;
  readonly gasLimit: bigint;
  readonly minGasPrice: bigint;
  readonly maxGasPrice: bigint;
  readonly gasPriceAdjustmentRate: Rational;
  readonly transactionValidityPeriod: number;
  readonly totalSupply: bigint;
  readonly validators: readonly GenesisValidator[];
  readonly protocolTreasuryAccount: string;
  readonly shardLayout: unknown;
}

export interface Genesis {
  readonly config: GenesisConfig;
  readonly records: readonly GenesisRecord[];
}

export class GenesisError extends Error {
  override readonly name = 'GenesisError';
}

function req<T>(o: Record<string, unknown>, key: string, kind: 'string' | 'number' | 'object'): T {
  const v = o[key];
  if (kind === 'object' ? typeof v !== 'object' || v === null : typeof v !== kind) {
    throw new GenesisError(`genesis: field '${key}' must be a ${kind}`);
  }
  return v as T;
}

function big(o: Record<string, unknown>, key: string): bigint {
  const v = o[key];
  if (typeof v !== 'string' && typeof v !== 'number')
    throw new GenesisError(`genesis: field '${key}' must be a number`);
  try {
    return BigInt(v);
  } catch {
    throw new GenesisError(`genesis: field '${key}' is not an integer`);
  }
}

/**
 * RFC 3339 with up to nanosecond precision → ns since the epoch. A block's timestamp is a u64 of
 * nanoseconds, so a genesis_time before 1970 or past 2554 cannot be the genesis block's.
 */
export function parseRfc3339Ns(text: string): bigint {
  const m = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/.exec(text);
  if (!m) throw new GenesisError(`genesis: invalid genesis_time '${text}'`);
  const ms = Date.parse(`${m[1]}${m[3]}`);
  if (Number.isNaN(ms)) throw new GenesisError(`genesis: invalid genesis_time '${text}'`);
  const ns = BigInt(ms) * 1_000_000n + BigInt((m[2] ?? '').padEnd(9, '0'));
  if (ns < 0n || ns >= 2n ** 64n)
    throw new GenesisError(
      `genesis: genesis_time '${text}' is outside what a block timestamp holds (nanoseconds from 1970 in a u64)`,
    );
  return ns;
}

/**
 * ns since the epoch → RFC 3339 in UTC with nine fraction digits, as nearcore writes its times
 * (near_time's Iso8601::DEFAULT for status' block times; its genesis files: mainnet's
 * `2020-07-21T16:55:51.591948000Z`).
 */
export function formatRfc3339Ns(ns: bigint): string {
  const ms = Number(ns / 1_000_000n);
  const frac = (ns % 1_000_000_000n).toString().padStart(9, '0');
  return `${new Date(ms).toISOString().slice(0, 19)}.${frac}Z`;
}

export function parseGenesisConfig(raw: Record<string, unknown>): GenesisConfig {
  const { records: _records, records_file: _recordsFile, ...config } = raw;
  const validators = req<unknown[]>(raw, 'validators', 'object').map((v, i) => {
    const o = v as Record<string, unknown>;
    try {
      return {
        accountId: parseAccountId(String(o.account_id)),
        publicKey: parsePublicKey(String(o.public_key)),
        publicKeyText: String(o.public_key),
        amount: BigInt(String(o.amount)),
      };
    } catch (err) {
      throw new GenesisError(`genesis: validator ${i} is invalid: ${(err as Error).message}`);
    }
  });
  const rate = (raw.gas_price_adjustment_rate as [number, number] | undefined) ?? [1, 100];
  const genesisTime = req<string>(raw, 'genesis_time', 'string');
  return {
    raw: config,
    protocolVersion: req<number>(raw, 'protocol_version', 'number'),
    genesisTime,
    genesisTimeNs: parseRfc3339Ns(genesisTime),
    chainId: req<string>(raw, 'chain_id', 'string'),
    genesisHeight: req<number>(raw, 'genesis_height', 'number'),
    epochLength: req<number>(raw, 'epoch_length', 'number'),
    gasLimit: big(raw, 'gas_limit'),
    minGasPrice: big(raw, 'min_gas_price'),
    maxGasPrice: big(raw, 'max_gas_price'),
    gasPriceAdjustmentRate: [rate[0], rate[1]],
    transactionValidityPeriod: req<number>(raw, 'transaction_validity_period', 'number'),
    totalSupply: big(raw, 'total_supply'),
    validators,
    protocolTreasuryAccount: req<string>(raw, 'protocol_treasury_account', 'string'),
    shardLayout: raw.shard_layout ?? { V0: { num_shards: 1, version: 0 } },
  };
}

export function parseGenesis(raw: Record<string, unknown>): Genesis {
  const records = raw.records;
  if (!Array.isArray(records)) throw new GenesisError("genesis: 'records' must be an array");
  return { config: parseGenesisConfig(raw), records: records as GenesisRecord[] };
}

/** A genesis or records file: nearcore strips comments from both (stream_records_from_file too). */
function readJson(path: string, what: string): unknown {
  try {
    return parseCommentedJson(readFileSync(path));
  } catch (err) {
    throw new GenesisError(`cannot read ${what} ${path}: ${(err as Error).message}`);
  }
}

function readGenesisObject(path: string): Record<string, unknown> {
  const raw = readJson(path, 'genesis file');
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new GenesisError(`genesis file ${path} is not a JSON object`);
  }
  return raw as Record<string, unknown>;
}

/** The config of a genesis file, for readers that need no records (its shard layout, its height). */
export function loadGenesisConfig(path: string): GenesisConfig {
  return parseGenesisConfig(readGenesisObject(path));
}

function readRecords(path: string): GenesisRecord[] {
  const records = readJson(path, 'genesis records file');
  if (!Array.isArray(records)) throw new GenesisError(`genesis records file ${path} is not a JSON array`);
  return records as GenesisRecord[];
}

/**
 * nearcore's genesis file: its config with the records in `records`, or in the JSON array the file
 * `records_file` names (GenesisContents::RecordsFile, the path as given, as nearcore opens it).
 * `recordsFile`, a node config's `genesis_records_file`, takes the records from that file instead,
 * whatever the genesis holds (nearcore's Genesis::from_files).
 */
export function loadGenesis(path: string, recordsFile?: string): Genesis {
  const o = readGenesisObject(path);
  if (recordsFile !== undefined) return { config: parseGenesisConfig(o), records: readRecords(recordsFile) };
  if (!Array.isArray(o.records) && typeof o.records_file === 'string')
    return { config: parseGenesisConfig(o), records: readRecords(o.records_file) };
  return parseGenesis(o);
}
