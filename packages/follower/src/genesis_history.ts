// The state a follower starts from: the genesis records of `init --genesis FILE`, written as history
// at the genesis height with nearcore's genesis rules (storage usage recomputed, validators' stake
// locked), so views of accounts no block has touched yet answer as the producer's do. Receipts in
// flight (a dumped state's PostponedReceipt, ReceivedData and DelayedReceipt records) are left out:
// no read method looks at them, and the stream's state changes carry what becomes of them.
import { type Genesis, isReceiptRecord } from '@nearlite/chain';
import { genesisStateFromRecords } from '@nearlite/trie';
import type { HistoryWriter } from './history_reader.js';

export interface StorageUsageConfig {
  readonly numBytesAccount: bigint;
  readonly numExtraBytesRecord: bigint;
}

/** Writes the genesis state once; a store that has it already is left as it is. */
export async function loadGenesisHistory(
  history: HistoryWriter,
  genesis: Genesis,
  storageUsage: StorageUsageConfig,
): Promise<boolean> {
  if (history.genesisHeight() !== null) return false;
  const height = genesis.config.genesisHeight;
  const state = genesis.records.filter((r) => !isReceiptRecord(r));
  const kvs = genesisStateFromRecords(state, {
    ...storageUsage,
    validators: genesis.config.validators.map((v) => ({ accountId: v.accountId, amount: v.amount })),
  });
  await history.writeGenesis(height, kvs);
  return true;
}
