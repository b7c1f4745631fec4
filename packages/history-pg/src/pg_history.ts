// A follower's history on PostgreSQL: a meta database (schema version, cursor, blocks) and one
// database per shard (chunks, transactions, outcomes, receipts, state changes, state history), as
// NEAR's read-rpc lays them out. Several shards may share a database, and the meta database may be
// one of them.
//
// One writer, many readers. The writer holds an advisory lock on the meta database for its whole
// life. It commits a batch of blocks as one transaction per shard database, then ONE meta
// transaction with the blocks and the cursor: the cursor moves last. Readers (any number of
// processes) serve heights up to the cursor they last read and bound every lookup by it, so rows of
// a block whose meta transaction has not committed yet (or never will, after a crash) are unknown
// to them. A writer that starts deletes rows above the cursor that a crash left behind.
//
// GC (a follower that is not archival) moves the tail, `first`, up in the meta database like the
// cursor, and readers bound every lookup below by it too. The rows below a tail are deleted only
// once readers have had `gcGraceMs` to learn it, and `gc_done` records how far they are gone, so
// no reader sees a half-collected height and a writer that restarts finishes what was started.

import {
  type Cursor,
  type FollowerGcOptions,
  type GenesisStateRow,
  type HeightOutcomes,
  type HistoryReader,
  type HistoryWriter,
  heldScan,
  heldValue,
  type ScanBound,
  type StoredBlock,
  stateFromOf,
  stateFromOfBlockView,
} from '@nearlite/follower';
import { type CryptoHash, toHex } from '@nearlite/primitives';
import type { StreamerMessage } from '@nearlite/stream';
import type pg from 'pg';
import { CURSOR_CHANNEL, CursorFollower } from './cursor_follower.js';
import { PgHistoryError, PgHistoryErrorCode, redactUrl } from './errors.js';
import {
  checkKind,
  checkShardClaims,
  newHistoryId,
  readArchival,
  readGenesisDigest,
  readHistoryId,
  recordHistoryId,
  refuseForeignShards,
  writeGenesisDigest,
} from './history_checks.js';
import { type ShardLayoutLike, shardOfTrieKey } from './key_shard.js';
import { connectPool, migrated } from './pools.js';
import { batchRows, type ShardRows, type StateRow } from './rows.js';
import { type HeightRange, ShardDb } from './shard_db.js';
import { inTransaction } from './transaction.js';

export interface PgHistoryOptions {
  readonly metaUrl: string;
  /** Shard id → database URL; every shard of the layout needs one (several may be equal). */
  readonly shardUrls: ReadonlyMap<number, string>;
  readonly shardLayout: ShardLayoutLike;
  /** A writer takes the writer lock and cleans up after a crash; a reader only reads. */
  readonly role: 'writer' | 'reader';
  /** Heights per state history partition, fixed when a shard database is created. */
  readonly partitionSize?: number;
  /** How often a reader re-reads the cursor (it also listens for the writer's notifications). */
  readonly pollMs?: number;
  /** Connections per database pool. */
  readonly poolSize?: number;
  /**
   * How long the writer waits after moving the GC tail before deleting the rows below it, so that
   * readers (which re-read the tail on the writer's notification and every `pollMs`) know it first.
   */
  readonly gcGraceMs?: number;
  /**
   * The writer keeps every block (archival): recorded in the meta database of a new history, which
   * then refuses a writer that would collect, as nearcore's store opener refuses an archival database
   * to a node that is not (`DbKindMismatch`). A collecting history stays one (`checkKind`).
   */
  readonly archive?: boolean;
  /** Records the writer's kind over the history's (`--convert-db-kind`). */
  readonly convertDbKind?: boolean;
  /** A reader's statements fail with `TIMEOUT` after this long (deadline.ts). */
  readonly readDeadlineMs?: number;
  /**
   * Checks the digest of the genesis the history was made from (undefined where none is recorded),
   * throwing to refuse the history. A reader started before its writer checks it once the writer has
   * recorded one, before it takes the history's first cursor.
   */
  readonly checkGenesis?: (kept: Uint8Array | undefined) => void;
}

const WRITER_LOCK = 0x6e6c2d7772697465n;
const DEFAULT_PARTITION_SIZE = 100_000;
const DEFAULT_GC_GRACE_MS = 5_000;
const DEFAULT_READ_DEADLINE_MS = 10_000;
/** Deletes are set-based, so one step may move the tail over many heights (a catch-up batch). */
const DEFAULT_GC_HEIGHTS_PER_STEP = 10_000;

