// Garbage collection of old blocks (non-archival nodes), nearcore's retention policy: keep the last
// `gc_num_epochs_to_keep` epochs (at least 3). Each step collects a bounded number of blocks and
// moves the TAIL marker in the same batch as the deletions, so a crash mid-GC leaves the store
// consistent: every block at or above TAIL is whole, everything below is gone or unreachable.
import { attempt, concatBytes } from '@nearlite/primitives';
import {
  type BlockRetention,
  blockShardKey,
  DBCol,
  readU64be,
  type Store,
  StoreUpdate,
  u64be,
} from '@nearlite/store';
import { decodeBlockHeader } from './block_header.js';
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
export function gcStopHeight(chain: Pick<Chain, 'genesis' | 'head'>, numEpochsToKeep: number): number {
  const cfg = chain.genesis.config;
  const head = chain.head().height;
  const epoch = epochOf(head, cfg.genesisHeight, cfg.epochLength);
  const keepIndex = epoch.index - (Math.max(3, numEpochsToKeep) - 1);
  if (keepIndex <= 0) return cfg.genesisHeight;
  return cfg.genesisHeight + 1 + keepIndex * cfg.epochLength;
}

/**
 * The pins GC respects (state_pins.ts): the chain's own, or, for a chain on a thread of its own, the
 * node's pins on the thread its views run on, asked across.
 */
export interface GcPins {
  gcStop(stop: number): number | Promise<number>;
  beginCollect(newTail: number): boolean | Promise<boolean>;
  endCollect(): void;
}

/**
 * Collects up to `blocksPerStep` blocks below the stop height, passing over the heights a sandbox
 * fast-forward skipped. Returns how many were collected.
 */
export async function gcStep(chain: Chain, cfg: GcConfig, pins: GcPins = chain.statePins): Promise<number> {
  const cs = chain.chainStore;
  const store = chain.store;
  const genesisHeight = chain.genesis.config.genesisHeight;
  // A view reading a kept state on another thread holds GC back (state_pins.ts).
  let tail = cs.tail() ?? genesisHeight;
  const stopHeight = gcStopHeight(chain, cfg.numEpochsToKeep);
  // The kept block is at most one below the stop height: a tail there needs no seek to know it is done
  // (GC steps after every block).
  if (tail >= stopHeight - 1) return 0;
  const stop = await pins.gcStop(await keptBlockHeight(chain, stopHeight));
  if (tail >= stop) return 0;
  const update = new StoreUpdate();
  const collected: Uint8Array[] = [];
  while (tail < stop && collected.length < cfg.blocksPerStep) {
    const hash = cs.blockHashByHeight(tail);
    if (!hash) {
      tail = Math.min(stop, await nextBlockHeight(store, tail));
      continue;
    }
    await deleteBlockRows(store, chain.layout.shardIds, update, hash, {
      isGenesis: tail === genesisHeight,
      collect: true,
    });
    collected.push(hash);
    tail++;
  }
  // The tail names a block, never a height a sandbox fast-forward skipped: the earliest block views
  // read it.
  if (tail < stop && !cs.blockHashByHeight(tail)) tail = Math.min(stop, await nextBlockHeight(store, tail));
  update.put(DBCol.BlockMisc, TAIL_KEY, u64be(tail));
  // A view may have pinned a height while the rows were read: leave its state for a later step.
  if (!(await pins.beginCollect(tail))) return 0;
  try {
    await store.commit(update);
  } finally {
    pins.endCollect();
  }
  for (const h of collected) cs.forget(h);
  return collected.length;
}

/**
 * The block GC stops at: the parent of the first block at or above the stop height. nearcore clears
 * each height from its tail up to the stop height by deleting the rows of the block before it
 * (ChainStoreUpdate::clear_block_data, GCMode::Canonical), so that parent is kept whole and is its
 * tail: `block`, `chunk`, changes and transactions still answer there, while `query` by height below
 * the stop height is GARBAGE_COLLECTED_BLOCK. Its trie nodes its own chunks replaced go with it later.
 */
