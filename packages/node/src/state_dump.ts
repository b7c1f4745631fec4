// `view-state dump-state`: nearcore's state dump (tools/state-viewer state_dump.rs), which
// near-sandbox's library runs for its dump(). The state of every shard at the head becomes genesis
// records, and the home's genesis the config of a chain that starts right above it: genesis height
// head + 1, genesis time now, the epoch's validators with their stakes, the total supply the records
// hold. A locked balance above what the account stakes as a validator is released, as nearcore's dump
// releases it. With `stream`, `DIR/output/` gets genesis.json (naming records.json as its
// records_file), records.json, config.json (its genesis_records_file set) and both key files;
// without, `DIR/output.json` is the genesis with its records.
//
// The node may be running: LevelDB lets one process open a database, so the dump reads a snapshot of
// it (its immutable tables linked, the rest copied), taken again if a flush or compaction changed the
// files while it was taken.
import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { ChainReader, formatRfc3339Ns } from '@nearlite/chain';
import { HistoryStore } from '@nearlite/follower';
import {
  type Account,
  accessKeyJson,
  accountContract,
  base58Encode,
  decodeAccessKey,
  decodeAccount,
  decodeGasKeyNonce,
  decodeReceipt,
  decodeReceivedData,
  decodeStoredReceipt,
  formatPublicKey,
  parseCommentedJson,
  type Receipt,
  receiptJson,
  stringifyJson,
  toBase64,
} from '@nearlite/primitives';
import { databaseExists } from '@nearlite/store';
import { parseTrieKey } from '@nearlite/trie';
import { homeConfig, homeFiles } from './home.js';
import { copyFileWhole, writeFileWhole } from './write_whole.js';

export class StateDumpError extends Error {
  override readonly name = 'StateDumpError';
}

/** LevelDB's own files that a reader of a copy must not take: the lock and the info logs. */
const SKIPPED = /^(LOCK|LOG|LOG\.old)$/;
const TABLE = /\.(ldb|sst)$/;

function tables(dir: string): string {
  return readdirSync(dir)
    .filter((f) => TABLE.test(f))
    .sort()
    .join(',');
}

