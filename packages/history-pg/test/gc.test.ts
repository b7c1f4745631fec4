// GC of a PostgreSQL history: a follower that is not archival keeps the blocks at and above its
// tail and answers like a GC'd LevelDB follower (UNKNOWN_BLOCK, GARBAGE_COLLECTED_BLOCK, UNKNOWN_*
// for what the collected blocks held, the state as of kept heights unchanged) from the writer, from
// readers and after restarts; state history partitions below the tail are dropped whole. An
// archival history keeps everything.
import { join } from 'node:path';
import { HistoryStore, ingestBlock, loadGenesisHistory } from '@nearlite/follower';
import type { PgHistory } from '@nearlite/history-pg';
import { stringifyJson } from '@nearlite/primitives';
import { Store } from '@nearlite/store';
import type { StreamerMessage } from '@nearlite/stream';
import pg from 'pg';
import t, { type Test } from 'tap';
import { startPostgres, type TestPostgres } from '../../../test/helpers/postgres.js';
import { loadFixture } from '../../../test/helpers/stream_fixtures.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { type Answer, backendOver, call, layoutOf, mainnetGenesis, openPg, pgDatabases } from './helpers.js';
import { readRequests } from './requests.js';

const STORAGE = { numBytesAccount: 100n, numExtraBytesRecord: 40n };
const BLOCK_TABLES = ['chunks', 'transactions', 'outcomes', 'receipts', 'block_state_changes'];

let server: TestPostgres;
t.before(async () => {
  server = await startPostgres();
});
t.teardown(() => server.stop());

const messages = (): StreamerMessage[] =>
  ['mainnet-107503704', 'mainnet-107503705'].map((n) => loadFixture(n).message);

async function levelHistory(dir: string, gc: boolean): Promise<{ history: HistoryStore; store: Store }> {
  const store = await Store.open(join(dir, 'data'));
  const history = new HistoryStore(store, { gcGraceMs: 0 });
  await loadGenesisHistory(history, mainnetGenesis(), STORAGE);
  for (const m of messages()) await ingestBlock(history, m);
  if (gc) await history.collectGarbage({ keepBlocks: 0 });
  return { history, store };
}

async function sql<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(text, values)).rows;
  } finally {
    await c.end();
  }
}

/** Rows of blocks below `height` left in the shard databases. */
async function rowsBelow(urls: Iterable<string>, height: number): Promise<number> {
  let n = 0;
  for (const url of new Set(urls))
    for (const table of BLOCK_TABLES)
      n += (
        await sql<{ n: number }>(url, `SELECT count(*)::int AS n FROM ${table} WHERE block_height < $1`, [
          height,
        ])
      )[0]!.n;
  return n;
}

/** State history partitions in the shard databases. */
async function partitions(urls: Iterable<string>): Promise<number> {
  let n = 0;
  for (const url of new Set(urls))
    n += (
      await sql<{ n: number }>(
        url,
        `SELECT count(*)::int AS n FROM pg_inherits i JOIN pg_class p ON p.oid = i.inhparent
         WHERE p.relname = 'state_history'`,
      )
    )[0]!.n;
  return n;
}

/** Every read request answered by `history` as by `want`; returns the answers compared. */
async function answersAlike(
  t: Test,
  what: string,
  want: Map<string, Answer>,
  history: PgHistory,
): Promise<void> {
  const backend = backendOver(history);
  let alike = 0;
  for (const [key, answer] of want) {
    const { method, params } = JSON.parse(key) as { method: string; params: unknown };
    const got = await call(backend, method, params);
    if (got.body !== answer.body || got.status !== answer.status)
      t.equal(got.body, answer.body, `${what}: ${key}`);
    else alike++;
  }
  t.equal(alike, want.size, `${what}: ${want.size} requests answered alike`);
}

async function answersOf(history: HistoryStore): Promise<Map<string, Answer>> {
  const backend = backendOver(history);
  const out = new Map<string, Answer>();
  for (const r of readRequests(messages()))
    out.set(JSON.stringify(r), await call(backend, r.method, r.params));
  return out;
}

