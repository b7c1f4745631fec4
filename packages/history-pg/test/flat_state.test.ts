// The flat state rows of a PostgreSQL history: prefix scans and lookups at a height answer as the
// history rows alone do (every version of every key), from one flat row a key; a crash's rows above
// the cursor leave no flat row behind; a database of the schema before them gets them filled; and a
// front end does not upgrade a schema that an older writer is still writing.

import { PgHistoryErrorCode, prefixEnd, scanQuery } from '@nearlite/history-pg';
import { utf8 } from '@nearlite/primitives';
import type pg from 'pg';
import t from 'tap';
import { dataBlock, ONE_SHARD, oneDatabase, openPg } from './helpers.js';

const base = utf8('\u0009app.near,');
const keyOf = (tail: number[]) => Uint8Array.of(...base, ...tail);
/** An entry as the checks show it: the key in hex, then the value's text. */
const entry = (tail: number[], value: string) => `${Buffer.from(keyOf(tail)).toString('hex')}=${value}`;

/** The answer of the history rows alone: each key's newest row at the height, then the present ones. */
async function historyScan(
  c: pg.Client,
  prefix: Uint8Array,
  height: number,
  after?: Uint8Array,
  limit?: number,
): Promise<string[]> {
  const r = await c.query<{ key: Buffer; value: Buffer }>(
    `SELECT key, value FROM (
       SELECT DISTINCT ON (key) key, value FROM state_history
       WHERE key >= $1 AND key < $2 AND block_height <= $3 AND ($4::bytea IS NULL OR key > $4)
       ORDER BY key, block_height DESC
     ) AS newest WHERE value IS NOT NULL ORDER BY key LIMIT $5`,
    [prefix, prefixEnd(prefix), height, after ?? null, limit ?? null],
  );
  return r.rows.map((row) => `${row.key.toString('hex')}=${row.value.toString()}`);
}

const shown = (rows: [Uint8Array, Uint8Array][]) =>
  rows.map(([k, v]) => `${Buffer.from(k).toString('hex')}=${Buffer.from(v).toString()}`);

