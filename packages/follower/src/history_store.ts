// A follower's history in the node's LevelDB. One writer (the follow loop, through `ingestBlock`)
// commits each block as one batch whose last-read row is the cursor, so readers only ever see whole
// blocks. Point reads of stored views are synchronous (`getSync`); a state read "as of height H" is a
// synchronous lookup of the key's flat row when the key has not changed since H (flat_state.ts), and
// otherwise an async seek of the StateHistory column (classic-level has no synchronous iterator).

import { bytesArg, heightArg } from '@nearlite/chain';
import {
  base58Decode,
  binaryKey,
  bytesEqual,
  type CryptoHash,
  concatBytes,
  fromUtf8,
} from '@nearlite/primitives';
import {
  blockShardKey,
  DBCol,
  DecodedRows,
  readU64be,
  type Store,
  StoreUpdate,
  u64be,
} from '@nearlite/store';
import type { StreamerMessage } from '@nearlite/stream';
import { encodeFlatRow, FLAT_MISS, flatRowHeight, flatValueAt } from './flat_state.js';
import { DEFAULT_GC_GRACE_MS, FollowerGc } from './gc.js';
import {
  decodeHistoryKey,
  decodeHistoryValue,
  encodeHistoryValue,
  historyKey,
  historyKeyPrefix,
  historyRowsAfter,
  historyScanPrefix,
  invertedHeight,
} from './history_key.js';
import {
  CURSOR_KEY,
  FIRST_KEY,
  FLAT_KEY,
  GC_DONE_KEY,
  GENESIS_KEY,
  STATE_FROM_KEY,
} from './history_keys_misc.js';
import type {
  Cursor,
  FollowerGcOptions,
  GenesisStateRow,
  HeightOutcomes,
  HistoryReader,
  HistoryWriter,
  ScanBound,
  StoredBlock,
} from './history_reader.js';
import { blockUpdate, firstBlockRows } from './ingest_update.js';
import { type PreparedBlock, unpackRows } from './prepared_block.js';
import { SeekCache } from './seek_cache.js';
import { heldScan, heldValue, stateFromOf, stateFromOfBlockView } from './state_from.js';

/** The newest history row of a key at or below a height: its height (-1: none) and value. */
interface FoundRow {
  readonly from: number;
  readonly value: Uint8Array | null;
}

export {
  blockRowPrefix,
  CURSOR_KEY,
  encodeCursor,
  FIRST_KEY,
  FLAT_KEY,
  GENESIS_KEY,
  STATE_FROM_KEY,
} from './history_keys_misc.js';

// Ingested rows are not written through to the read cache (Store.commit): a catch-up would push out
// what readers use, and prepared rows are views of their block's whole buffer.
const BULK = { cacheRows: false } as const;

/**
 * JSON rows kept decoded up to this size: larger ones (busy chunks, a busy block's state changes)
 * are decoded on each read rather than kept as text beside their cached bytes.
 */
const MEMO_TEXT_MAX = 16 * 1024;

const decodeCursor = (row: Uint8Array): Cursor => ({
  height: Number(readU64be(row, 0)),
  hash: row.slice(8, 40),
});

/**
 * Whether a database holds a followed chain's history: its genesis state is the first thing written,
 * and a cursor or first height says so too when a damaged log lost the genesis batch.
 */
export function holdsHistory(store: Store): boolean {
  return (
    store.has(DBCol.FollowerMisc, GENESIS_KEY) ||
    store.has(DBCol.FollowerMisc, CURSOR_KEY) ||
    store.has(DBCol.FollowerMisc, FIRST_KEY)
  );
}

export class HistoryStore implements HistoryReader, HistoryWriter {
  private flat = false;
  /** What history seeks found (seek_cache.ts): rows below the cursor never change. */
  private readonly seeks = new SeekCache();
  /**
   * Seeks under way, by key and height: identical reads that arrive together (many clients asking
   * for the same account at the same block) share one seek instead of each making its own.
   */
  private readonly seeking = new Map<string, Promise<FoundRow>>();
  /** STATE_FROM_KEY once known: it is written with the first block and never changes. */
  private heldFrom: number | null | undefined;
  /** The highest height seen followed: state reads at or below it need no look at the cursor. */
  private followedTo = -1;

  /** The rows read most, decoded once per stored row (DecodedRows); larger JSON rows on each read. */
  private readonly cursors = new DecodedRows<Cursor>();
  private readonly blocks = new DecodedRows<StoredBlock>();
  private readonly texts = new DecodedRows<string>(MEMO_TEXT_MAX);

  private readonly gc: FollowerGc;

  /** `gcGraceMs`: how long a collected height's rows outlive the tail's move past it (gc.ts). */
  constructor(
    readonly store: Store,
    o: { readonly gcGraceMs?: number } = {},
  ) {
    this.gc = new FollowerGc(this, o.gcGraceMs ?? DEFAULT_GC_GRACE_MS);
  }

