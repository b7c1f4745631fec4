// The state a follower starts from: the genesis records of `init --genesis FILE`, written as history
// at the genesis height with nearcore's genesis rules (storage usage recomputed, validators' stake
// locked), so views of accounts no block has touched yet answer as the producer's do.
import type { Genesis } from '@nearlite/chain';
import { DBCol, StoreUpdate, u64be } from '@nearlite/store';
import { genesisStateFromRecords } from '@nearlite/trie';
import { encodeHistoryValue, historyKey } from './history_key.js';
import { GENESIS_KEY, type HistoryStore } from './history_store.js';

export interface StorageUsageConfig {
  readonly numBytesAccount: bigint;
  readonly numExtraBytesRecord: bigint;
}

/** Writes the genesis state once; a store that has it already is left as it is. */
export async function loadGenesisHistory(
  history: HistoryStore,
  genesis: Genesis,
  storageUsage: StorageUsageConfig,
): Promise<boolean> {
  if (history.genesisHeight() !== null) return false;
  const height = genesis.config.genesisHeight;
  const kvs = genesisStateFromRecords(genesis.records, {
    ...storageUsage,
    validators: genesis.config.validators.map((v) => ({ accountId: v.accountId, amount: v.amount })),
  });
  const update = new StoreUpdate();
  for (const { key, value } of kvs)
    update.put(DBCol.StateHistory, historyKey(key, height), encodeHistoryValue(value));
  update.put(DBCol.FollowerMisc, GENESIS_KEY, u64be(height));
  await history.store.commit(update);
  return true;
}