/** The rows of `state_history` partitions an EXPLAIN ANALYZE of a query read. */
async function historyRowsRead(c: pg.Client, q: { text: string; values: unknown[] }): Promise<number> {
  const r = await c.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${q.text}`, q.values);
  let n = 0;
  const walk = (node: Record<string, unknown>) => {
    const rel = node['Relation Name'];
    if (typeof rel === 'string' && rel.startsWith('state_history'))
      n += (node['Actual Rows'] as number) * (node['Actual Loops'] as number);
    for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
  };
  walk((r.rows[0]['QUERY PLAN'] as { Plan: Record<string, unknown> }[])[0]!.Plan);
  return n;
}

t.test('flat state rows of a PostgreSQL history', async (t) => {
  const { dbs, sql } = await oneDatabase(t, 'flat');

  const writer = await openPg(dbs, ONE_SHARD, 'writer');
  await writer.writeGenesis(
    0,
    [[], [0], [0, 0], [1]].map((tail) => ({ key: keyOf(tail), value: utf8(`genesis ${tail.length}`) })),
  );
  // Its parent is the genesis (the heights between skipped): the history holds the whole state.
  await writer.writeBlocks([dataBlock(10, [[[1, 0], 'new at 10']], 0)], true);
  t.equal(writer.stateFrom(), null);
  await writer.writeBlocks(
    [
      dataBlock(20, [[[0], null]]),
      dataBlock(30, [[[2], 'new at 30']]),
      dataBlock(40, [[[0], 'back at 40']]),
      dataBlock(50, [
        [[255], 'x'],
        [[255], 'y'],
      ]),
      dataBlock(60, [[[1, 0], null]]),
    ],
    false,
  );
  // A hot key written at every height from 100 to 2,099, over three partitions of 1,000 heights.
  for (let h = 100; h < 2100; h += 100) {
    const batch = [];
    for (let i = h; i < h + 100; i++) batch.push(dataBlock(i, [[[3], `hot ${i}`]]));
    await writer.writeBlocks(batch, false);
  }

  const heights = [0, 5, 10, 25, 35, 45, 50, 99, 100, 1234, 2099];
  const afters = [undefined, keyOf([]), keyOf([0]), keyOf([0, 0, 0]), keyOf([3]), utf8('\u0009')];
  const allAlike = async (what: string, reader = writer) => {
    let checked = 0;
    for (const h of heights)
      for (const after of afters)
        for (const limit of [undefined, 1, 2]) {
          const b = { ...(after ? { after } : {}), ...(limit ? { limit } : {}) };
          const want = await historyScan(sql, base, h, after, limit);
          const got = shown(await reader.scanAt(base, h, b));
          if (got.join() !== want.join()) t.same(got, want, `${what}: at ${h} ${JSON.stringify(b)}`);
          else checked++;
        }
    for (const h of heights)
      for (const tail of [[], [0], [0, 0], [1], [1, 0], [2], [3], [4], [255]]) {
        const want = (await historyScan(sql, keyOf(tail), h)).find((row) => row.startsWith(entry(tail, '')));
        const v = await reader.valueAt(keyOf(tail), h);
        const got = v ? entry(tail, Buffer.from(v).toString()) : undefined;
        if (got !== want) t.equal(got, want, `${what}: value of ${tail} at ${h}`);
        else checked++;
      }
    t.equal(checked, heights.length * 27, `${what}: every scan and lookup answers as the history rows do`);
  };
  await allAlike('writer');
  t.same(shown(await writer.scanAt(keyOf([3]), 1234)), [entry([3], 'hot 1234')]);
  t.same(shown(await writer.scanAt(keyOf([255]), 50)), [entry([255], 'y')]);

  // What a scan reads of the hot key's history: the one row its value at 200 is, against every row
  // of the key at or below the height for the history alone.
  t.equal(await historyRowsRead(sql, scanQuery(keyOf([3]), 200)), 1, 'a scan at 200 reads one history row');
  t.equal(await historyRowsRead(sql, scanQuery(keyOf([3]), 2099)), 0, 'a scan at the head reads none');
  const whole = await historyRowsRead(sql, {
    text: `SELECT DISTINCT ON (key) key, value FROM state_history WHERE key >= $1 AND key < $2
           AND block_height <= $3 ORDER BY key, block_height DESC`,
    values: [keyOf([3]), keyOf([4]), 2099],
  });
  t.ok(whole >= 2000, `the history alone reads ${whole} rows`);

  // A crash after the shard transactions of heights above 2,050: the next writer drops their rows,
  // and each flat row written above is the key's newest row below again.
  await writer.close();
  await sql.query(`UPDATE meta SET block_height = 2050 WHERE name = 'cursor'`);
  await sql.query('DELETE FROM blocks WHERE block_height > 2050');
  const again = await openPg(dbs, ONE_SHARD, 'writer');
  t.same(
    (await sql.query('SELECT block_height::int AS h FROM state_flat WHERE key = $1', [keyOf([3])])).rows,
    [{ h: 2050 }],
    'the hot key’s flat row is its row at the cursor',
  );
  t.equal(
    (await sql.query('SELECT count(*)::int AS n FROM state_flat WHERE block_height > 2050')).rows[0].n,
    0,
  );
  t.same(shown(await again.scanAt(keyOf([3]), 2099)), [entry([3], 'hot 2050')]);
  await again.writeBlocks([dataBlock(2051, [[[3], 'hot again']])], false);
  t.same(shown(await again.scanAt(keyOf([3]), 2051)), [entry([3], 'hot again')]);
  heights.splice(heights.indexOf(2099), 1, 2051);
  await allAlike('after the crash', again);

  // A database of the schema before the flat rows. A front end refuses to upgrade it, whether a
  // writer runs or not (an older writer would not keep the rows); a writer of this schema fills the
  // rows from the history.
  await sql.query('DROP TABLE state_flat');
  await sql.query('DROP TABLE shard_claims');
  await sql.query(`DELETE FROM meta WHERE name = 'history_id'`);
  await sql.query(`UPDATE schema_version SET version = 2 WHERE component = 'shard'`);
  const refused = { name: 'PgHistoryError', code: PgHistoryErrorCode.SchemaTooOld };
  await t.rejects(openPg(dbs, ONE_SHARD, 'reader'), refused, 'with a writer running');
  await again.close();
  await t.rejects(openPg(dbs, ONE_SHARD, 'reader'), refused, 'with none');
  t.equal(
    (await sql.query(`SELECT to_regclass('state_flat') IS NULL AS gone`)).rows[0].gone,
    true,
    'the refused front ends changed nothing',
  );
  const upgraded = await openPg(dbs, ONE_SHARD, 'writer');
  t.equal(
    (await sql.query(`SELECT version FROM schema_version WHERE component = 'shard'`)).rows[0].version,
    4,
  );
  const reader = await openPg(dbs, ONE_SHARD, 'reader');
  await allAlike('after the upgrade', reader);
  await reader.close();
  await upgraded.close();

  // GC to the head drops the partitions below 2,000 (their current values carried to 2,000), and the
  // flat row of a key deleted there ([1, 0], at 60) with them; reads at the head answer as before.
  const collector = await openPg(dbs, ONE_SHARD, 'writer', { gcGraceMs: 0 });
  const flatRow = async () =>
    (await sql.query('SELECT count(*)::int AS n FROM state_flat WHERE key = $1', [keyOf([1, 0])])).rows[0].n;
  t.equal(await flatRow(), 1, 'the deleted key has its flat row');
  await collector.collectGarbage({ keepBlocks: 0 });
  await collector.collectGarbage({ keepBlocks: 0 });
  t.equal(collector.firstHeight(), 2051);
  t.equal(await flatRow(), 0, 'and not once the partition holding its deletion is dropped');
  heights.length = 0;
  heights.push(2051);
  await allAlike('after GC', collector);
  await collector.close();
});

t.test('a PostgreSQL history that begins after the genesis answers only what it holds', async (t) => {
  const { dbs, sql } = await oneDatabase(t, 'late');
  const writer = await openPg(dbs, ONE_SHARD, 'writer');
  await writer.writeGenesis(
    0,
    [[0], [1]].map((tail) => ({ key: keyOf(tail), value: utf8('genesis') })),
  );
  // The first block is at 10 and its parent at 9: whatever the heights 1 to 9 changed is not here.
  await writer.writeBlocks([dataBlock(10, [[[0], 'new at 10']], 9)], true);
  await writer.writeBlocks([dataBlock(11, [[[2], null]])], false);
  const reader = await openPg(dbs, ONE_SHARD, 'reader');
  for (const [who, h] of [
    ['writer', writer],
    ['a front end', reader],
  ] as const) {
    t.equal(h.stateFrom(), 10, `${who}: the state is held from the first block`);
    t.same(await h.valueAt(keyOf([0]), 11), utf8('new at 10'), `${who}: a key written since`);
    t.equal(await h.valueAt(keyOf([2]), 11), null, `${who}: a key deleted since is absent`);
    const notHeld = { name: 'HandlerError', stateFrom: 10, height: 11 };
    await t.rejects(h.valueAt(keyOf([1]), 11), notHeld, `${who}: a genesis row is not the state at 11`);
    await t.rejects(h.valueAt(keyOf([3]), 11), notHeld, `${who}: nor is no row at all`);
    await t.rejects(h.scanAt(base, 11), notHeld, `${who}: a scan would miss keys`);
    await t.rejects(h.valueAt(keyOf([0]), 9), { ...notHeld, height: 9 }, `${who}: nor below the first block`);
  }
  await reader.close();
  await writer.close();

  // A history written before the mark was recorded gets it from its first block.
  await sql.query(`DELETE FROM meta WHERE name = 'state_from'`);
  const old = await openPg(dbs, ONE_SHARD, 'writer');
  t.equal(old.stateFrom(), null, 'without the mark it claims the whole state');
  t.equal(await old.markStateFrom(), 10, 'marked from its first block');
  t.equal(await old.markStateFrom(), null, 'once');
  await old.close();
  const front = await openPg(dbs, ONE_SHARD, 'reader');
  t.equal(front.stateFrom(), 10, 'a front end reads the mark');
  await front.close();
});

t.test('GC of a history that begins after the genesis carries no value from before it', async (t) => {
  const { dbs } = await oneDatabase(t, 'late_gc');
  // Partitions of 10 heights: GC to 35 drops those of 0–9, 10–19 and 20–29, carrying to 30 the
  // values still current there.
  const writer = await openPg(dbs, ONE_SHARD, 'writer', { partitionSize: 10, gcGraceMs: 0 });
  await writer.writeGenesis(
    0,
    [[0], [1]].map((tail) => ({ key: keyOf(tail), value: utf8('genesis') })),
  );
  await writer.writeBlocks([dataBlock(12, [[[2], 'at 12']], 11)], true);
  t.equal(writer.stateFrom(), 12);
  const blocks = [];
  // [4] is written at 14 and deleted at 20, [5] written at 14, deleted at 20 and written again at 40.
  const writes: Record<number, [number[], string | null][]> = {
    14: [
      [[4], 'at 14'],
      [[5], 'at 14'],
    ],
    20: [
      [[4], null],
      [[5], null],
    ],
    40: [
      [[0], 'at 40'],
      [[5], 'at 40'],
    ],
  };
  for (let h = 13; h <= 45; h++) blocks.push(dataBlock(h, writes[h] ?? []));
  await writer.writeBlocks(blocks, false);
  await writer.collectGarbage({ keepBlocks: 10, heightsPerStep: 100 });
  await writer.collectGarbage({ keepBlocks: 10, heightsPerStep: 100 });
  t.equal(writer.firstHeight(), 35, 'collected up to 35');
  const notHeld = { name: 'HandlerError', stateFrom: 12 };
  // [0]'s genesis value was current until 40: carried to 30, it would read as held at 35.
  await t.rejects(writer.valueAt(keyOf([0]), 35), notHeld, 'a genesis value is still not held');
  t.same(await writer.valueAt(keyOf([0]), 40), utf8('at 40'), 'its value written since is');
  await t.rejects(writer.valueAt(keyOf([1]), 45), notHeld);
  t.same(await writer.valueAt(keyOf([2]), 35), utf8('at 12'), 'a value written since, carried to 30');
  t.equal(await writer.valueAt(keyOf([4]), 35), null, 'a deletion since is absent, not unknown');
  t.equal(await writer.valueAt(keyOf([5]), 35), null, 'and so below a later write');
  t.same(await writer.valueAt(keyOf([5]), 45), utf8('at 40'));
  await writer.close();
});
