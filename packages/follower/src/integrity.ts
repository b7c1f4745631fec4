// What a follower checks of its history before it extends or serves it, and the repair that rolls a
// damaged history back to its last whole block. A disk or filesystem can damage LevelDB's log, and
// LevelDB then drops the batches it cannot read and opens anyway: a history loses whole batches of
// blocks (up to 32 a batch while catching up) beneath its cursor, and their state rows with them, so
// reads at the heights after would answer from older values without a word. The source still holds
// those blocks: a repair rolls back below the first hole, and following fetches the rest again.
import { heightRanges } from '@nearlite/chain';
import {
  attempt,
  base58Decode,
  base58Encode,
  bytesEqual,
  type CryptoHash,
  concatBytes,
} from '@nearlite/primitives';
import { blockShardKey, DBCol, deleteRowsInBatches, readU64be, StoreUpdate, u64be } from '@nearlite/store';
import { parseStreamJson, type StateChangeWithCauseJson, verifiedHeaderLayout } from '@nearlite/stream';
import { deleteStreamBlockRows } from './block_rows.js';
import { encodeFlatRow } from './flat_state.js';
import { decodeHistoryKey, historyKey, historyKeyPrefix, invertedHeight } from './history_key.js';
import { CURSOR_KEY, encodeCursor, FIRST_KEY } from './history_keys_misc.js';
import type { Cursor, StoredBlock } from './history_reader.js';
import type { HistoryStore } from './history_store.js';
import { stateChangeWrite } from './state_change_keys.js';

/** Heights checked below the cursor on every open: bounded work however long the history. */
export const HISTORY_CHECK_WINDOW = 512;

export interface HistoryProblem {
  readonly height: number;
  readonly what: string;
}

export interface HistoryIntegrityReport {
  readonly cursor: Cursor | null;
  /** The first height kept (the tail); null when nothing records it. */
  readonly first: number | null;
  /**
   * Where the kept blocks begin: `first`, or when GC's deletions went above it (the batch that moved
   * it was lost), the lowest block stored above them; null when nothing says.
   */
  readonly tail: number | null;
  /** The lowest height checked (the tail for a full check). */
  readonly from: number;
  readonly problems: readonly HistoryProblem[];
  /** How far GC deleted rows, when that is above the tail (the tail's move was lost). */
  readonly collectedTo: number | null;
}

export class HistoryIntegrityError extends Error {
  override readonly name = 'HistoryIntegrityError';
  constructor(
    message: string,
    readonly report: HistoryIntegrityReport,
  ) {
    super(message);
  }
}

/**
 * A stored block's view, or what is wrong with it. LevelDB verifies no checksum when it reads, so a
 * damaged table can hand back a row altered or no longer parsing: the header must hash to the
 * block's hash, as it did when the block was followed.
 */
function storedView(block: StoredBlock): BlockLinks | string {
  try {
    const view = parseStreamJson(block.json) as BlockLinks;
    if (typeof view?.header?.height !== 'number') throw new Error('it has no header');
    if (
      view.header.hash !== base58Encode(block.hash) ||
      verifiedHeaderLayout(
        view.header as Record<string, unknown>,
        view.chunks as unknown as Record<string, unknown>[] | undefined,
      ) === null
    )
      throw new Error(`its header does not hash to ${base58Encode(block.hash)}`);
    return view;
  } catch (err) {
    return `the block stored at this height is damaged: ${(err as Error).message}`;
  }
}

/** What the check reads of a stored block view. */
interface BlockLinks {
  readonly header: {
    readonly height: number;
    readonly hash?: unknown;
    readonly prev_hash?: unknown;
    readonly prev_height?: unknown;
  };
  readonly chunks?: readonly { readonly shard_id: number; readonly height_included: number }[];
}

const collectedWhat = (done: number, first: number) =>
  `the rows below #${done} are collected, but the tail is #${first}`;

