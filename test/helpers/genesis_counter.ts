// The counter contract as genesis records of a home: `counter.test.near` with the compiled contract
// and its counter (storage key "n") at 7, for tests that read a contract without sending a transaction.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import bs58 from 'bs58';
import { compileContract } from './asc.js';

export const COUNTER_ACCOUNT = 'counter.test.near';
const BALANCE = 10n ** 25n;

/** Adds the records to `home`'s genesis.json; returns the contract's code and its base58 hash. */
export async function addGenesisCounter(home: string): Promise<{ code: Uint8Array; codeHash: string }> {
  const code = await compileContract('counter');
  const codeHash = bs58.encode(createHash('sha256').update(code).digest());
  const value = Buffer.alloc(4);
  value.writeInt32LE(7);
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
        account_id: COUNTER_ACCOUNT,
        account: { amount: BALANCE.toString(), locked: '0', code_hash: codeHash, storage_usage: 0 },
      },
    },
    { Contract: { account_id: COUNTER_ACCOUNT, code: Buffer.from(code).toString('base64') } },
    {
      Data: {
        account_id: COUNTER_ACCOUNT,
        data_key: Buffer.from('n').toString('base64'),
        value: value.toString('base64'),
      },
    },
  );
  writeFileSync(genesisPath, JSON.stringify(genesis));
  return { code, codeHash };
}