  cursor(): Cursor | null {
    const v = this.store.get(DBCol.FollowerMisc, CURSOR_KEY);
    if (!v) return null;
    return this.cursors.of(v, decodeCursor);
  }

  /** Height whose state the genesis records give; null before `loadGenesisHistory`. */
  genesisHeight(): number | null {
    const v = this.store.get(DBCol.FollowerMisc, GENESIS_KEY);
    return v ? Number(readU64be(v, 0)) : null;
  }

  blockHashAt(height: number): CryptoHash | undefined {
    return this.store.get(DBCol.StreamBlockHeight, u64be(height));
  }

  blockSync(hash: CryptoHash): StoredBlock | undefined {
    const v = this.store.get(DBCol.StreamBlock, hash);
    if (!v) return undefined;
    // Kept beyond this call: a copy of the hash, not the caller's array.
    return this.blocks.of(v, (row) => ({
      height: Number(readU64be(row, 0)),
      hash: hash.slice(),
      json: fromUtf8(row.subarray(8)),
    }));
  }

  blockAtSync(height: number): StoredBlock | undefined {
    const hash = this.blockHashAt(heightArg(height));
    return hash ? this.blockSync(hash) : undefined;
  }

  async block(hash: CryptoHash): Promise<StoredBlock | undefined> {
    return this.blockSync(hash);
  }

  async blockAt(height: number): Promise<StoredBlock | undefined> {
    return this.blockAtSync(height);
  }

  async chunk(blockHash: CryptoHash, shardId: number): Promise<string | undefined> {
    return this.json(DBCol.StreamChunk, blockShardKey(blockHash, shardId));
  }

  async chunkByHash(chunkHash: CryptoHash): Promise<string | undefined> {
    const at = this.store.get(DBCol.StreamChunkHash, chunkHash);
    return at && this.json(DBCol.StreamChunk, at);
  }

  async transaction(hash: CryptoHash): Promise<string | undefined> {
    return this.json(DBCol.StreamTransaction, hash);
  }

  async outcome(id: CryptoHash): Promise<string | undefined> {
    return this.json(DBCol.StreamOutcome, id);
  }

  async receipt(id: CryptoHash): Promise<string | undefined> {
    return this.json(DBCol.StreamReceipt, id);
  }

  async outcomesIn(low: number, high: number): Promise<readonly HeightOutcomes[]> {
    const out: HeightOutcomes[] = [];
    for (let height = high; height >= low; height--) {
      const hash = this.blockHashAt(height);
      if (!hash) continue;
      const ids = this.json(DBCol.StreamOutcomeIds, hash);
      const outcomes: string[] = [];
      for (const id of ids ? (JSON.parse(ids) as string[]) : []) {
        const text = this.json(DBCol.StreamOutcome, base58Decode(id));
        if (text !== undefined) outcomes.push(text);
      }
      out.push({ height, outcomes });
    }
    return out;
  }

  async stateChanges(blockHash: CryptoHash): Promise<string | undefined> {
    return this.json(DBCol.StreamStateChanges, blockHash);
  }

  async writeGenesis(height: number, rows: readonly GenesisStateRow[]): Promise<void> {
    const update = new StoreUpdate();
    for (const { key, value } of rows) {
      const stored = encodeHistoryValue(value);
      update.put(DBCol.StateHistory, historyKey(key, height), stored);
      update.put(DBCol.StateHistoryFlat, key, encodeFlatRow(height, stored));
    }
    update.put(DBCol.FollowerMisc, GENESIS_KEY, u64be(height));
    update.put(DBCol.FollowerMisc, FLAT_KEY, Uint8Array.of(1));
    await this.store.commit(update);
  }

  /** Every block in one batch, each with its cursor row; the last one's cursor wins. */
  async writeBlocks(messages: readonly StreamerMessage[], first: boolean): Promise<void> {
    const update = new StoreUpdate();
    for (const m of messages) blockUpdate(m, update);
    const header = messages[0]?.block.header;
    const from =
      first && header ? this.firstBlock(update, header.height, header.prev_height ?? null) : undefined;
    await this.store.commit(update, BULK);
    if (from !== undefined) this.heldFrom = from;
  }

  /** Prepared blocks (see prepare.ts) in one batch, as `writeBlocks` writes their messages. */
  async writePrepared(blocks: readonly PreparedBlock[], first: boolean): Promise<void> {
    const update = new StoreUpdate();
    for (const b of blocks) unpackRows(b.rows, update);
    const head = blocks[0];
    const from = first && head ? this.firstBlock(update, head.height, head.prevHeight) : undefined;
    await this.store.commit(update, BULK);
    if (from !== undefined) this.heldFrom = from;
  }