for (const partitionSize of [1000, 1]) {
  t.test(
    `a GC follower on PostgreSQL answers like one on LevelDB (partitions of ${partitionSize})`,
    async (t) => {
      const [a, b] = messages() as [StreamerMessage, StreamerMessage];
      const level = await levelHistory(tempDir(t), true);
      t.teardown(() => level.store.close());
      t.equal(level.history.firstHeight(), b.block.header.height, 'LevelDB: the tail is the kept block');
      const want = await answersOf(level.history);
      const bodies = [...want.values()].map((x) => x.body).join('\n');
      t.match(
        bodies,
        /GARBAGE_COLLECTED_BLOCK/,
        'queries of the collected height answer GARBAGE_COLLECTED_BLOCK',
      );
      t.match(bodies, /UNKNOWN_BLOCK/);

      const layout = layoutOf(a);
      const dbs = await pgDatabases(server, layout);
      const writer = await openPg(dbs, layout, 'writer', { partitionSize, gcGraceMs: 0 });
      await loadGenesisHistory(writer, mainnetGenesis(), STORAGE);
      for (const m of [a, b]) await ingestBlock(writer, m);
      const reader = await openPg(dbs, layout, 'reader');
      t.teardown(() => reader.close());
      const partitionsBefore = await partitions(dbs.shardUrls.values());
      t.equal(
        await writer.collectGarbage({ keepBlocks: 1 }),
        0,
        'nothing to collect while within keepBlocks',
      );
      t.equal(await writer.collectGarbage({ keepBlocks: 0 }), 1, 'one block collected');
      t.equal(writer.firstHeight(), b.block.header.height, 'the tail moved to the kept block');
      t.equal(
        await rowsBelow(dbs.shardUrls.values(), b.block.header.height),
        0,
        'no row of the collected block is left',
      );
      const blocks = await sql<{ h: string }>(dbs.metaUrl, 'SELECT block_height AS h FROM blocks');
      t.same(
        blocks.map((r) => Number(r.h)).sort((x, y) => x - y),
        [a.block.header.height, b.block.header.height],
        "the meta database keeps the collected block's header too",
      );
      const collected = await sql<{ json: string }>(
        dbs.metaUrl,
        `SELECT json FROM blocks WHERE block_height = ${a.block.header.height}`,
      );
      t.equal(
        collected[0]?.json,
        `{"header":${stringifyJson(a.block.header)}}`,
        'its header alone, exactly as the stream wrote it',
      );
      const partitionsAfter = await partitions(dbs.shardUrls.values());
      t.ok(partitionsAfter < partitionsBefore, 'state history partitions below the tail are dropped');

      await reader.refresh();
      await answersAlike(t, 'writer', want, writer);
      await answersAlike(t, 'reader', want, reader);

      await writer.close();
      const again = await openPg(dbs, layout, 'writer', { partitionSize, gcGraceMs: 0 });
      t.teardown(() => again.close());
      t.equal(again.firstHeight(), b.block.header.height, 'the tail survives a restart');
      t.equal(await again.collectGarbage({ keepBlocks: 0 }), 0, 'nothing more to collect');
      await answersAlike(t, 'writer after a restart', want, again);
      const fresh = await openPg(dbs, layout, 'reader');
      t.teardown(() => fresh.close());
      await answersAlike(t, 'a reader started after GC', want, fresh);
    },
  );
}

t.test('an archival PostgreSQL history keeps every block, as an archival LevelDB one', async (t) => {
  const [a, b] = messages() as [StreamerMessage, StreamerMessage];
  const level = await levelHistory(tempDir(t), false);
  t.teardown(() => level.store.close());
  const want = await answersOf(level.history);
  const layout = layoutOf(a);
  const dbs = await pgDatabases(server, layout);
  const writer = await openPg(dbs, layout, 'writer', { gcGraceMs: 0 });
  t.teardown(() => writer.close());
  await loadGenesisHistory(writer, mainnetGenesis(), STORAGE);
  for (const m of [a, b]) await ingestBlock(writer, m);
  await answersAlike(t, 'archival', want, writer);
  t.equal(writer.firstHeight(), a.block.header.height, 'the tail stays at the first followed block');
  const first = JSON.parse(
    (await call(backendOver(writer), 'block', { block_id: a.block.header.height })).body,
  );
  t.equal(first.result?.header.height, a.block.header.height, 'the first block is still served');
});

