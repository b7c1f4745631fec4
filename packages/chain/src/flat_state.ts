// The head state of every shard as plain rows (nearcore's FlatState), for reads that need no trie
// walk. A row's key is its shard's id before the trie key, as nearcore puts the ShardUId first: the
// delayed-receipt queue, the yield-timeout queue and the bandwidth scheduler's state have keys with
// no account in them, one of each per shard, which one column without the shard would mix up.
import type { CryptoHash } from '@nearlite/primitives';
import { asciiKey, DBCol, deleteRowsInBatches, type Store, type StoreUpdate } from '@nearlite/store';
import { Trie } from '@nearlite/trie';
import { Batches } from './batches.js';
import { ChainStore } from './chain_store.js';
import { trieStorage } from './state_store.js';

/** BlockMisc row present once the flat rows are keyed by shard (stores from before were not). */
export const FLAT_STATE_BY_SHARD_KEY = asciiKey('FLAT_STATE_BY_SHARD');

export function flatStateKey(shardId: number, key: Uint8Array): Uint8Array {
  const out = new Uint8Array(4 + key.length);
  new DataView(out.buffer).setUint32(0, shardId);
  out.set(key, 4);
  return out;
}

/** Keeps a shard's flat rows in step with its net changes. */
export function writeFlatState(
  update: StoreUpdate,
  shardId: number,
  changes: readonly { readonly key: Uint8Array; readonly value: Uint8Array | null }[],
): void {
  for (const c of changes) {
    const key = flatStateKey(shardId, c.key);
    if (c.value === null) update.delete(DBCol.FlatState, key);
    else update.put(DBCol.FlatState, key, c.value);
  }
}

/** A sync reader of a shard's head state through the flat column. */
export function flatStateReader(
  store: Store,
  shardId: number,
): { get(key: Uint8Array): Uint8Array | undefined } {
  return { get: (key: Uint8Array) => store.get(DBCol.FlatState, flatStateKey(shardId, key)) };
}

/** The flat head state, deleted and written again from the state roots of the block `hash`. */
export async function rebuildFlatState(
  store: Store,
  shardIds: readonly number[],
  hash: CryptoHash,
  rowsPerBatch: number,
): Promise<void> {
  await deleteRowsInBatches(store, DBCol.FlatState, rowsPerBatch);
  const cs = new ChainStore(store);
  const rows = new Batches(store, rowsPerBatch);
  for (const shardId of shardIds) {
    const trie = new Trie(trieStorage(store), cs.chunkExtra(hash, shardId)!.stateRoot);
    for (const [key, value] of trie.iterPrefix(new Uint8Array(0))) {
      rows.update.put(DBCol.FlatState, flatStateKey(shardId, key), value);
      await rows.added();
    }
  }
  rows.update.put(DBCol.BlockMisc, FLAT_STATE_BY_SHARD_KEY, new Uint8Array(0));
  await rows.added();
  await rows.flush();
}

/**
 * A store written before flat rows were keyed by shard has its rows rebuilt from the head's state
 * roots once, when it is opened: until then, shards read each other's queues.
 */
export async function ensureFlatStateByShard(
  store: Store,
  shardIds: readonly number[],
  head: CryptoHash,
): Promise<void> {
  if (store.get(DBCol.BlockMisc, FLAT_STATE_BY_SHARD_KEY) === undefined)
    await rebuildFlatState(store, shardIds, head, 10_000);
}
