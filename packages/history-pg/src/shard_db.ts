// One shard database: its reads (each bounded by the reader's cursor) and the writer's inserts.
// Inserts are set-based (`unnest` of arrays: one statement per table per transaction, whatever the
// number of rows), and idempotent (ON CONFLICT), so a batch re-written after a crash lands as if
// written once. State history partitions are created here as heights advance.
import type { ScanBound } from '@nearlite/follower';
import { concatBytes, toHex } from '@nearlite/primitives';
import type pg from 'pg';
import { mergeJsonRows, type ShardRows, type StateRow } from './rows.js';
import { inTransaction, withConnection } from './transaction.js';

const bytes = (b: Uint8Array) => new Uint8Array(b);
/** Rows per statement for the genesis state, which can be millions of rows. */
const CHUNK_ROWS = 20_000;

/** The exclusive upper bound of the keys under `prefix`; null when there is none (all 0xff). */
export function prefixEnd(prefix: Uint8Array): Uint8Array | null {
  const end = concatBytes(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i]! < 0xff) {
      end[i] = end[i]! + 1;
      return end.slice(0, i + 1);
    }
  }
  return null;
}

type JsonTable = 'transactions' | 'outcomes' | 'receipts';

/** Heights a reader may see: from the GC tail (the first kept height) to its cursor. */
export interface HeightRange {
  readonly from: number;
  readonly to: number;
}

/** Tables whose rows belong to one block, by its height. */
const BLOCK_TABLES = ['chunks', 'transactions', 'outcomes', 'receipts', 'block_state_changes'] as const;
/** The height whose collection takes a table's rows with it. */
const GC_HEIGHT: Record<(typeof BLOCK_TABLES)[number], string> = {
  chunks: 'block_height',
  transactions: 'gc_height',
  outcomes: 'gc_height',
  receipts: 'gc_height',
  block_state_changes: 'block_height',
};

const PARTITIONS_QUERY = `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
  JOIN pg_class parent ON parent.oid = i.inhparent WHERE parent.relname = 'state_history'`;

async function partitionStarts(c: pg.ClientBase | pg.Pool): Promise<number[]> {
  const p = await c.query<{ name: string }>(PARTITIONS_QUERY);
  const out: number[] = [];
  for (const row of p.rows) {
    const m = /^state_history_(\d+)$/.exec(row.name);
    if (m) out.push(Number(m[1]));
  }
  return out.sort((a, b) => a - b);
}

const HISTORY_INSERT = `INSERT INTO state_history (key, block_height, value)
  SELECT decode(k, 'hex'), h, decode(v, 'hex') FROM unnest($1::text[], $2::bigint[], $3::text[]) AS t(k, h, v)
  ON CONFLICT (key, block_height) DO UPDATE SET value = EXCLUDED.value`;

/** A row re-written after a crash lands again; an older one never replaces a newer. */
const FLAT_UPSERT = `INSERT INTO state_flat (key, block_height, value)
  SELECT decode(k, 'hex'), h, decode(v, 'hex') FROM unnest($1::text[], $2::bigint[], $3::text[]) AS t(k, h, v)
  ON CONFLICT (key) DO UPDATE SET block_height = EXCLUDED.block_height, value = EXCLUDED.value
  WHERE state_flat.block_height <= EXCLUDED.block_height`;

/** State rows as the inserts take them: key and value in hex, each encoded once. */
interface HexRow {
  readonly key: string;
  readonly height: number;
  readonly value: string | null;
}

async function insertRows(c: pg.ClientBase, sql: string, rows: readonly HexRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK_ROWS) {
    const part = rows.slice(i, i + CHUNK_ROWS);
    await c.query(sql, [part.map((r) => r.key), part.map((r) => r.height), part.map((r) => r.value)]);
  }
}

/** One row a key, its highest: one upsert may not meet a key twice. */
function newestByKey(rows: readonly HexRow[]): HexRow[] {
  const out = new Map<string, HexRow>();
  for (const r of rows) {
    const had = out.get(r.key);
    if (!had || had.height <= r.height) out.set(r.key, r);
  }
  return [...out.values()];
}

/**
 * A key's value at `height` from its flat row `f`: the flat value when it was written at or below
 * the height, else the newest history row at or below it (one backward probe).
 */
const VALUE_AT_FLAT = (height: string) => `CASE WHEN f.block_height <= ${height} THEN f.value ELSE (
    SELECT h.value FROM state_history h WHERE h.key = f.key AND h.block_height <= ${height}
    ORDER BY h.block_height DESC LIMIT 1) END`;

