// `repair`: rolls a damaged store back to its last whole block, or, when nothing whole is left above
// genesis, deletes every block for the next start to build the chain again from genesis.json.
//
// It goes in bounded batches (a long archival chain can have millions of rows to delete, and a large
// state as many flat rows to rewrite), so a repair can stop part way: the first batch records what it
// is doing (repair_marker.ts), every check refuses the store while the record is there, and a repair
// run again reads its target from the record and goes on. The last batch moves the head and removes
// the record, so a start never sees a store half repaired.
import { attempt, bytesEqual, type CryptoHash } from '@nearlite/primitives';
import {
  blockShardKey,
  DBCol,
  deleteRowsInBatches,
  readU64be,
  type Store,
  StoreUpdate,
  u64be,
} from '@nearlite/store';
import { Batches } from './batches.js';
import { decodeBlockHeader } from './block_header.js';
import { ChainStore, type Tip } from './chain_store.js';
import { writeHead } from './chain_store_update.js';
import { rebuildFlatState } from './flat_state.js';
import { deleteBlockRows } from './gc.js';
import { ChainIntegrityError, type ChainProblem, checkChain, lastWholeHeight } from './integrity.js';
import { restorePendingReceipts } from './pending_receipts.js';
import { encodeRepairTarget, REPAIR_KEY, type RepairTarget, readRepairTarget } from './repair_marker.js';

export interface RepairOptions {
  /** Blocks deleted per batch (each with every row of its own). */
  readonly blocksPerBatch?: number;
  /** Rows per batch where a row is all there is: height index, flat state, a wipe's deletions. */
  readonly rowsPerBatch?: number;
  /**
   * Told what the repair will do once its record is written, before the first deletion: a repair
   * stopped part way has said so already (a resumed one: what the stopped one found is not known).
   */
  readonly onPlan?: (target: RepairTarget, problems: readonly ChainProblem[], resumed: boolean) => void;
}

export interface RepairResult {
  /** The new head, or null when nothing needed repair or every block was deleted. */
  readonly head: Tip | null;
  /** Every block was deleted: the next start builds the chain from genesis.json. */
  readonly wiped: boolean;
  /** The repair went on from a record left by one that stopped part way. */
  readonly resumed: boolean;
  /** What the repair did (null when nothing needed repair). */
  readonly target: RepairTarget | null;
  /** The heights this run deleted (a resumed run: what the stopped one had left). */
  readonly droppedHeights: readonly number[];
  readonly droppedTransactions: number;
  /** What the check found (empty for a resumed run: the stopped one found it). */
  readonly problems: readonly ChainProblem[];
}

/** Deletes every chain row (keeping the database's version and kind), the record last. */
async function wipeChain(store: Store, rowsPerBatch: number): Promise<void> {
  for (const col of Object.values(DBCol)) {
    if (col === DBCol.DbVersion || col === DBCol.BlockMisc) continue;
    await deleteRowsInBatches(store, col, rowsPerBatch);
  }
  await deleteRowsInBatches(store, DBCol.BlockMisc, rowsPerBatch, (key) => !bytesEqual(key, REPAIR_KEY));
  await store.commit(new StoreUpdate().delete(DBCol.BlockMisc, REPAIR_KEY));
}

/** What a repair finding `problems` will do, or null when there is nothing to do. */
function planRepair(
  store: Store,
  shardIds: readonly number[],
  genesisHeight: number,
): { target: RepairTarget; problems: readonly ChainProblem[] } | null {
  const full = checkChain(store, shardIds, { window: Number.POSITIVE_INFINITY });
  if (!full.head || full.problems.length === 0) return null;
  const cs = new ChainStore(store);
  const lastGood = lastWholeHeight(cs, full);
  if (lastGood >= full.tail) {
    const hash = cs.blockHashByHeight(lastGood)! as CryptoHash;
    return {
      target: { kind: 'rollback', headHeight: full.head.height, height: lastGood, hash },
      problems: full.problems,
    };
  }
  // Nothing above genesis can stand without it. A store that still keeps genesis starts over from
  // genesis.json (the next start rebuilds it); one that collected genesis has nothing to go back to.
  if (full.tail > genesisHeight)
    throw new ChainIntegrityError(
      `nothing whole to roll back to: the damage reaches the tail #${full.tail}, below which the blocks are collected; initialise a new home`,
      full,
    );
  return { target: { kind: 'wipe', headHeight: full.head.height }, problems: full.problems };
}