const bytes = (b: Uint8Array) => new Uint8Array(b);

export class PgHistory implements HistoryReader, HistoryWriter {
  private current: Cursor | null = null;
  private genesis: number | null = null;
  private first: number | null = null;
  /** The height the state is held from (@nearlite/follower's state_from.ts); null: from the genesis. */
  private heldFrom: number | null = null;
  /** Rows below this height are gone (the writer's GC finished up to it). */
  private gcDone: number | null = null;
  /**
   * Tails this writer published (or found at start), oldest first, with when: the rows below one
   * are deleted once readers have had `gcGraceMs` to learn it, however often the tail moves since.
   */
  private readonly publishedTails: { tail: number; at: number }[] = [];
  /** A reader's watch on the writer's cursor moves. */
  private follower: CursorFollower | null = null;
  private writerClient: pg.PoolClient | null = null;
  /** Why the writer's session ended; its advisory lock ended with it. */
  private writerLost: Error | null = null;
  private closed = false;
  /**
   * A reader found its shard databases to be the history's own. One started before its writer
   * first ran checks them once the writer has recorded the history's id, and until then holds no
   * cursor: it answers as a history without blocks rather than from another's databases.
   */
  private shardsChecked = false;
  /** Why a reader refused the history its databases came to hold; it then holds no cursor. */
  private refusal: Error | null = null;
  private onRefused: (err: Error) => void = () => {};
  /** Settles with the reason once a reader refuses the history (`checkGenesis`). */
  readonly refused = new Promise<Error>((resolve) => {
    this.onRefused = resolve;
  });

  private constructor(
    private readonly o: PgHistoryOptions,
    private readonly meta: pg.Pool,
    /** Unique shard databases, by URL. */
    private readonly dbs: ReadonlyMap<string, ShardDb>,
  ) {}

  static async open(o: PgHistoryOptions): Promise<PgHistory> {
    for (const id of o.shardUrls.keys()) {
      if (!o.shardLayout.shardIds.includes(id)) {
        throw new PgHistoryError(
          PgHistoryErrorCode.BadConfig,
          `shard ${id} is given a database, and the chain has no shard ${id} (its shards are ${o.shardLayout.shardIds.join(', ')}): remove it from store.shard_urls in config.json or --shard-db`,
        );
      }
    }
    for (const id of o.shardLayout.shardIds) {
      if (!o.shardUrls.has(id)) {
        throw new PgHistoryError(
          PgHistoryErrorCode.MissingShard,
          `no database for shard ${id}: the chain has shards ${o.shardLayout.shardIds.join(', ')} and each needs a shard database (store.shard_urls in config.json, or --shard-db ${id}=URL)`,
        );
      }
    }
    const poolSize = o.poolSize ?? 8;
    const deadline = o.role === 'reader' ? (o.readDeadlineMs ?? DEFAULT_READ_DEADLINE_MS) : undefined;
    const meta = await connectPool(o.metaUrl, 'meta', poolSize, deadline);
    const dbs = new Map<string, ShardDb>();
    try {
      const urls = new Set(o.shardUrls.values());
      for (const url of urls) {
        const pool = url === o.metaUrl ? meta : await connectPool(url, 'shard', poolSize, deadline);
        dbs.set(url, new ShardDb(url, pool));
      }
    } catch (err) {
      await Promise.all([...new Set([meta, ...[...dbs.values()].map((d) => d.pool)])].map((p) => p.end()));
      throw err;
    }
    const h = new PgHistory(o, meta, dbs);
    try {
      // Only a writer upgrades a schema, once it holds the lock: an older writer still running would
      // not keep what a newer schema adds (`state_flat`). A front end creates a new database's
      // schema, and refuses an older one.
      if (o.role === 'writer') await h.becomeWriter();
      const upgrade = o.role === 'writer';
      await migrated(meta, ['meta'], o.metaUrl, upgrade);
      for (const db of dbs.values()) {
        await migrated(db.pool, ['shard'], db.url, upgrade);
        await db.loadSettings(o.partitionSize ?? DEFAULT_PARTITION_SIZE);
      }
      await h.refresh();
      if (o.role === 'writer') {
        // A meta database naming no history yet takes only empty shard databases.
        const fresh = h.current === null && h.genesis === null;
        if (fresh) await refuseForeignShards(h.dbs.values(), o.metaUrl);
        // A history from before shards were claimed takes the databases it is given, as it did.
        // The id is recorded once its shards are claimed: a reader that finds it checks them.
        const known = await readHistoryId(meta);
        const id = known ?? newHistoryId();
        await checkShardClaims(o.shardUrls, dbs, id, o.metaUrl, fresh || known === undefined);
        if (known === undefined) await recordHistoryId(meta, id);
        await checkKind(meta, o.metaUrl, o.archive ?? false, o.convertDbKind ?? false);
        await h.dropAboveCursor();
      } else h.follower = await CursorFollower.start(o.metaUrl, o.pollMs ?? 250, () => h.refresh());
    } catch (err) {
      await h.close();
      throw err;
    }
    return h;
  }