/**
 * The entries under `prefix` at `height` above `bound.after`, at most `bound.limit` of them: one
 * flat row a key in key order, streamed and stopped at the limit. A key deleted by then has a row but
 * no entry, so the limit counts what is left once those are dropped. `OFFSET 0` keeps the inner query
 * whole: merged into the outer one, its value would be worked out twice a row (filter and output).
 */
export function scanQuery(
  prefix: Uint8Array,
  height: number,
  bound: ScanBound = {},
): { text: string; values: unknown[] } {
  const values: unknown[] = [prefix, height];
  const param = (v: unknown): string => {
    values.push(v);
    return `$${values.length}`;
  };
  const end = prefixEnd(prefix);
  const where = [
    'f.key >= $1',
    ...(end ? [`f.key < ${param(end)}`] : []),
    ...(bound.after ? [`f.key > ${param(bound.after)}`] : []),
  ].join(' AND ');
  const limit = bound.limit === undefined ? '' : `LIMIT ${param(bound.limit)}`;
  return {
    text: `SELECT key, value FROM (
         SELECT f.key, ${VALUE_AT_FLAT('$2')} AS value FROM state_flat f WHERE ${where} ORDER BY f.key
         OFFSET 0
       ) AS at_height WHERE value IS NOT NULL ORDER BY key ${limit}`,
    values,
  };
}

export class ShardDb {
  private partitionSize = 0;
  private readonly partitions = new Set<number>();

  constructor(
    readonly url: string,
    readonly pool: pg.Pool,
  ) {}

  /** Reads (or fixes, on a new database) the partition size, and which partitions exist. */
  async loadSettings(wanted: number): Promise<void> {
    const read = () =>
      this.pool.query<{ value: string }>(`SELECT value FROM shard_settings WHERE name = 'partition_size'`);
    // Read first: a front end on a read-only role or a hot standby writes nothing.
    let r = await read();
    if (r.rows.length === 0) {
      await this.pool.query(
        `INSERT INTO shard_settings (name, value) VALUES ('partition_size', $1) ON CONFLICT (name) DO NOTHING`,
        [wanted],
      );
      r = await read();
    }
    this.partitionSize = Number(r.rows[0]!.value);
    for (const start of await partitionStarts(this.pool)) this.partitions.add(start);
  }

  async chunk(blockHash: Uint8Array, shardId: number, at: HeightRange): Promise<string | undefined> {
    const r = await this.pool.query<{ json: string }>(
      `SELECT json FROM chunks WHERE block_hash = $1 AND shard_id = $2
       AND block_height BETWEEN $3 AND $4`,
      [blockHash, shardId, at.from, at.to],
    );
    return r.rows[0]?.json;
  }

  async chunkByHash(chunkHash: Uint8Array, at: HeightRange): Promise<string | undefined> {
    const r = await this.pool.query<{ json: string }>(
      'SELECT json FROM chunks WHERE chunk_hash = $1 AND block_height BETWEEN $2 AND $3 LIMIT 1',
      [chunkHash, at.from, at.to],
    );
    return r.rows[0]?.json;
  }

  async json(table: JsonTable, idColumn: 'hash' | 'id', id: Uint8Array, at: HeightRange) {
    const r = await this.pool.query<{ json: string }>(
      `SELECT json FROM ${table} WHERE ${idColumn} = $1 AND block_height BETWEEN $2 AND $3`,
      [id, at.from, at.to],
    );
    return r.rows[0]?.json;
  }

  /** The outcomes executed from `low` to `high` in this shard, with their heights. */
  async outcomesIn(low: number, high: number): Promise<{ height: number; json: string }[]> {
    const r = await this.pool.query<{ block_height: string; json: string }>(
      'SELECT block_height, json FROM outcomes WHERE block_height BETWEEN $1 AND $2',
      [low, high],
    );
    return r.rows.map((row) => ({ height: Number(row.block_height), json: row.json }));
  }

  async stateChanges(blockHash: Uint8Array, at: HeightRange): Promise<{ ord: number; json: string }[]> {
    const r = await this.pool.query<{ shard_ord: number; json: string }>(
      `SELECT shard_ord, json FROM block_state_changes WHERE block_hash = $1
       AND block_height BETWEEN $2 AND $3`,
      [blockHash, at.from, at.to],
    );
    return r.rows.map((row) => ({ ord: row.shard_ord, json: row.json }));
  }

  async valueAt(key: Uint8Array, height: number): Promise<Uint8Array | null> {
    const r = await this.pool.query<{ value: Buffer | null }>(
      `SELECT ${VALUE_AT_FLAT('$2')} AS value FROM state_flat f WHERE f.key = $1`,
      [key, height],
    );
    const v = r.rows[0]?.value;
    return v ? bytes(v) : null;
  }