/**
 * Rolls the store back to the highest height below which every kept height is whole: every block
 * above it is deleted, the flat head state is rebuilt from that block's state roots, and the head
 * moves there. Trie nodes only the dropped blocks referenced are left behind (unreachable).
 */
export async function repairChain(
  store: Store,
  shardIds: readonly number[],
  genesisHeight: number,
  o: RepairOptions = {},
): Promise<RepairResult> {
  const rowsPerBatch = o.rowsPerBatch ?? 10_000;
  let target = readRepairTarget(store);
  const resumed = target !== null;
  let problems: readonly ChainProblem[] = [];
  if (!target) {
    const plan = planRepair(store, shardIds, genesisHeight);
    if (!plan) {
      const nothing = { droppedHeights: [], droppedTransactions: 0, problems };
      return { head: null, wiped: false, resumed, target: null, ...nothing };
    }
    ({ target, problems } = plan);
    await store.commit(new StoreUpdate().put(DBCol.BlockMisc, REPAIR_KEY, encodeRepairTarget(target)));
  }
  o.onPlan?.(target, problems, resumed);
  if (target.kind === 'wipe') {
    await wipeChain(store, rowsPerBatch);
    const droppedHeights = Array.from({ length: target.headHeight + 1 }, (_, i) => i);
    return { head: null, wiped: true, resumed, target, droppedHeights, droppedTransactions: 0, problems };
  }
  const { dropped, transactions } = await dropBlocksAbove(store, shardIds, target.height, o);
  for (const p of problems) if (p.height > target.height) dropped.add(p.height);
  if (!resumed) dropped.add(target.headHeight);
  await rebuildFlatState(store, shardIds, target.hash, rowsPerBatch);
  await restorePendingReceipts(store, shardIds, target.hash, rowsPerBatch);
  const last = new StoreUpdate();
  writeHead(last, target.height, target.hash);
  last.delete(DBCol.BlockMisc, REPAIR_KEY);
  await store.commit(last);
  return {
    head: { height: target.height, hash: target.hash },
    wiped: false,
    resumed,
    target,
    droppedHeights: [...dropped].sort((a, b) => a - b),
    droppedTransactions: transactions,
    problems,
  };
}

/**
 * Every stored block above `height`: from the top down through the height index (so a repair stopped
 * part way has dropped the highest blocks), then any header above it the index no longer names (the
 * block whose index row the damage took).
 */
async function dropBlocksAbove(
  store: Store,
  shardIds: readonly number[],
  height: number,
  o: RepairOptions,
): Promise<{ dropped: Set<number>; transactions: number }> {
  const cs = new ChainStore(store);
  const dropped = new Set<number>();
  let transactions = 0;
  const perBatch = o.blocksPerBatch ?? 1024;
  const drop = async (update: StoreUpdate, hash: Uint8Array) => {
    for (const shardId of shardIds) {
      const chunkHash = store.get(DBCol.ChunkHashesByBlock, blockShardKey(hash, shardId));
      // A chunk the damage altered is dropped uncounted.
      if (chunkHash) transactions += attempt(() => cs.chunk(chunkHash))?.transactions.length ?? 0;
    }
    await deleteBlockRows(store, shardIds, update, hash, { isGenesis: false, collect: false });
  };
  for (;;) {
    const update = new StoreUpdate();
    let n = 0;
    const top = { gte: u64be(height + 1), reverse: true, limit: perBatch };
    for await (const [key, hash] of store.iter(DBCol.BlockHeight, undefined, top)) {
      dropped.add(Number(readU64be(key)));
      await drop(update, hash);
      update.delete(DBCol.BlockHeight, key);
      n++;
    }
    if (n === 0) break;
    await store.commit(update);
  }
  const lost = new Batches(store, perBatch);
  for await (const [hash, bytes] of store.iter(DBCol.BlockHeader)) {
    // Every block the repair keeps has a header the check found whole, so one that cannot be decoded
    // belongs to none of them.
    const h = attempt(() => decodeBlockHeader(bytes).lite.height);
    if (h !== undefined) {
      if (h <= height) continue;
      dropped.add(h);
    }
    await drop(lost.update, hash);
    await lost.added();
  }
  await lost.flush();
  return { dropped, transactions };
}