  private async becomeWriter(): Promise<void> {
    const c = await this.meta.connect();
    // A session that dies (the server restarted, the connection dropped) takes the writer lock with
    // it: another writer may start, so this one writes nothing more. Listened for from the start: an
    // `error` with no listener would end the process.
    const lost = (err: Error): void => {
      this.writerLost ??= err;
    };
    c.on('error', lost);
    let ok = false;
    try {
      const r = await c.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [
        WRITER_LOCK.toString(),
      ]);
      ok = r.rows[0]?.ok === true;
    } finally {
      if (!ok) {
        c.off('error', lost);
        c.release();
      }
    }
    if (!ok) {
      throw new PgHistoryError(
        PgHistoryErrorCode.NotWriter,
        `another writer is following into ${redactUrl(this.o.metaUrl)}: a history has one writer; start \`nearlite serve\` front ends to read it`,
      );
    }
    this.writerClient = c;
  }

  /** Re-reads the cursor, first and genesis heights from the meta database. */
  async refresh(): Promise<void> {
    const r = await this.meta.query<{ name: string; block_height: string; block_hash: Buffer | null }>(
      'SELECT name, block_height, block_hash FROM meta',
    );
    if (this.refusal) return;
    if (this.o.role === 'reader' && !this.shardsChecked) {
      const hasCursor = r.rows.some((row) => row.name === 'cursor');
      const id = r.rows.find((row) => row.name === 'history_id')?.block_hash;
      if (id) {
        await checkShardClaims(this.o.shardUrls, this.dbs, bytes(id), this.o.metaUrl, false);
      } else if (!hasCursor) return;
      // Else written by a writer from before shards were claimed: nothing to check them against.
      if (this.o.checkGenesis) {
        const kept = await readGenesisDigest(this.meta);
        // A writer records the genesis before its first block; one from before it did, never.
        if (kept === undefined && !hasCursor) return;
        try {
          this.o.checkGenesis(kept);
        } catch (err) {
          this.refusal = err as Error;
          this.onRefused(this.refusal);
          return;
        }
      }
      this.shardsChecked = true;
    }
    for (const row of r.rows) {
      const height = Number(row.block_height);
      if (row.name === 'cursor' && row.block_hash) {
        // The cursor only moves forward; a slow answer never takes a reader back.
        if (this.current === null || height > this.current.height)
          this.current = { height, hash: bytes(row.block_hash) };
      } else if (row.name === 'genesis') this.genesis = height;
      // Like the cursor, the tail only moves forward.
      else if (row.name === 'first') this.first = Math.max(this.first ?? height, height);
      else if (row.name === 'gc_done') this.gcDone = height;
      else if (row.name === 'state_from') this.heldFrom = height;
    }
  }

  cursor(): Cursor | null {
    return this.current;
  }

  genesisHeight(): number | null {
    return this.genesis;
  }

  firstHeight(): number | null {
    return this.first;
  }

  stateFrom(): number | null {
    return this.heldFrom;
  }

  private get bound(): number {
    return this.current?.height ?? -1;
  }

  /** The heights whose rows a reader may use: collected ones below, unfinished ones above, are not. */
  private get heights(): HeightRange {
    return { from: this.first ?? 0, to: this.bound };
  }

  private dbOfShard(shardId: number): ShardDb | undefined {
    const url = this.o.shardUrls.get(shardId);
    return url === undefined ? undefined : this.dbs.get(url);
  }

  private dbOfKey(key: Uint8Array): ShardDb {
    return this.dbOfShard(shardOfTrieKey(this.o.shardLayout, key))!;
  }

  /** The first database that has it: ids are unique across shards. */
  private async anyShard<T>(read: (db: ShardDb) => Promise<T | undefined>): Promise<T | undefined> {
    const all = await Promise.all([...this.dbs.values()].map(read));
    return all.find((x) => x !== undefined);
  }

  // Below the tail a block's row holds its header for good (GC keeps headers, as nearcore's does): the
  // callers tell a collected block by its height.
  async block(hash: CryptoHash): Promise<StoredBlock | undefined> {
    const r = await this.meta.query<{ block_height: string; json: string }>(
      'SELECT block_height, json FROM blocks WHERE block_hash = $1 AND block_height <= $2',
      [hash, this.heights.to],
    );
    const row = r.rows[0];
    return row && { height: Number(row.block_height), hash, json: row.json };
  }

  async blockAt(height: number): Promise<StoredBlock | undefined> {
    if (height > this.bound) return undefined;
    const r = await this.meta.query<{ block_hash: Buffer; json: string }>(
      'SELECT block_hash, json FROM blocks WHERE block_height = $1',
      [height],
    );
    const row = r.rows[0];
    return row && { height, hash: bytes(row.block_hash), json: row.json };
  }

  async chunk(blockHash: CryptoHash, shardId: number): Promise<string | undefined> {
    return this.dbOfShard(shardId)?.chunk(blockHash, shardId, this.heights);
  }

  chunkByHash(chunkHash: CryptoHash): Promise<string | undefined> {
    return this.anyShard((db) => db.chunkByHash(chunkHash, this.heights));
  }

  transaction(hash: CryptoHash): Promise<string | undefined> {
    return this.anyShard((db) => db.json('transactions', 'hash', hash, this.heights));
  }

  outcome(id: CryptoHash): Promise<string | undefined> {
    return this.anyShard((db) => db.json('outcomes', 'id', id, this.heights));
  }

  receipt(id: CryptoHash): Promise<string | undefined> {
    return this.anyShard((db) => db.json('receipts', 'id', id, this.heights));
  }

  async outcomesIn(low: number, high: number): Promise<readonly HeightOutcomes[]> {
    const from = Math.max(low, this.heights.from);
    const to = Math.min(high, this.heights.to);
    if (from > to) return [];
    const byHeight = new Map<number, string[]>();
    const rows = await Promise.all([...this.dbs.values()].map((db) => db.outcomesIn(from, to)));
    for (const { height, json } of rows.flat()) {
      const list = byHeight.get(height);
      if (list) list.push(json);
      else byHeight.set(height, [json]);
    }
    return [...byHeight].sort((a, b) => b[0] - a[0]).map(([height, outcomes]) => ({ height, outcomes }));
  }

  async stateChanges(blockHash: CryptoHash): Promise<string | undefined> {
    const parts = (
      await Promise.all([...this.dbs.values()].map((db) => db.stateChanges(blockHash, this.heights)))
    )
      .flat()
      .sort((a, b) => a.ord - b.ord)
      .map((p) => p.json.slice(1, -1).trim())
      .filter((p) => p.length > 0);
    return `[${parts.join(',')}]`;
  }

  async valueAt(trieKey: Uint8Array, height: number): Promise<Uint8Array | null> {
    const db = this.dbOfKey(trieKey);
    const at = Math.min(height, this.bound);
    const from = this.heldFrom;
    if (from === null) return db.valueAt(trieKey, at);
    const row = await db.rowAt(trieKey, at);
    return heldValue(from, height, row?.height ?? null, row?.value ?? null);
  }

  async scanAt(prefix: Uint8Array, height: number, bound?: ScanBound): Promise<[Uint8Array, Uint8Array][]> {
    heldScan(this.heldFrom, height);
    return this.dbOfKey(prefix).scanAt(prefix, Math.min(height, this.bound), bound);
  }

  // The writer's side.

  private writer(): pg.PoolClient {
    if (!this.writerClient)
      throw new PgHistoryError(
        PgHistoryErrorCode.NotWriter,
        'this PostgreSQL history was opened as a reader',
      );
    if (this.writerLost)
      throw new PgHistoryError(
        PgHistoryErrorCode.WriterLost,
        `the writer's session on ${redactUrl(this.o.metaUrl)} ended (${this.writerLost.message}), and the writer lock with it: restart the follower, which resumes after the cursor`,
      );
    return this.writerClient;
  }

  /** Whether the history is archival, as its writer recorded; undefined before any did. */
  archival(): Promise<boolean | undefined> {
    return readArchival(this.meta);
  }

  /** The digest of the genesis config the history was made from, where one is recorded. */
  genesisDigest(): Promise<Uint8Array | undefined> {
    return readGenesisDigest(this.meta);
  }

  /** Records it (the writer, in a history that has none). */
  recordGenesisDigest(digest: Uint8Array): Promise<void> {
    return writeGenesisDigest(this.writer(), digest);
  }

  /** Rows a crash left above the cursor (a block whose meta transaction never committed). */
  private async dropAboveCursor(): Promise<void> {
    const stateBound = this.current?.height ?? this.genesis ?? -1;
    for (const db of this.dbs.values()) await db.dropAbove(this.current?.height ?? -1, stateBound);
  }

  private byDb(shards: ReadonlyMap<number, ShardRows>): Map<ShardDb, ShardRows[]> {
    const out = new Map<ShardDb, ShardRows[]>();
    for (const [shardId, rows] of shards) {
      if (rows.empty) continue;
      const db = this.dbOfShard(shardId);
      if (!db) {
        throw new PgHistoryError(
          PgHistoryErrorCode.MissingShard,
          `the stream has shard ${shardId}, which has no database configured`,
        );
      }
      const list = out.get(db) ?? [];
      list.push(rows);
      out.set(db, list);
    }
    return out;
  }

  async writeGenesis(height: number, rows: readonly GenesisStateRow[]): Promise<void> {
    const meta = this.writer();
    const state = new Map<ShardDb, StateRow[]>();
    for (const { key, value } of rows) {
      const db = this.dbOfKey(key);
      const list = state.get(db) ?? [];
      list.push({ key, height, value });
      state.set(db, list);
    }
    for (const [db, list] of state) await db.writeState(list);
    await meta.query(
      `INSERT INTO meta (name, block_height) VALUES ('genesis', $1)
       ON CONFLICT (name) DO UPDATE SET block_height = EXCLUDED.block_height`,
      [height],
    );
    this.genesis = height;
  }

  async writeBlocks(messages: readonly StreamerMessage[], first: boolean): Promise<void> {
    const meta = this.writer();
    const last = messages.at(-1);
    if (!last) return;
    const { blocks, shards } = batchRows(messages, (key) => shardOfTrieKey(this.o.shardLayout, key));
    await Promise.all([...this.byDb(shards)].map(([db, list]) => db.writeRows(list)));
    const cursor = blocks.at(-1)!;
    const header = messages[0]!.block.header;
    const stateFrom = first
      ? stateFromOf(this.genesis, { height: header.height, prevHeight: header.prev_height ?? null })
      : null;
    await inTransaction(meta, async () => {
      await meta.query(
        `INSERT INTO blocks (block_height, block_hash, json)
         SELECT h, decode(k, 'hex'), j FROM unnest($1::bigint[], $2::text[], $3::text[]) AS t(h, k, j)
         ON CONFLICT (block_height) DO UPDATE SET block_hash = EXCLUDED.block_hash, json = EXCLUDED.json`,
        [blocks.map((b) => b.height), blocks.map((b) => toHex(b.hash)), blocks.map((b) => b.json)],
      );
      if (first) {
        await meta.query(
          `INSERT INTO meta (name, block_height) VALUES ('first', $1)
           ON CONFLICT (name) DO UPDATE SET block_height = EXCLUDED.block_height`,
          [blocks[0]!.height],
        );
        if (stateFrom !== null)
          await meta.query(
            `INSERT INTO meta (name, block_height) VALUES ('state_from', $1)
             ON CONFLICT (name) DO UPDATE SET block_height = EXCLUDED.block_height`,
            [stateFrom],
          );
      }
      await meta.query(
        `INSERT INTO meta (name, block_height, block_hash) VALUES ('cursor', $1, $2)
         ON CONFLICT (name) DO UPDATE SET block_height = EXCLUDED.block_height, block_hash = EXCLUDED.block_hash`,
        [cursor.height, cursor.hash],
      );
      await meta.query(`SELECT pg_notify('${CURSOR_CHANNEL}', $1)`, [String(cursor.height)]);
    });
    if (first) {
      this.first = blocks[0]!.height;
      this.heldFrom = stateFrom;
    }
    this.current = { height: cursor.height, hash: bytes(cursor.hash) };
  }

  async markStateFrom(): Promise<number | null> {
    const first = this.first;
    if (first === null || this.gcDone !== null || this.heldFrom !== null) return null;
    const meta = this.writer();
    const r = await meta.query<{ json: string }>('SELECT json FROM blocks WHERE block_height = $1', [first]);
    const json = r.rows[0]?.json;
    const from = json === undefined ? null : stateFromOfBlockView(this.genesis, first, json);
    if (from === null) return null;
    await meta.query(
      `INSERT INTO meta (name, block_height) VALUES ('state_from', $1) ON CONFLICT (name) DO NOTHING`,
      [from],
    );
    this.heldFrom = from;
    return from;
  }

  async collectGarbage(o: FollowerGcOptions): Promise<number> {
    const meta = this.writer();
    const cursor = this.current;
    const first = this.first;
    if (!cursor || first === null) return 0;
    // Readers may still hold the tail found at start: it waits like one just published.
    if (this.publishedTails.length === 0) this.publishedTails.push({ tail: first, at: Date.now() });
    let collected = 0;
    const target = cursor.height - o.keepBlocks;
    if (first < target) {
      let until = Math.min(target, first + (o.heightsPerStep ?? DEFAULT_GC_HEIGHTS_PER_STEP));
      // The first height names a block, not one the chain skipped: the earliest block views read it.
      const next = await meta.query<{ h: string | null }>(
        'SELECT min(block_height) AS h FROM blocks WHERE block_height >= $1 AND block_height < $2',
        [until, target],
      );
      const h = next.rows[0]?.h;
      until = h === null || h === undefined ? target : Number(h);
      const r = await meta.query<{ n: string }>(
        'SELECT count(*) AS n FROM blocks WHERE block_height >= $1 AND block_height < $2',
        [first, until],
      );
      collected = Number(r.rows[0]!.n);
      await inTransaction(meta, async () => {
        await meta.query(`UPDATE meta SET block_height = $1 WHERE name = 'first'`, [until]);
        await meta.query(`SELECT pg_notify('${CURSOR_CHANNEL}', $1)`, [String(cursor.height)]);
      });
      this.first = until;
      this.publishedTails.push({ tail: until, at: Date.now() });
    }
    const known = Date.now() - (this.o.gcGraceMs ?? DEFAULT_GC_GRACE_MS);
    let tail: number | null = null;
    while (this.publishedTails.length > 0 && this.publishedTails[0]!.at <= known)
      tail = this.publishedTails.shift()!.tail;
    if (tail !== null && (this.gcDone === null || this.gcDone < tail)) {
      const below = tail;
      await Promise.all([...this.dbs.values()].map((db) => db.collect(below, this.heldFrom)));
      await inTransaction(meta, async () => {
        // The header and the height's hash outlive the block, as nearcore's GC keeps them: the row
        // becomes `{"header": …}`, the header's text as it was (json's `->` keeps a value's text).
        await meta.query(
          `UPDATE blocks SET json = '{"header":' || ((json::json) -> 'header')::text || '}'
           WHERE block_height < $1 AND block_height >= $2`,
          [below, this.gcDone ?? 0],
        );
        await meta.query(
          `INSERT INTO meta (name, block_height) VALUES ('gc_done', $1)
           ON CONFLICT (name) DO UPDATE SET block_height = EXCLUDED.block_height`,
          [below],
        );
      });
      this.gcDone = below;
    }
    return collected;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.follower?.close();
    const writer = this.writerClient;
    if (writer) {
      // The lock is the session's: unlocked here, it is free once close returns, and not only when
      // the server has noticed the connection end, so a writer restarted at once can take it.
      await writer.query('SELECT pg_advisory_unlock($1)', [WRITER_LOCK.toString()]).catch(() => {});
      writer.release(true);
    }
    const pools = new Set([this.meta, ...[...this.dbs.values()].map((d) => d.pool)]);
    await Promise.all([...pools].map((p) => p.end().catch(() => {})));
  }
}