  /** The first block's rows; returns the height the state is held from (null: the whole state). */
  private firstBlock(update: StoreUpdate, height: number, prevHeight: number | null): number | null {
    const from = stateFromOf(this.genesisHeight(), { height, prevHeight });
    firstBlockRows(update, height, from);
    return from;
  }

  /**
   * For a history written before the `state_from` row existed: works the row out from its first block,
   * as its first batch would now. Only while that block is the one it began with: the caller says
   * so (an archival follower never moves it; a collecting one may have, and a moved tail's block
   * would look like a late start). Run by the one writer before it ingests; returns the height
   * written, or null (nothing to mark).
   */
  async markStateFrom(): Promise<number | null> {
    const first = this.firstHeight();
    if (first === null || this.collectedTo() !== null || this.store.has(DBCol.FollowerMisc, STATE_FROM_KEY))
      return null;
    const block = this.blockAtSync(first);
    const from = block ? stateFromOfBlockView(this.genesisHeight(), first, block.json) : null;
    if (from === null) return null;
    const update = new StoreUpdate();
    update.put(DBCol.FollowerMisc, STATE_FROM_KEY, u64be(from));
    await this.store.commit(update);
    this.heldFrom = from;
    return from;
  }

  /**
   * The height from which every state change is held (state_from.ts); null when the history holds the
   * whole state, from the genesis on.
   */
  stateFrom(): number | null {
    if (this.heldFrom !== undefined) return this.heldFrom;
    // Known for good once a block is written: the row comes in the first block's batch or never. The
    // cursor is read first: seen, its batch is whole, and the row read after it is that batch's.
    const written = this.cursor() !== null;
    const v = this.store.get(DBCol.FollowerMisc, STATE_FROM_KEY);
    const from = v ? Number(readU64be(v, 0)) : null;
    if (from !== null || written) this.heldFrom = from;
    return from;
  }

  collectGarbage(o: FollowerGcOptions): Promise<number> {
    return this.gc.step(o);
  }

  /** The height below which GC has deleted every row (gc.ts); null before its first step. */
  collectedTo(): number | null {
    const v = this.store.get(DBCol.FollowerMisc, GC_DONE_KEY);
    return v ? Number(readU64be(v, 0)) : null;
  }

  /** Height of the first followed block: below it (down to genesis) this node holds no blocks. */
  firstHeight(): number | null {
    const v = this.store.get(DBCol.FollowerMisc, FIRST_KEY);
    return v ? Number(readU64be(v, 0)) : null;
  }

  json(col: (typeof DBCol)[keyof typeof DBCol], key: Uint8Array): string | undefined {
    const v = this.store.get(col, key);
    return v ? this.texts.of(v, fromUtf8) : undefined;
  }

  /** Whether StateHistoryFlat holds every key's newest row (flat_state.ts); once true, always. */
  hasFlatState(): boolean {
    if (!this.flat) this.flat = this.store.has(DBCol.FollowerMisc, FLAT_KEY);
    return this.flat;
  }

  /**
   * Writes StateHistoryFlat from the history rows, for a history created before the column existed;
   * the `flat` marker goes in the last batch, so an interrupted build is redone from the start. Run
   * by the one writer before it ingests. Returns the keys written (0: the column was there).
   */
  async buildFlatState(keysPerBatch = 10_000): Promise<number> {
    if (this.hasFlatState() || this.genesisHeight() === null) return 0;
    let update = new StoreUpdate();
    let lastKey: Uint8Array | null = null;
    let keys = 0;
    for await (const [k, v] of this.store.iter(DBCol.StateHistory)) {
      const { trieKey, height } = decodeHistoryKey(k);
      // A key's rows come newest first: its first row is the one the flat row holds.
      if (lastKey !== null && bytesEqual(trieKey, lastKey)) continue;
      lastKey = trieKey;
      update.put(DBCol.StateHistoryFlat, trieKey, encodeFlatRow(height, v.slice()));
      if (++keys % keysPerBatch === 0) {
        await this.store.commit(update, BULK);
        update = new StoreUpdate();
      }
    }
    update.put(DBCol.FollowerMisc, FLAT_KEY, Uint8Array.of(1));
    await this.store.commit(update, BULK);
    return keys;
  }

  /**
   * The value of a trie key as of `height` when its flat row can tell (the key did not change after
   * `height`): the value or null, else FLAT_MISS and `valueAt` seeks the history.
   */
  valueAtSync(trieKey: Uint8Array, height: number): Uint8Array | null | typeof FLAT_MISS {
    bytesArg(trieKey, 'a trie key');
    this.checkFollowed(height);
    if (!this.hasFlatState()) return FLAT_MISS;
    const row = this.store.get(DBCol.StateHistoryFlat, trieKey);
    const value = flatValueAt(row, height);
    if (value === FLAT_MISS) return value;
    return heldValue(this.stateFrom(), height, row ? flatRowHeight(row) : null, value);
  }

