// What a node checks before it extends or serves its chain, and the repair that rolls a damaged
// store back to its last whole block. A store can lose rows beneath its head when a filesystem or
// disk damages LevelDB's log (LevelDB then drops the unreadable batches and opens anyway), so the
// node never trusts that every height under its head is still there.
import { base58Encode, bytesEqual } from '@nearlite/primitives';
import { blockShardKey, DamagedRowError, DBCol, type Store } from '@nearlite/store';
import { isEmptyRoot } from '@nearlite/trie';
import { type BlockHeader, computeBlockHash, decodeBlockHeader, innerRestHash } from './block_header.js';
import { ChainStore, type Tip } from './chain_store.js';
import { type RepairTarget, readRepairTarget, repairTargetText } from './repair_marker.js';

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
  /** A repair that did not finish: the store is part way through it and its only problem is that. */
  readonly stoppedRepair?: RepairTarget;
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

/**
 * A stored header, or why it cannot be trusted: LevelDB verifies no checksum when it reads, so a
 * damaged table can hand back altered bytes as readily as unreadable ones. A header's bytes hash to
 * its block's hash, so any change to them shows.
 */
function readHeader(store: Store, hash: Uint8Array): BlockHeader | string | undefined {
  let header: BlockHeader;
  try {
    const bytes = store.get(DBCol.BlockHeader, hash);
    if (!bytes) return undefined;
    header = decodeBlockHeader(bytes);
  } catch (err) {
    return `the header of block ${base58Encode(hash)} is damaged: ${(err as Error).message}`;
  }
  const actual = computeBlockHash(header.prevHash, header.lite, innerRestHash(header.rest));
  if (!bytesEqual(actual, hash) || !bytesEqual(header.hash, hash))
    return `the header of block ${base58Encode(hash)} is damaged: its contents hash to ${base58Encode(actual)}`;
  return header;
}

/** The problems of the block stored at one height: its header, body, chunks and post-state. */
function checkBlock(store: Store, cs: ChainStore, shardIds: readonly number[], h: number, hash: Uint8Array) {
  const out: string[] = [];
  const read = readHeader(store, hash);
  if (read === undefined)
    return { header: undefined, problems: [`block ${base58Encode(hash)} has no header`] };
  if (typeof read === 'string') return { header: undefined, problems: [read] };
  const header = read;
  if (header.lite.height !== h) out.push(`the height index names a block of height ${header.lite.height}`);
  if (!store.has(DBCol.Block, hash)) out.push('the block body (chunk headers) is missing');
  for (const shardId of shardIds) {
    const chunkHash = store.get(DBCol.ChunkHashesByBlock, blockShardKey(hash, shardId));
    if (!chunkHash) out.push(`shard ${shardId}: no chunk`);
    else if (!store.has(DBCol.Chunks, chunkHash)) out.push(`shard ${shardId}: the chunk body is missing`);
    let extra: ReturnType<ChainStore['chunkExtra']>;
    try {
      extra = cs.chunkExtra(hash, shardId);
    } catch (err) {
      out.push(`shard ${shardId}: the post-state (chunk extra) is damaged: ${(err as Error).message}`);
      continue;
    }
    if (!extra) out.push(`shard ${shardId}: no post-state (chunk extra)`);
    else if (!isEmptyRoot(extra.stateRoot)) {
      try {
        if (!store.has(DBCol.State, extra.stateRoot))
          out.push(`shard ${shardId}: the state root node is missing`);
      } catch (err) {
        if (!(err instanceof DamagedRowError)) throw err;
        out.push(`shard ${shardId}: the state root node is damaged: ${err.message}`);
      }
    }
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
  const tail = cs.tail() ?? 0;
  // Part way through a repair, the rows are neither the damaged store's nor the repaired one's:
  // checking them would only list what the repair has yet to delete.
  const stopped = stoppedRepairReport(store, head, tail);
  if (stopped) return stopped;
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
      const lost: BlockHeader | string | undefined = named ? readHeader(store, named) : undefined;
      if (typeof lost === 'object' && lost.lite.height === h && lost.rest.prevHeight < h) {
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
export function lastWholeHeight(cs: ChainStore, report: IntegrityReport): number {
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
  if (report.stoppedRepair) throw stoppedRepairError(report, home);
  const first = report.problems[0]!;
  throw new ChainIntegrityError(
    `the store is damaged beneath its head #${report.head?.height}: ${heightRanges(report.problems.map((p) => p.height))} ` +
      `(first: #${first.height} ${first.what}). Refusing to run on it; ` +
      `\`nearlite repair --home ${home}\` rolls the store back to its last whole block, #${Math.max(report.tail, lastWholeHeight(new ChainStore(store), report))}.`,
    report,
  );
}

function stoppedRepairReport(store: Store, head: Tip | null, tail: number): IntegrityReport | null {
  const stopped = readRepairTarget(store);
  if (!stopped) return null;
  const height = stopped.kind === 'rollback' ? stopped.height + 1 : tail;
  const what = `a repair stopped part way through ${repairTargetText(stopped)}`;
  return { head, tail, from: tail, problems: [{ height, what }], stoppedRepair: stopped };
}

function stoppedRepairError(report: IntegrityReport, home: string): ChainIntegrityError {
  return new ChainIntegrityError(
    `a repair of the store stopped part way through ${repairTargetText(report.stoppedRepair!)}. ` +
      `Refusing to run on it; \`nearlite repair --home ${home}\` finishes it.`,
    report,
  );
}

/**
 * The check a start makes whatever else it trusts (a clean stop's record, an empty head): a store
 * part way through a repair may have lost its head row, or still name the head the repair drops.
 */
export function assertNoStoppedRepair(store: Store, home: string): void {
  const cs = new ChainStore(store);
  const report = stoppedRepairReport(store, cs.head(), cs.tail() ?? 0);
  if (report) throw stoppedRepairError(report, home);
}