/** The highest height below `height` the height index holds, or undefined. */
async function storedBelow(history: HistoryStore, height: number): Promise<number | undefined> {
  for await (const [k] of history.store.iter(DBCol.StreamBlockHeight, undefined, {
    lt: u64be(height),
    reverse: true,
    limit: 1,
  }))
    return Number(readU64be(k, 0));
  return undefined;
}

/** The lowest height the height index holds above `low` and below `high`, or undefined. */
async function storedBetween(history: HistoryStore, low: number, high: number): Promise<number | undefined> {
  if (high - low < 2) return undefined;
  for await (const [k] of history.store.iter(DBCol.StreamBlockHeight, undefined, {
    gte: u64be(low + 1),
    lt: u64be(high),
    limit: 1,
  }))
    return Number(readU64be(k, 0));
  return undefined;
}

/** The rows a block's batch wrote beside its block row (a full check reads them). */
function missingRows(history: HistoryStore, hash: CryptoHash, view: BlockLinks): string[] {
  const out: string[] = [];
  if (!history.store.has(DBCol.StreamStateChanges, hash)) out.push('its state changes are missing');
  if (!history.store.has(DBCol.StreamOutcomeIds, hash)) out.push('its outcome list is missing');
  for (const c of view.chunks ?? [])
    if (
      c.height_included === view.header.height &&
      !history.store.has(DBCol.StreamChunk, blockShardKey(hash, c.shard_id))
    )
      out.push(`shard ${c.shard_id}: its chunk is missing`);
  return out;
}

/**
 * Walks the history from the cursor down to `max(first, cursor - window)` (every kept block when
 * `window` is Infinity) by each block's `prev_hash`: every parent must be stored, at the height the
 * index names it, with nothing stored at the heights between (the chain skipped them). Heights a
 * real chain skipped hold nothing, so only a missing parent is a hole.
 */
export async function checkHistory(
  history: HistoryStore,
  opts: { readonly window: number },
): Promise<HistoryIntegrityReport> {
  const cursor = history.cursor();
  const first = history.firstHeight();
  if (!cursor) return { cursor, first, tail: first, from: first ?? 0, problems: [], collectedTo: null };
  const problems: HistoryProblem[] = [];
  const full = !Number.isFinite(opts.window);
  // The state every block builds on: without it a start would write it again, over newer flat rows.
  if (history.genesisHeight() === null)
    problems.push({
      height: first ?? 0,
      what: 'the genesis state (the history below the first followed block) is not recorded: its batch is lost',
    });
  if (first === null) {
    // The first followed block's batch recorded it: that batch, and what it held, is lost.
    const lowest = (await storedBetween(history, -1, cursor.height + 1)) ?? cursor.height;
    problems.push({
      height: lowest,
      what: 'the first followed height is not recorded: the blocks below are lost',
    });
  }
  const done = history.collectedTo();
  const collectedTo = first !== null && done !== null && done > first ? done : null;
  let tail = first;
  if (collectedTo !== null) {
    problems.push({ height: first!, what: collectedWhat(collectedTo, first!) });
    tail = (await storedBetween(history, collectedTo - 1, cursor.height + 1)) ?? cursor.height;
  }
  const from = Math.max(tail ?? 0, cursor.height - opts.window);
  const indexed = history.blockHashAt(cursor.height);
  if (!indexed || !bytesEqual(indexed, cursor.hash))
    problems.push({ height: cursor.height, what: 'the cursor names a block the height index does not' });
  let h = cursor.height;
  let hash: CryptoHash | undefined = cursor.hash as CryptoHash;
  while (h >= from) {
    const block = hash ? history.blockSync(hash) : undefined;
    if (block && block.height !== h)
      problems.push({ height: h, what: `the height index names a block of height ${block.height}` });
    // Parsed once a block, for its parent's link and, in a full check, its chunks.
    const view = block ? storedView(block) : 'no block is stored at this height';
    if (typeof view === 'string') {
      problems.push({ height: h, what: view });
      const below = await storedBelow(history, h);
      if (below === undefined) break;
      h = below;
      hash = history.blockHashAt(below);
      continue;
    }
    // A view comes only from a stored block.
    if (full)
      for (const what of missingRows(history, block!.hash as CryptoHash, view))
        problems.push({ height: h, what });
    if (h <= (tail ?? 0)) break;
    const header = view.header;
    const prevHash = typeof header.prev_hash === 'string' ? base58Decode(header.prev_hash) : undefined;
    const parent = prevHash ? history.blockSync(prevHash as CryptoHash) : undefined;
    if (!parent) {
      const below = await storedBelow(history, h);
      const named = typeof header.prev_height === 'number' ? header.prev_height : h - 1;
      const stretch = below === undefined ? `below #${h}` : `from #${below + 1} to #${h - 1}`;
      problems.push({
        height: named,
        what: `#${h}'s parent ${typeof header.prev_hash === 'string' ? header.prev_hash : '(unnamed)'} is not stored (nothing is stored ${stretch})`,
      });
      if (below === undefined) break;
      h = below;
      hash = history.blockHashAt(below);
      continue;
    }
    const skipped = await storedBetween(history, parent.height, h);
    if (skipped !== undefined && skipped >= from)
      problems.push({
        height: skipped,
        what: `a block is stored at a height #${h}'s parent (#${parent.height}) skips`,
      });
    const atParent = history.blockHashAt(parent.height);
    if (!atParent || !bytesEqual(atParent, parent.hash))
      problems.push({ height: parent.height, what: `the height index does not name #${h}'s parent` });
    h = parent.height;
    hash = parent.hash as CryptoHash;
  }
  problems.sort((a, b) => a.height - b.height);
  return { cursor, first, tail, from, problems, collectedTo };
}

