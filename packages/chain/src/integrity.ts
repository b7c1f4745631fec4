// What a node checks before it extends or serves its chain, and the repair that rolls a damaged
// store back to its last whole block. A store can lose rows beneath its head when a filesystem or
// disk damages LevelDB's log (LevelDB then drops the unreadable batches and opens anyway), so the
// node never trusts that every height under its head is still there.
import { base58Encode, bytesEqual, type CryptoHash } from '@nearlite/primitives';
import { blockShardKey, DBCol, readU64be, type Store, StoreUpdate, u64be } from '@nearlite/store';
import { isEmptyRoot, Trie } from '@nearlite/trie';
import { type BlockHeader, decodeBlockHeader } from './block_header.js';
import { ChainStore, TAIL_KEY, type Tip } from './chain_store.js';
import { writeHead } from './chain_store_update.js';
import { deleteBlockRows } from './gc.js';
import { trieStorage } from './state_store.js';

/** Heights checked below the head on every open: bounded work however long the chain. */
export const OPEN_CHECK_WINDOW = 512;

export interface ChainProblem {
  readonly height: number;
  readonly what: string;
}

export interface IntegrityReport {
  readonly head: Tip | null;
  readonly tail: number;
  /** The lowest height checked (the tail for a full check). */
  readonly from: number;
  readonly problems: readonly ChainProblem[];
}

export class ChainIntegrityError extends Error {
  override readonly name = 'ChainIntegrityError';
  constructor(
    message: string,
    readonly report: IntegrityReport,
  ) {
    super(message);
  }
}

/** The problems of the block stored at one height: its header, body, chunks and post-state. */
function checkBlock(store: Store, cs: ChainStore, shardIds: readonly number[], h: number, hash: Uint8Array) {
  const out: string[] = [];
  const headerBytes = store.get(DBCol.BlockHeader, hash);
  if (!headerBytes) return { header: undefined, problems: [`block ${base58Encode(hash)} has no header`] };
  const header = decodeBlockHeader(headerBytes);
  if (header.lite.height !== h) out.push(`the height index names a block of height ${header.lite.height}`);
  if (!store.has(DBCol.Block, hash)) out.push('the block body (chunk headers) is missing');
  for (const shardId of shardIds) {
    const chunkHash = store.get(DBCol.ChunkHashesByBlock, blockShardKey(hash, shardId));
    if (!chunkHash) out.push(`shard ${shardId}: no chunk`);
    else if (!store.has(DBCol.Chunks, chunkHash)) out.push(`shard ${shardId}: the chunk body is missing`);
    const extra = cs.chunkExtra(hash, shardId);
    if (!extra) out.push(`shard ${shardId}: no post-state (chunk extra)`);
    else if (!isEmptyRoot(extra.stateRoot) && !store.has(DBCol.State, extra.stateRoot))
      out.push(`shard ${shardId}: the state root node is missing`);
  }
  return { header, problems: out };
}

/**
 * Checks the blocks from the head down to `max(tail, head - window)` (every kept block when `window`
 * is Infinity), each one's parent at the height it names (`prev_height`): a producer's chain has a
 * block at every height but those a sandbox fast-forward skipped, so a height a block names as its
 * parent's and holds nothing is a hole, and so is a height a block skipped that holds one.
 */
export function checkChain(
  store: Store,
  shardIds: readonly number[],
  opts: { readonly window: number },
): IntegrityReport {
  const cs = new ChainStore(store);
  const head = cs.head();
  const tailBytes = store.get(DBCol.BlockMisc, TAIL_KEY);
  const tail = tailBytes ? Number(readU64be(tailBytes)) : 0;
  if (!head) return { head, tail, from: tail, problems: [] };
  const problems: ChainProblem[] = [];
  if (!cs.genesisHash()) problems.push({ height: tail, what: 'the genesis pointer is missing' });
  const headHash = cs.blockHashByHeight(head.height);
  if (!headHash || !bytesEqual(headHash, head.hash))
    problems.push({ height: head.height, what: 'the head names a block the height index does not' });
  const from = Math.max(tail, head.height - opts.window);
  let h = head.height;
  // The hash the block above named as its parent's: with it, a lost height index row still leads on.
  let named: Uint8Array | undefined = head.hash;
  while (h >= from) {
    const hash = cs.blockHashByHeight(h);
    if (!hash) {
      problems.push({ height: h, what: 'no block at this height' });
      const bytes: Uint8Array | undefined = named ? store.get(DBCol.BlockHeader, named) : undefined;
      const lost: BlockHeader | undefined = bytes ? decodeBlockHeader(bytes) : undefined;
      if (lost !== undefined && lost.lite.height === h && lost.rest.prevHeight < h) {
        named = lost.prevHash;
        h = lost.rest.prevHeight;
      } else {
        named = undefined;
        h--;
      }
      continue;
    }
    const { header, problems: found } = checkBlock(store, cs, shardIds, h, hash);
    for (const what of found) problems.push({ height: h, what });
    if (h <= tail) break;
    // A block whose header is gone names no parent: the height below is taken to be it.
    const parent = header && header.rest.prevHeight < h ? header.rest.prevHeight : h - 1;
    for (let k = h - 1; k > parent && k >= from; k--)
      if (cs.blockHashByHeight(k))
        problems.push({ height: k, what: 'a block is stored at a height the chain skips' });
    const below = cs.blockHashByHeight(parent);
    if (header && below && !bytesEqual(header.prevHash, below))
      problems.push({ height: h, what: `prev_hash does not name the block stored at #${parent}` });
    named = header?.prevHash;
    h = parent;
  }
  problems.sort((a, b) => a.height - b.height);
  return { head, tail, from, problems };
}