  /** The key's newest row at or below `height` (its value null: deleted then); null when it has none. */
  async rowAt(key: Uint8Array, height: number): Promise<{ height: number; value: Uint8Array | null } | null> {
    // The flat row is the newest: when it is not above `height` it is the answer, else the history's.
    const r = await this.pool.query<{ block_height: string; value: Buffer | null }>(
      `(SELECT block_height, value FROM state_flat WHERE key = $1 AND block_height <= $2)
       UNION ALL
       (SELECT block_height, value FROM state_history WHERE key = $1 AND block_height <= $2
        ORDER BY block_height DESC LIMIT 1)
       LIMIT 1`,
      [key, height],
    );
    const row = r.rows[0];
    return row ? { height: Number(row.block_height), value: row.value ? bytes(row.value) : null } : null;
  }

  async scanAt(
    prefix: Uint8Array,
    height: number,
    bound: ScanBound = {},
  ): Promise<[Uint8Array, Uint8Array][]> {
    const q = scanQuery(prefix, height, bound);
    const r = await this.pool.query<{ key: Buffer; value: Buffer }>(q.text, q.values);
    return r.rows.map((row) => [bytes(row.key), bytes(row.value)]);
  }

  /** Deletes what a crashed writer left above the cursor. */
  async dropAbove(height: number, stateHeight: number): Promise<void> {
    for (const t of BLOCK_TABLES) await this.pool.query(`DELETE FROM ${t} WHERE block_height > $1`, [height]);
    await this.transaction(async (c) => {
      // The keys written above: their rows are in the partitions above, so only those are read (a
      // scan of `state_flat` by height would read every key). Each one's flat row becomes its newest
      // row below again, or goes.
      await c.query(
        'CREATE TEMP TABLE above ON COMMIT DROP AS SELECT DISTINCT key FROM state_history WHERE block_height > $1',
        [stateHeight],
      );
      await c.query(
        `INSERT INTO state_flat (key, block_height, value)
         SELECT DISTINCT ON (h.key) h.key, h.block_height, h.value FROM state_history h
         WHERE h.key IN (SELECT key FROM above) AND h.block_height <= $1
         ORDER BY h.key, h.block_height DESC
         ON CONFLICT (key) DO UPDATE SET block_height = EXCLUDED.block_height, value = EXCLUDED.value`,
        [stateHeight],
      );
      await c.query('DELETE FROM state_flat f USING above a WHERE f.key = a.key AND f.block_height > $1', [
        stateHeight,
      ]);
      await c.query('DELETE FROM state_history WHERE block_height > $1', [stateHeight]);
    });
  }

  /**
   * GC below `tail`, in one transaction: the rows of collected blocks are deleted, and the state
   * history partitions wholly below the tail's partition are dropped once the values they hold that
   * are still current are carried to that partition's first height. Reads at or above the tail
   * answer as before: a value is the last one written at or below the height asked. Where the state
   * is held from `stateFrom` (@nearlite/follower's state_from.ts), a row is what says a key is held:
   * a value written below it is not carried (at the partition's height it would pass for one the
   * history holds), and a deletion since it is carried and its flat row kept (without a row, the
   * key would read as not held rather than absent).
   */
  async collect(tail: number, stateFrom: number | null = null): Promise<void> {
    await this.transaction(async (c) => {
      for (const t of BLOCK_TABLES) await c.query(`DELETE FROM ${t} WHERE ${GC_HEIGHT[t]} < $1`, [tail]);
      const kept = Math.floor(tail / this.partitionSize) * this.partitionSize;
      const below = (await partitionStarts(c)).filter((start) => start < kept);
      if (below.length === 0) return;
      await this.ensurePartitions(c, [kept]);
      // Keys written again between the kept partition's start and the tail need nothing carried;
      // keys whose last row is a deletion are absent, so nothing of them is carried either.
      await c.query(
        `INSERT INTO state_history (key, block_height, value)
         SELECT last.key, $1, last.value FROM (
           SELECT DISTINCT ON (key) key, value, block_height FROM state_history WHERE block_height < $1
           ORDER BY key, block_height DESC
         ) AS last
         WHERE (($3::bigint IS NULL AND last.value IS NOT NULL) OR last.block_height >= $3) AND NOT EXISTS (
           SELECT 1 FROM state_history n WHERE n.key = last.key AND n.block_height BETWEEN $1 AND $2
         )`,
        [kept, tail, stateFrom],
      );
      // A key whose newest row is a deletion below the kept partition has no history left once the
      // partitions go: its flat row goes too (found from the deletions those partitions hold).
      await c.query(
        `DELETE FROM state_flat f USING (
           SELECT DISTINCT key FROM state_history WHERE block_height < $1 AND value IS NULL
         ) AS d WHERE f.key = d.key AND f.value IS NULL AND f.block_height < $1
         AND ($2::bigint IS NULL OR f.block_height < $2)`,
        [kept, stateFrom],
      );
      for (const start of below) {
        await c.query(`DROP TABLE state_history_${start}`);
        this.partitions.delete(start);
      }
    });
  }