/** Throws HistoryIntegrityError naming the broken heights, or returns the (clean) report. */
export async function assertHistoryWhole(
  history: HistoryStore,
  home: string,
  window = HISTORY_CHECK_WINDOW,
): Promise<HistoryIntegrityReport> {
  const report = await checkHistory(history, { window });
  if (report.problems.length === 0) return report;
  const first = report.problems[0]!;
  throw new HistoryIntegrityError(
    `the followed history is damaged beneath its cursor #${report.cursor?.height}: ${heightRanges(report.problems.map((p) => p.height))} ` +
      `(first: #${first.height} ${first.what}). Refusing to follow on it; \`nearlite repair --home ${home}\` rolls it back ` +
      'to its last whole block, and following fetches the rest from the source again.',
    report,
  );
}

export interface HistoryRepairResult {
  /** The cursor after the repair; null when the history was emptied (or nothing needed repair). */
  readonly cursor: Cursor | null;
  readonly problems: readonly HistoryProblem[];
  /** Heights whose stored blocks were deleted (ascending), to be followed again. */
  readonly droppedHeights: readonly number[];
  /** True when nothing whole was left to roll back to and every row went. */
  readonly emptied: boolean;
}

/** How much one of a repair's batches takes on (a long history is rolled back in many). */
export interface HistoryRepairOptions {
  /** Blocks deleted a batch (1,024 by default). */
  readonly blocksPerBatch?: number;
  /** Rows deleted a batch when the history is emptied (10,000 by default). */
  readonly rowsPerBatch?: number;
}

/**
 * Rolls the history back to the highest block below its first problem: the rows of every block
 * above go, with their state history rows, each touched key's flat row is set back to its newest
 * row at or below the new cursor, and the cursor moves down. Blocks go from the top down, a batch
 * at a time, each batch leaving the cursor on the highest block it kept: a repair stopped part way
 * leaves a history the next start refuses for the same hole, and a second repair goes on from there.
 * A tail whose move was lost while the rows below it were collected moves up to the lowest block
 * kept. When nothing whole is left (the damage reaches the tail, or the first height or the genesis
 * state is lost), every row goes (the cursor and genesis rows last) and the next start follows from
 * the beginning.
 */
