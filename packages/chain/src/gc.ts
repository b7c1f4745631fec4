// Garbage collection of old blocks (non-archival nodes), nearcore's retention policy: keep the last
// `gc_num_epochs_to_keep` epochs (at least 3). Each step collects a bounded number of blocks and
// moves the TAIL marker in the same batch as the deletions, so a crash mid-GC leaves the store
// consistent: every block at or above TAIL is whole, everything below is gone or unreachable.
import { concatBytes } from '@nearlite/primitives';
import { blockShardKey, DBCol, StoreUpdate, u64be } from '@nearlite/store';
import type { Chain } from './chain.js';
import { TAIL_KEY } from './chain_store.js';
import { epochOf } from './epoch.js';
import { decodeIdList } from './outcome_store.js';
import { readTrieDeletions } from './state_store.js';

export interface GcConfig {
  readonly numEpochsToKeep: number;
  /** Blocks collected per step at most (nearcore's gc_blocks_limit). */
  readonly blocksPerStep: number;
}

/** The lowest height GC must keep: the start of the oldest epoch still kept. */
export function gcStopHeight(chain: Chain, numEpochsToKeep: number): number {
  const cfg = chain.genesis.config;
  const head = chain.head().height;
  const epoch = epochOf(head, cfg.genesisHeight, cfg.epochLength);
  const keepIndex = epoch.index - (Math.max(3, numEpochsToKeep) - 1);
  if (keepIndex <= 0) return cfg.genesisHeight;
  return cfg.genesisHeight + 1 + keepIndex * cfg.epochLength;
}

/** Collects up to `blocksPerStep` blocks below the stop height. Returns how many were collected. */
export async function gcStep(chain: Chain, cfg: GcConfig): Promise<number> {
  const cs = chain.chainStore;
  const store = chain.store;
  const genesisHeight = chain.genesis.config.genesisHeight;
  const stop = gcStopHeight(chain, cfg.numEpochsToKeep);
  let tail = cs.tail() ?? genesisHeight;
  if (tail >= stop) return 0;
  const update = new StoreUpdate();
  const collected: Uint8Array[] = [];
  let n = 0;
  while (tail < stop && n < cfg.blocksPerStep) {
    const hash = cs.blockHashByHeight(tail);
    if (hash) {
      await collectBlock(chain, update, hash, tail === genesisHeight);
      collected.push(hash);
    }
    tail++;
    n++;
  }
  update.put(DBCol.BlockMisc, TAIL_KEY, u64be(tail));
  await store.commit(update);
  for (const h of collected) cs.forget(h);
  return n;
}

async function collectBlock(
  chain: Chain,
  update: StoreUpdate,
  hash: Uint8Array,
  isGenesis: boolean,
): Promise<void> {
  const cs = chain.chainStore;
  const store = chain.store;
  // The trie nodes this block's chunks replaced were still part of its parent's state; with the
  // parent below the tail they are unreachable now.
  for (const shardId of chain.layout.shardIds) {
    const key = blockShardKey(hash, shardId);
    const dels = store.get(DBCol.TrieChanges, key);
    if (dels) {
      for (const d of readTrieDeletions(dels)) update.decRef(DBCol.State, d.hash, d.rc);
      update.delete(DBCol.TrieChanges, key);
    }
    const ids = store.get(DBCol.OutcomeIds, key);
    if (ids) {
      for (const id of decodeIdList(ids)) {
        const outcomeKey = concatBytes(id, hash);
        update.delete(DBCol.TransactionResultForBlock, outcomeKey);
        update.delete(DBCol.TransactionBlock, id);
        update.delete(DBCol.ReceiptBlock, id);
        update.delete(DBCol.Transactions, id);
        update.delete(DBCol.Receipts, id);
      }
      update.delete(DBCol.OutcomeIds, key);
    }
    update.delete(DBCol.OutgoingReceipts, key);
    if (!isGenesis) {
      update.delete(DBCol.ChunkExtra, key);
      const chunkHash = store.get(DBCol.ChunkHashesByBlock, key);
      if (chunkHash) update.delete(DBCol.Chunks, chunkHash);
      update.delete(DBCol.ChunkHashesByBlock, key);
    }
  }
  for await (const [k] of store.iter(DBCol.StateChanges, hash)) update.delete(DBCol.StateChanges, k);
  if (!isGenesis) {
    const header = cs.blockHeader(hash);
    update.delete(DBCol.BlockHeader, hash);
    update.delete(DBCol.BlockView, hash);
    update.delete(DBCol.Block, hash);
    if (header) update.delete(DBCol.BlockHeight, u64be(header.lite.height));
  }
}