  /**
   * The value of a trie key as of `height` (after that block), or null when absent then; StateNotHeld
   * when this history cannot tell (state_from.ts).
   */
  async valueAt(trieKey: Uint8Array, height: number): Promise<Uint8Array | null> {
    const flat = this.valueAtSync(trieKey, height);
    if (flat !== FLAT_MISS) return flat;
    const row = await this.historyRowAt(trieKey, height);
    return heldValue(this.stateFrom(), height, row.from < 0 ? null : row.from, row.value);
  }

  /**
   * Refuses a state read at a height this history has not followed (above its cursor: its rows would
   * answer with the newest state), or at no height at all.
   */
  private checkFollowed(height: number): void {
    if (heightArg(height) <= this.followedTo) return;
    this.followedTo = Math.max(this.cursor()?.height ?? -1, this.genesisHeight() ?? -1);
    if (height > this.followedTo) {
      throw new RangeError(
        this.followedTo < 0
          ? `no block at height ${height}: this history holds none yet`
          : `no block at height ${height}: this history reaches #${this.followedTo}`,
      );
    }
  }

  /** The key's newest row at or below `height` (its flat row could not tell): one seek, shared, kept. */
  private async historyRowAt(trieKey: Uint8Array, height: number): Promise<FoundRow> {
    const cacheKey = binaryKey(trieKey);
    const known = this.seeks.find(cacheKey, height);
    if (known !== undefined) return known;
    const id = `${height}:${cacheKey}`;
    let pending = this.seeking.get(id);
    if (pending === undefined) {
      pending = this.seek(trieKey, cacheKey, height).finally(() => this.seeking.delete(id));
      this.seeking.set(id, pending);
    }
    return pending;
  }

  private async seek(trieKey: Uint8Array, cacheKey: string, height: number): Promise<FoundRow> {
    const prefix = historyKeyPrefix(trieKey);
    const row = await this.store.first(
      DBCol.StateHistory,
      prefix,
      concatBytes(prefix, invertedHeight(height)),
    );
    const found = {
      from: row ? decodeHistoryKey(row[0]).height : -1,
      value: row ? decodeHistoryValue(row[1]) : null,
    };
    this.seeks.add(cacheKey, found.from, height, found.value);
    return found;
  }

  /**
   * A prefix's keys come from their flat rows, one a key, so a key changed in every block costs one
   * row rather than all its history; only a key changed after `height` is looked up in the history
   * (one seek). A history without flat rows is walked row by row.
   */
  async scanAt(
    prefix: Uint8Array,
    height: number,
    bound: ScanBound = {},
  ): Promise<[Uint8Array, Uint8Array][]> {
    bytesArg(prefix, 'a key prefix');
    this.checkFollowed(height);
    heldScan(this.stateFrom(), height);
    if (!this.hasFlatState()) return this.scanHistoryAt(prefix, height, bound);
    const out: [Uint8Array, Uint8Array][] = [];
    const limit = bound.limit ?? Infinity;
    if (limit <= 0) return out;
    // The first key above `after` is `after` ‖ 0x00.
    const gte = bound.after ? concatBytes(bound.after, Uint8Array.of(0)) : undefined;
    for await (const [key, row] of this.store.iter(DBCol.StateHistoryFlat, prefix, { gte })) {
      const flat = flatValueAt(row, height);
      const value = flat === FLAT_MISS ? (await this.historyRowAt(key, height)).value : flat;
      if (value) out.push([key.slice(), value.slice()]);
      if (out.length >= limit) break;
    }
    return out;
  }

  /** `scanAt` over the history rows themselves: every row of every key under the prefix. */
  async scanHistoryAt(
    prefix: Uint8Array,
    height: number,
    bound: ScanBound = {},
  ): Promise<[Uint8Array, Uint8Array][]> {
    const out: [Uint8Array, Uint8Array][] = [];
    const limit = bound.limit ?? Infinity;
    if (limit <= 0) return out;
    let lastKey: Uint8Array | null = null;
    let done = false;
    const gte = bound.after ? historyRowsAfter(bound.after) : undefined;
    for await (const [k, v] of this.store.iter(DBCol.StateHistory, historyScanPrefix(prefix), { gte })) {
      const { trieKey, height: h } = decodeHistoryKey(k);
      if (lastKey === null || !bytesEqual(trieKey, lastKey)) {
        lastKey = trieKey;
        done = false;
      }
      if (done || h > height) continue;
      done = true;
      const value = decodeHistoryValue(v);
      if (value) out.push([trieKey, value.slice()]);
      if (out.length >= limit) break;
    }
    return out;
  }
}