async function keptBlockHeight(chain: Chain, stop: number): Promise<number> {
  // The seek's row is the first block's hash: its header says the kept block's height.
  const row = await chain.store.first(DBCol.BlockHeight, new Uint8Array(0), u64be(stop));
  if (!row || Number(readU64be(row[0])) <= chain.genesis.config.genesisHeight) return stop;
  const header = chain.chainStore.blockHeader(row[1]);
  return header ? Math.min(stop, header.rest.prevHeight) : stop;
}

/** The lowest height at or above `from` that holds a block (one seek), or Infinity. */
async function nextBlockHeight(store: Store, from: number): Promise<number> {
  const row = await store.first(DBCol.BlockHeight, new Uint8Array(0), u64be(from));
  return row ? Number(readU64be(row[0])) : Number.POSITIVE_INFINITY;
}

/** Every column whose rows die with a block, read from the registry so none can be forgotten. */
const BLOCK_COLUMNS = Object.values(DBCol).flatMap((col) =>
  typeof col.gc === 'object' ? [{ col, rule: col.gc as BlockRetention }] : [],
);

/**
 * Deletes the rows of one block, column by column as the registry says. GC (`collect`) releases the
 * trie nodes the block's chunks replaced (their parent state is gone) and leaves the rows that
 * outlive it (the header, the height index); a rollback deletes every row and keeps the trie nodes
 * (the parent stays).
 */
export async function deleteBlockRows(
  store: Store,
  shardIds: readonly number[],
  update: StoreUpdate,
  hash: Uint8Array,
  opts: { readonly isGenesis: boolean; readonly collect: boolean },
): Promise<void> {
  const { isGenesis } = opts;
  // A repair deletes blocks whose rows a damaged table may have altered: what cannot be decoded leads
  // to no further rows, which stay behind unreachable.
  const headerBytes = store.get(DBCol.BlockHeader, hash);
  const header = headerBytes && attempt(() => decodeBlockHeader(headerBytes));
  const shardKeys = shardIds.map((shardId) => blockShardKey(hash, shardId));
  // Rows keyed by something other than the block are found through the block's own index rows,
  // read before the batch deletes them.
  const outcomeIds: Uint8Array[] = [];
  const chunkHashes: Uint8Array[] = [];
  for (const key of shardKeys) {
    const idBytes = store.get(DBCol.OutcomeIds, key);
    const ids = idBytes && attempt(() => decodeIdList(idBytes));
    if (ids) outcomeIds.push(...ids);
    const chunkHash = store.get(DBCol.ChunkHashesByBlock, key);
    if (chunkHash) chunkHashes.push(chunkHash);
    // The trie nodes this block's chunks replaced were still part of its parent's state; with the
    // parent below the tail they are unreachable now.
    const dels = opts.collect ? store.get(DBCol.TrieChanges, key) : undefined;
    if (dels) for (const d of readTrieDeletions(dels)) update.decRef(DBCol.State, d.hash, d.rc);
    // What the block sent is gone from the chain with it; GC leaves each receipt to the block that
    // ran it.
    const sent = opts.collect ? undefined : store.get(DBCol.OutgoingReceiptIds, key);
    const sentIds = sent && attempt(() => decodeIdList(sent));
    if (sentIds) for (const id of sentIds) update.delete(DBCol.Receipts, id);
  }
  for (const { col, rule } of BLOCK_COLUMNS) {
    if ((isGenesis && rule.keepGenesis) || (opts.collect && rule.outlivesGc)) continue;
    switch (rule.by) {
      case 'block':
        update.delete(col, hash);
        break;
      case 'blockShard':
        for (const key of shardKeys) update.delete(col, key);
        break;
      case 'blockPrefix':
        for await (const [key] of store.iter(col, hash)) update.delete(col, key);
        break;
      case 'height':
        if (header) update.delete(col, u64be(header.lite.height));
        break;
      case 'outcomeId':
        for (const id of outcomeIds) update.delete(col, id);
        break;
      case 'outcomeIdBlock':
        for (const id of outcomeIds) update.delete(col, concatBytes(id, hash));
        break;
      case 'chunkHash':
        for (const chunkHash of chunkHashes) update.delete(col, chunkHash);
        break;
      default:
        rule.by satisfies never;
    }
  }
}