  private async ensurePartitions(c: pg.ClientBase, heights: Iterable<number>): Promise<void> {
    for (const h of heights) {
      const start = Math.floor(h / this.partitionSize) * this.partitionSize;
      if (this.partitions.has(start)) continue;
      await c.query(
        `CREATE TABLE IF NOT EXISTS state_history_${start} PARTITION OF state_history
         FOR VALUES FROM (${start}) TO (${start + this.partitionSize})`,
      );
      this.partitions.add(start);
    }
  }

  /** History rows, and each key's newest of them (unless a newer one is there) as its flat row. */
  private async insertState(c: pg.ClientBase, rows: readonly StateRow[]): Promise<void> {
    const hex = rows.map((r) => ({
      key: toHex(r.key),
      height: r.height,
      value: r.value ? toHex(r.value) : null,
    }));
    await insertRows(c, HISTORY_INSERT, hex);
    await insertRows(c, FLAT_UPSERT, newestByKey(hex));
  }

  private async transaction(write: (c: pg.PoolClient) => Promise<void>): Promise<void> {
    try {
      await withConnection(this.pool, (c) => inTransaction(c, () => write(c)));
    } catch (err) {
      // A failed partition creation (or drop) may have been rolled back with it.
      this.partitions.clear();
      throw err;
    }
  }

  async writeState(rows: readonly StateRow[]): Promise<void> {
    await this.transaction(async (c) => {
      await this.ensurePartitions(c, new Set(rows.map((r) => r.height)));
      await this.insertState(c, rows);
    });
  }

  /** One transaction for every shard's rows of a batch that this database keeps. */
  async writeRows(list: readonly ShardRows[]): Promise<void> {
    const chunks = list.flatMap((s) => s.chunks);
    const changes = list.flatMap((s) => s.stateChanges);
    const state = list.flatMap((s) => [...s.state.values()]);
    await this.transaction(async (c) => {
      await this.ensurePartitions(c, new Set(state.map((r) => r.height)));
      if (chunks.length > 0) {
        await c.query(
          `INSERT INTO chunks (block_hash, shard_id, block_height, chunk_hash, json)
           SELECT decode(b, 'hex'), s, h, decode(k, 'hex'), j
           FROM unnest($1::text[], $2::int[], $3::bigint[], $4::text[], $5::text[]) AS t(b, s, h, k, j)
           ON CONFLICT (block_hash, shard_id) DO UPDATE SET json = EXCLUDED.json`,
          [
            chunks.map((r) => toHex(r.blockHash)),
            chunks.map((r) => r.shardId),
            chunks.map((r) => r.height),
            chunks.map((r) => toHex(r.chunkHash)),
            chunks.map((r) => r.json),
          ],
        );
      }
      for (const [table, id, rows] of [
        ['transactions', 'hash', mergeJsonRows(list.map((s) => s.transactions))],
        ['outcomes', 'id', mergeJsonRows(list.map((s) => s.outcomes))],
        ['receipts', 'id', mergeJsonRows(list.map((s) => s.receipts))],
      ] as const) {
        if (rows.length === 0) continue;
        await c.query(
          `INSERT INTO ${table} (${id}, block_height, gc_height, json)
           SELECT decode(k, 'hex'), h, g, j
           FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::text[]) AS t(k, h, g, j)
           ON CONFLICT (${id}) DO UPDATE SET json = EXCLUDED.json,
             gc_height = GREATEST(${table}.gc_height, EXCLUDED.gc_height)`,
          [
            rows.map((r) => toHex(r.id)),
            rows.map((r) => r.height),
            rows.map((r) => r.lastHeight ?? r.height),
            rows.map((r) => r.json),
          ],
        );
      }
      if (changes.length > 0) {
        await c.query(
          `INSERT INTO block_state_changes (block_hash, shard_ord, block_height, json)
           SELECT decode(b, 'hex'), o, h, j FROM unnest($1::text[], $2::int[], $3::bigint[], $4::text[]) AS t(b, o, h, j)
           ON CONFLICT (block_hash, shard_ord) DO UPDATE SET json = EXCLUDED.json`,
          [
            changes.map((r) => toHex(r.blockHash)),
            changes.map((r) => r.shardOrd),
            changes.map((r) => r.height),
            changes.map((r) => r.json),
          ],
        );
      }
      if (state.length > 0) await this.insertState(c, state);
    });
  }
}