/** A consistent copy of the LevelDB at `dataDir` in `into`: the same table files before and after. */
function snapshot(dataDir: string, into: string): void {
  for (let attempt = 0; attempt < 20; attempt++) {
    rmSync(into, { recursive: true, force: true });
    mkdirSync(into, { recursive: true });
    const before = tables(dataDir);
    const current = readFileSync(join(dataDir, 'CURRENT'), 'utf8');
    try {
      // The manifest and logs first, then the tables they name (a table is written whole before a
      // manifest names it, and removed only after a later manifest record stops naming it).
      const files = readdirSync(dataDir).filter((f) => !SKIPPED.test(f));
      for (const f of files.filter((f) => !TABLE.test(f))) copyFileSync(join(dataDir, f), join(into, f));
      for (const f of files.filter((f) => TABLE.test(f))) {
        try {
          linkSync(join(dataDir, f), join(into, f));
        } catch {
          copyFileSync(join(dataDir, f), join(into, f));
        }
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    if (tables(dataDir) === before && readFileSync(join(dataDir, 'CURRENT'), 'utf8') === current) return;
  }
  throw new StateDumpError(`${dataDir} kept changing while it was copied; try again`);
}

type StateRecord = Record<string, unknown>;

function accountRecord(accountId: string, a: Account): StateRecord {
  const contract = accountContract(a);
  return {
    Account: {
      account_id: accountId,
      account: {
        amount: a.amount.toString(),
        locked: a.locked.toString(),
        code_hash: base58Encode(a.codeHash),
        storage_usage: Number(a.storageUsage),
        version: a.v2 ? 'V2' : 'V1',
        ...(contract.kind === 'Global' ? { global_contract_hash: base58Encode(contract.hash) } : {}),
        ...(contract.kind === 'GlobalByAccount' ? { global_contract_account_id: contract.accountId } : {}),
      },
    },
  };
}

/**
 * Every record of the state at the head, in key order per shard: accounts (their locked balance
 * adjusted to `stakes`), access keys, gas-key nonces, contract code, received data, postponed
 * receipts and contract data, then the shard's delayed receipts in queue order, as nearcore's dump
 * writes them. Pending yields have no record (nearcore's dump leaves them out too), nor does global
 * contract code; `tally` counts the yields left out and the supply the accounts hold.
 */
function* records(
  reader: ChainReader,
  shardIds: readonly number[],
  stakes: Map<string, bigint>,
  allow: ReadonlySet<string> | null,
  tally: { yields: number; supply: bigint },
) {
  // nearcore's should_include_record: a record is its account's (a receipt's, its receiver's).
  const kept = (accountId: string) => allow === null || allow.has(accountId);
  for (const shardId of shardIds) {
    const delayed: { index: bigint; receipt: Receipt }[] = [];
    for (const [key, value] of reader.shardState(shardId).iterPrefix(new Uint8Array(0))) {
      const k = parseTrieKey(key);
      if ('accountId' in k && !kept(k.accountId)) continue;
      switch (k.col) {
        case 'account': {
          let a = decodeAccount(value);
          if (a.locked > 0n) {
            const stake = stakes.get(k.accountId) ?? 0n;
            a = { ...a, amount: a.locked > stake ? a.amount + a.locked - stake : a.amount, locked: stake };
          }
          tally.supply += a.amount + a.locked;
          yield accountRecord(k.accountId, a);
          break;
        }
        case 'access_key':
          yield {
            AccessKey: {
              account_id: k.accountId,
              public_key: formatPublicKey(k.publicKey),
              access_key: accessKeyJson(decodeAccessKey(value)),
            },
          };
          break;
        case 'gas_key_nonce':
          yield {
            GasKeyNonce: {
              account_id: k.accountId,
              public_key: formatPublicKey(k.publicKey),
              index: k.index,
              nonce: decodeGasKeyNonce(value),
            },
          };
          break;
        case 'contract_code':
          yield { Contract: { account_id: k.accountId, code: toBase64(value) } };
          break;
        case 'contract_data':
          yield { Data: { account_id: k.accountId, data_key: toBase64(k.key), value: toBase64(value) } };
          break;
        case 'received_data': {
          const data = decodeReceivedData(value);
          yield {
            ReceivedData: {
              account_id: k.accountId,
              data_id: base58Encode(k.hash),
              data: data ? toBase64(data) : null,
            },
          };
          break;
        }
        case 'postponed_receipt':
          yield { PostponedReceipt: receiptJson(decodeReceipt(value)) };
          break;
        case 'delayed_receipt': {
          // After the shard's other records, in the order of the queue: its keys end in the index
          // little-endian, so their order is not the queue's.
          const receipt = decodeStoredReceipt(value).receipt;
          if (kept(receipt.receiverId)) delayed.push({ index: k.index, receipt });
          break;
        }
        case 'promise_yield_receipt':
          tally.yields++;
          break;
        default:
          // The rest is derived from the records above when a genesis is applied (postponed
          // receipts' pending inputs, the delayed queue's indices) or has no record in nearcore's.
          break;
      }
    }
    delayed.sort((a, b) => (a.index < b.index ? -1 : 1));
    for (const { receipt } of delayed) yield { DelayedReceipt: receiptJson(receipt) };
  }
}

export interface StateDumpOptions {
  /** Records in `records.json` beside the genesis, under `output/` (nearcore's `--stream`). */
  readonly stream: boolean;
  /** Where to write: the directory with `stream`, the file without (`--file`). */
  readonly file?: string;
  /**
   * Only these accounts' records, with the validators' and the protocol treasury's (nearcore's
   * `--account-ids`, its `select_account_ids`).
   */
  readonly accountIds?: readonly string[];
  /**
   * Only these validators stay validators; the others are dumped with their stake released to
   * their balance (nearcore's `--include-validators`, its `whitelist_validators`).
   */
  readonly includeValidators?: readonly string[];
}

/** Dumps the state of the node at `home`; returns the files written. */
export interface StateDump {
  readonly files: string[];
  /** Pending yields, which have no record in a state dump. */
  readonly yieldsLeftOut: number;
}

export async function dumpState(home: string, o: StateDumpOptions): Promise<StateDump> {
  const config = homeConfig(home);
  const p = homeFiles(home, config);
  if (!existsSync(p.genesis)) throw new StateDumpError(`no ${config.genesisFile} in ${home}`);
  const { data } = p;
  if (!databaseExists(data)) throw new StateDumpError(`no database in ${data}`);
  const scratch = mkdtempSync(join(tmpdir(), 'nearlite-dump-'));
  try {
    copyFileSync(p.genesis, join(scratch, 'genesis.json'));
    snapshot(data, join(scratch, 'data'));
    // A follower's history opens too, so that it is refused by name (`write`).
    const reader = await ChainReader.open(scratch, { withoutChain: true });
    try {
      return write(home, p, reader, o);
    } finally {
      await reader.close();
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function write(
  home: string,
  p: ReturnType<typeof homeFiles>,
  reader: ChainReader,
  o: StateDumpOptions,
): StateDump {
  const head = reader.head();
  if (!head) {
    const cursor = new HistoryStore(reader.store).cursor();
    throw new StateDumpError(
      cursor
        ? `${home} holds a follower's history (followed to #${cursor.height}), which keeps no state trie; dump-state reads the store of a node that makes its chain`
        : 'the store has no head block',
    );
  }
  const genesis = parseCommentedJson(readFileSync(p.genesis)) as Record<string, unknown>;
  const { records: _records, records_file: _file, ...config } = genesis;
  // This chain's validators are its genesis validators in every epoch; what each stakes is what
  // its account has locked at the head.
  const validators = (config.validators as { account_id: string; public_key: string }[])
    .map((v) => ({ ...v, amount: (reader.account(v.account_id)?.locked ?? 0n).toString() }))
    .sort((a, b) => (a.account_id < b.account_id ? -1 : a.account_id > b.account_id ? 1 : 0));
  const whitelist = o.includeValidators ? new Set(o.includeValidators) : null;
  const stays = (id: string) => whitelist === null || whitelist.has(id);
  const stakes = new Map(
    validators.filter((v) => stays(v.account_id)).map((v) => [v.account_id, BigInt(v.amount)]),
  );
  const allow = o.accountIds
    ? new Set([
        ...validators.map((v) => v.account_id),
        ...o.accountIds,
        String(config.protocol_treasury_account),
      ])
    : null;
  // What the records hold of the total supply, and the pending yields they leave out.
  const tally = { yields: 0, supply: 0n };
  const all = [...records(reader, reader.layout.shardIds, stakes, allow, tally)];
  const headHeader = reader.blockByHeight(head.height);
  const out = {
    ...config,
    genesis_height: head.height + 1,
    genesis_time: formatRfc3339Ns(BigInt(Date.now()) * 1_000_000n),
    // The version the chain runs at, which may be above its genesis' (nearcore's dump does the same).
    ...(headHeader ? { protocol_version: headHeader.rest.latestProtocolVersion } : {}),
    validators: validators.filter((v) => stays(v.account_id)),
    total_supply: tally.supply.toString(),
  };
  if (!o.stream) {
    const file = o.file ?? join(home, 'output.json');
    writeFileWhole(file, `${stringifyJson({ ...out, records: all })}\n`);
    return { files: [file], yieldsLeftOut: tally.yields };
  }
  const dir = o.file ?? join(home, 'output');
  mkdirSync(dir, { recursive: true });
  const recordsFile = join(dir, 'records.json');
  writeFileWhole(recordsFile, `${stringifyJson(all)}\n`);
  const genesisFile = join(dir, 'genesis.json');
  writeFileWhole(genesisFile, `${stringifyJson({ ...out, records_file: recordsFile })}\n`);
  const nodeConfig = existsSync(p.config)
    ? (parseCommentedJson(readFileSync(p.config)) as { store?: Record<string, unknown> })
    : {};
  const configFile = join(dir, 'config.json');
  writeFileWhole(
    configFile,
    // The output is a home of its own: its files under the names it gives them, its database anew.
    `${JSON.stringify(
      {
        ...nodeConfig,
        genesis_file: 'genesis.json',
        genesis_records_file: 'records.json',
        validator_key_file: basename(p.validatorKey),
        node_key_file: basename(p.nodeKey),
        // Its database is made under the dump, not where the dumped node keeps its own.
        ...(nodeConfig.store?.path !== undefined ? { store: { ...nodeConfig.store, path: null } } : {}),
      },
      null,
      2,
    )}\n`,
  );
  const written = [genesisFile, recordsFile, configFile];
  for (const key of [p.nodeKey, p.validatorKey]) {
    if (!existsSync(key)) continue;
    const to = join(dir, basename(key));
    copyFileWhole(key, to);
    written.push(to);
  }
  return { files: written, yieldsLeftOut: tally.yields };
}