t.test('readers never see a half-collected height; a restarted writer finishes the GC', async (t) => {
  const [a, b] = messages() as [StreamerMessage, StreamerMessage];
  const layout = layoutOf(a);
  const dbs = await pgDatabases(server, layout);
  const writer = await openPg(dbs, layout, 'writer', { gcGraceMs: 3_600_000 });
  await loadGenesisHistory(writer, mainnetGenesis(), STORAGE);
  for (const m of [a, b]) await ingestBlock(writer, m);
  const reader = await openPg(dbs, layout, 'reader');
  t.teardown(() => reader.close());
  const backend = backendOver(reader);
  const before = await call(backend, 'block', { block_id: a.block.header.height });
  t.notMatch(before.body, /error/, 'the block is served before GC');

  t.equal(await writer.collectGarbage({ keepBlocks: 0 }), 1);
  const tail = b.block.header.height;
  t.ok(
    (await rowsBelow(dbs.shardUrls.values(), tail)) > 0,
    'rows below the new tail wait for readers to learn it',
  );
  await reader.refresh();
  t.equal(reader.firstHeight(), tail, 'the reader reads the tail like the cursor');
  const block = JSON.parse((await call(backend, 'block', { block_id: a.block.header.height })).body);
  t.equal(block.error?.cause.name, 'UNKNOWN_BLOCK', 'below the tail, rows still stored are not served');
  const tx = a.shards.flatMap((s) => s.chunk?.transactions ?? [])[0]!.transaction;
  const status = JSON.parse(
    (await call(backend, 'tx', { tx_hash: tx.hash, sender_account_id: tx.signer_id, wait_until: 'NONE' }))
      .body,
  );
  t.equal(status.error?.cause.name, 'UNKNOWN_TRANSACTION');
  const query = JSON.parse(
    (
      await call(backend, 'query', {
        request_type: 'view_account',
        account_id: 'near',
        block_id: a.block.header.height,
      })
    ).body,
  );
  t.equal(query.error?.cause.name, 'GARBAGE_COLLECTED_BLOCK');
  // The height index outlives the block, as nearcore's: the answer names the collected block.
  t.same(query.error?.cause.info, {
    block_height: a.block.header.height,
    block_hash: a.block.header.hash,
  });

  // Stopped before the grace ran out; the next writer deletes what the moved tail left.
  await writer.close();
  const again = await openPg(dbs, layout, 'writer', { gcGraceMs: 0 });
  t.teardown(() => again.close());
  t.equal(await again.collectGarbage({ keepBlocks: 0 }), 0, 'no block left to collect');
  t.equal(await rowsBelow(dbs.shardUrls.values(), tail), 0, 'the rows below the tail are gone');
  const kept = JSON.parse((await call(backend, 'block', { block_id: tail })).body);
  t.equal(kept.result?.header.height, tail, 'the kept block is served');
});

t.test('the rows below a published tail go at the first GC step after the grace', async (t) => {
  const [a, b] = messages() as [StreamerMessage, StreamerMessage];
  const layout = layoutOf(a);
  const dbs = await pgDatabases(server, layout);
  const writer = await openPg(dbs, layout, 'writer', { gcGraceMs: 200 });
  t.teardown(() => writer.close());
  await loadGenesisHistory(writer, mainnetGenesis(), STORAGE);
  for (const m of [a, b]) await ingestBlock(writer, m);
  const tail = b.block.header.height;
  t.equal(await writer.collectGarbage({ keepBlocks: 0 }), 1);
  t.ok((await rowsBelow(dbs.shardUrls.values(), tail)) > 0, 'kept while readers may not know the tail');
  await new Promise((r) => setTimeout(r, 300));
  t.equal(await writer.collectGarbage({ keepBlocks: 0 }), 0, 'the tail does not move again');
  t.equal(await rowsBelow(dbs.shardUrls.values(), tail), 0, 'deleted once the grace has passed');
});

t.test('the tail names a block, past a height the chain skipped', async (t) => {
  // 70834060 has no block: 70834061's parent is 70834059.
  const [a, b] = ['mainnet-70834059', 'mainnet-70834061'].map((n) => loadFixture(n).message) as [
    StreamerMessage,
    StreamerMessage,
  ];
  const layout = layoutOf(a);
  const dbs = await pgDatabases(server, layout);
  const writer = await openPg(dbs, layout, 'writer', { gcGraceMs: 0 });
  t.teardown(() => writer.close());
  for (const m of [a, b]) await ingestBlock(writer, m);
  // One height a step would leave the tail on the skipped height.
  t.equal(await writer.collectGarbage({ keepBlocks: 0, heightsPerStep: 1 }), 1, 'one block collected');
  t.equal(writer.firstHeight(), b.block.header.height, 'the tail names the next block');
  const earliest = JSON.parse(
    (await call(backendOver(writer), 'block', { sync_checkpoint: 'earliest_available' })).body,
  );
  t.equal(earliest.result?.header.height, b.block.header.height, 'earliest_available is that block');
});