/** The highest height below the first problem that holds a block: what a repair rolls back to. */
function lastWholeHeight(cs: ChainStore, report: IntegrityReport): number {
  let h = report.problems[0]!.height - 1;
  while (h > report.tail && !cs.blockHashByHeight(h)) h--;
  return h;
}

/** Consecutive heights as `#a–#b` ranges, for messages. */
export function heightRanges(heights: readonly number[]): string {
  const sorted = [...new Set(heights)].sort((a, b) => a - b);
  const out: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    out.push(i === j ? `#${sorted[i]}` : `#${sorted[i]}–#${sorted[j]}`);
    i = j + 1;
  }
  return out.join(', ');
}

/** Throws ChainIntegrityError naming the broken heights, or returns the (clean) report. */
export function assertChainWhole(
  store: Store,
  shardIds: readonly number[],
  home: string,
  window = OPEN_CHECK_WINDOW,
): IntegrityReport {
  const report = checkChain(store, shardIds, { window });
  if (report.problems.length === 0) return report;
  const first = report.problems[0]!;
  throw new ChainIntegrityError(
    `the store is damaged beneath its head #${report.head?.height}: ${heightRanges(report.problems.map((p) => p.height))} ` +
      `(first: #${first.height} ${first.what}). Refusing to run on it; ` +
      `\`nearlite repair --home ${home}\` rolls the store back to its last whole block, #${Math.max(report.tail, lastWholeHeight(new ChainStore(store), report))}.`,
    report,
  );
}

export interface RepairResult {
  /** The new head, or null when nothing needed repair. */
  readonly head: Tip | null;
  readonly droppedHeights: readonly number[];
  readonly droppedTransactions: number;
  readonly problems: readonly ChainProblem[];
}

/** Deletes every chain row (keeping the database's version and kind), for a restart from genesis. */
async function wipeChain(store: Store, headHeight: number): Promise<Omit<RepairResult, 'problems'>> {
  const update = new StoreUpdate();
  for (const col of Object.values(DBCol)) {
    if (col === DBCol.DbVersion) continue;
    for await (const [key] of store.iter(col)) update.delete(col, key);
  }
  await store.commit(update);
  return {
    head: null,
    droppedHeights: Array.from({ length: headHeight + 1 }, (_, i) => i),
    droppedTransactions: 0,
  };
}

/**
 * Rolls the store back to the highest height below which every kept height is whole, in one batch:
 * every block above it is deleted, the flat head state is rebuilt from that block's state roots, and
 * the head moves there. Trie nodes only the dropped blocks referenced are left behind (unreachable).
 */
export async function repairChain(
  store: Store,
  shardIds: readonly number[],
  genesisHeight: number,
): Promise<RepairResult> {
  const full = checkChain(store, shardIds, { window: Number.POSITIVE_INFINITY });
  if (!full.head || full.problems.length === 0)
    return { head: null, droppedHeights: [], droppedTransactions: 0, problems: [] };
  const cs = new ChainStore(store);
  const lastGood = lastWholeHeight(cs, full);
  if (lastGood < full.tail) {
    // Nothing above genesis can stand without it. A store that still keeps genesis starts over from
    // genesis.json (the next start rebuilds it); one that collected genesis has nothing to go back to.
    if (full.tail > genesisHeight)
      throw new ChainIntegrityError(
        `nothing whole to roll back to: the damage reaches the tail #${full.tail}, below which the blocks are collected; initialise a new home`,
        full,
      );
    return { ...(await wipeChain(store, full.head.height)), problems: full.problems };
  }
  const goodHash = cs.blockHashByHeight(lastGood)!;
  const update = new StoreUpdate();
  const dropped = new Set<number>();
  let droppedTransactions = 0;
  // Every stored header above the last whole height, whether or not the height index still names it.
  for await (const [hash, bytes] of store.iter(DBCol.BlockHeader)) {
    const h = decodeBlockHeader(bytes).lite.height;
    if (h <= lastGood) continue;
    dropped.add(h);
    for (const shardId of shardIds) {
      const chunkHash = store.get(DBCol.ChunkHashesByBlock, blockShardKey(hash, shardId));
      const chunk = chunkHash ? cs.chunk(chunkHash) : undefined;
      droppedTransactions += chunk?.transactions.length ?? 0;
    }
    await deleteBlockRows(store, shardIds, update, hash, { isGenesis: false, releaseTrieDeletions: false });
  }
  for await (const [key] of store.iter(DBCol.BlockHeight)) {
    const h = Number(readU64be(key));
    if (h > lastGood) {
      dropped.add(h);
      update.delete(DBCol.BlockHeight, u64be(h));
    }
  }
  for (const p of full.problems) if (p.height > lastGood) dropped.add(p.height);
  dropped.add(full.head.height);
  for await (const [key] of store.iter(DBCol.FlatState)) update.delete(DBCol.FlatState, key);
  for (const shardId of shardIds) {
    const extra = cs.chunkExtra(goodHash, shardId)!;
    const trie = new Trie(trieStorage(store), extra.stateRoot);
    for (const [key, value] of trie.iterPrefix(new Uint8Array(0))) update.put(DBCol.FlatState, key, value);
  }
  writeHead(update, lastGood, goodHash);
  await store.commit(update);
  return {
    head: { height: lastGood, hash: goodHash as CryptoHash },
    droppedHeights: [...dropped].sort((a, b) => a - b),
    droppedTransactions,
    problems: full.problems,
  };
}
