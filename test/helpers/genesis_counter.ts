// Contracts as genesis records of a home, for tests that read a contract without sending a
// transaction: any code under any account (`addGenesisContract`), and the counter contract as
// `counter.test.near` with its counter (storage key "n") at 7.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import bs58 from 'bs58';
import { compileContract } from './asc.js';

export const COUNTER_ACCOUNT = 'counter.test.near';
const BALANCE = 10n ** 25n;

/**
 * Adds `accountId` running `code`, with `data` (key → value) in its state, to `home`'s genesis.json;
 * returns the code's base58 hash.
 */
export function addGenesisContract(
  home: string,
  accountId: string,
  code: Uint8Array,
  data: ReadonlyMap<string, Uint8Array> = new Map(),
): string {
  const codeHash = bs58.encode(createHash('sha256').update(code).digest());
  const genesisPath = join(home, 'genesis.json');
  const genesis = JSON.parse(readFileSync(genesisPath, 'utf8')) as {
    records: unknown[];
    total_supply: string;
  };
  // nearcore's genesis validation holds the records to the total supply.
  genesis.total_supply = (BigInt(genesis.total_supply) + BALANCE).toString();
  genesis.records.push(
    {
      Account: {
        account_id: accountId,
        account: { amount: BALANCE.toString(), locked: '0', code_hash: codeHash, storage_usage: 0 },
      },
    },
    { Contract: { account_id: accountId, code: Buffer.from(code).toString('base64') } },
    ...[...data].map(([key, value]) => ({
      Data: {
        account_id: accountId,
        data_key: Buffer.from(key).toString('base64'),
        value: Buffer.from(value).toString('base64'),
      },
    })),
  );
  writeFileSync(genesisPath, JSON.stringify(genesis));
  return codeHash;
}

/** Adds the counter's records to `home`'s genesis.json; returns the contract's code and its base58 hash. */
export async function addGenesisCounter(home: string): Promise<{ code: Uint8Array; codeHash: string }> {
  const code = await compileContract('counter');
  const value = Buffer.alloc(4);
  value.writeInt32LE(7);
  const codeHash = addGenesisContract(home, COUNTER_ACCOUNT, code, new Map([['n', value]]));
  return { code, codeHash };
}
