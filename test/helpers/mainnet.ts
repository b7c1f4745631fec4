// The mainnet genesis fixture (trimmed records) that the follower tests follow real blocks from,
// and which `changes` request kind each stream state change type answers to.
import { join } from 'node:path';
import { type Genesis, loadGenesis } from '@nearlite/chain';

export const MAINNET_GENESIS = join(import.meta.dirname, '..', 'fixtures', 'mainnet_genesis.json');
/** Its `genesis_height`. */
export const MAINNET_GENESIS_HEIGHT = 9_820_210;
/** mainnet's genesis block hash, which nearcore asserts (chain/chain/src/chain.rs). */
export const MAINNET_GENESIS_HASH = 'EPnLgE7iEq9s7yTkos96M3cWymH5avBAPm3qx3NXqR8H';

let mainnet: Genesis | null = null;
export function mainnetGenesis(): Genesis {
  mainnet ??= loadGenesis(MAINNET_GENESIS);
  return mainnet;
}

export const CHANGES_TYPE: Readonly<Record<string, string>> = {
  account_update: 'account_changes',
  account_deletion: 'account_changes',
  access_key_update: 'single_access_key_changes',
  access_key_deletion: 'single_access_key_changes',
  data_update: 'data_changes',
  data_deletion: 'data_changes',
  contract_code_update: 'contract_code_changes',
  contract_code_deletion: 'contract_code_changes',
};