export async function repairHistory(
  history: HistoryStore,
  o: HistoryRepairOptions = {},
): Promise<HistoryRepairResult> {
  const report = await checkHistory(history, { window: Number.POSITIVE_INFINITY });
  const { cursor, first, tail, collectedTo } = report;
  if (!cursor || report.problems.length === 0)
    return { cursor: null, problems: [], droppedHeights: [], emptied: false };
  const store = history.store;
  const tailProblem = collectedTo !== null ? collectedWhat(collectedTo, first!) : null;
  const holes = report.problems.filter((p) => p.what !== tailProblem);
  const lastWhole =
    history.genesisHeight() === null || tail === null
      ? undefined
      : holes.length === 0
        ? cursor.height
        : await storedBelow(history, holes[0]!.height);
  if (lastWhole === undefined || tail === null || lastWhole < tail) {
    const dropped: number[] = [];
    for await (const [k] of store.iter(DBCol.StreamBlockHeight)) dropped.push(Number(readU64be(k, 0)));
    await emptyHistory(history, o.rowsPerBatch ?? 10_000);
    return { cursor: null, problems: report.problems, droppedHeights: dropped, emptied: true };
  }
  const perBatch = o.blocksPerBatch ?? 1024;
  const dropped: number[] = [];
  let update = new StoreUpdate();
  // The collected rows are gone for good: the tail moves to the lowest block kept.
  if (collectedTo !== null) update.put(DBCol.FollowerMisc, FIRST_KEY, u64be(tail));
  for (;;) {
    const heights: number[] = [];
    for await (const [k] of store.iter(DBCol.StreamBlockHeight, undefined, {
      gte: u64be(lastWhole + 1),
      reverse: true,
      limit: perBatch,
    }))
      heights.push(Number(readU64be(k, 0)));
    const lowest = heights.at(-1);
    const kept: number = lowest === undefined ? lastWhole : (await storedBelow(history, lowest))!;
    const touched = new Map<string, Uint8Array>();
    for (const height of heights) {
      const hash = history.blockHashAt(height)!;
      const changes = history.json(DBCol.StreamStateChanges, hash);
      // Changes a damaged table altered are not undone here: their rows are above the cursor, which
      // no read reaches, and following the block again writes them anew.
      for (const c of changes
        ? (attempt(() => JSON.parse(changes) as StateChangeWithCauseJson[]) ?? [])
        : []) {
        const w = stateChangeWrite(c);
        if (!w) continue;
        update.delete(DBCol.StateHistory, historyKey(w.key, height));
        touched.set(base58Encode(w.key), w.key);
      }
      deleteStreamBlockRows(history, update, height);
    }
    // Each touched key's flat row holds its newest row at or below the block kept (none: no row).
    for (const key of touched.values()) {
      const prefix = historyKeyPrefix(key);
      const row = await store.first(DBCol.StateHistory, prefix, concatBytes(prefix, invertedHeight(kept)));
      if (row)
        update.put(
          DBCol.StateHistoryFlat,
          key,
          encodeFlatRow(decodeHistoryKey(row[0]).height, row[1].slice()),
        );
      else update.delete(DBCol.StateHistoryFlat, key);
    }
    update.put(
      DBCol.FollowerMisc,
      CURSOR_KEY,
      encodeCursor({ height: kept, hash: history.blockHashAt(kept)! }),
    );
    await store.commit(update);
    dropped.push(...heights);
    if (kept === lastWhole) break;
    update = new StoreUpdate();
  }
  return {
    cursor: { height: lastWhole, hash: history.blockHashAt(lastWhole)! },
    problems: report.problems,
    droppedHeights: dropped.sort((a, b) => a - b),
    emptied: false,
  };
}

/** Deletes every row but the database's version, `rowsPerBatch` a batch, the follower's own rows last. */
async function emptyHistory(history: HistoryStore, rowsPerBatch: number): Promise<void> {
  const columns = Object.values(DBCol).filter((c) => c !== DBCol.DbVersion && c !== DBCol.FollowerMisc);
  for (const col of [...columns, DBCol.FollowerMisc])
    await deleteRowsInBatches(history.store, col, rowsPerBatch);
}
