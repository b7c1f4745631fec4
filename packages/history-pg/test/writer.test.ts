// The writer's guarantees: one writer at a time; rows a crash left above the cursor are invisible
// to readers (they answer as a history without that block) and are deleted by the next writer,
// which then writes the block again; state history lands in height-range partitions.
import { join } from 'node:path';
import { HistoryStore, ingestBlock, loadGenesisHistory } from '@nearlite/follower';
import { PgHistoryErrorCode } from '@nearlite/history-pg';
import { base58Decode } from '@nearlite/primitives';
import { Store } from '@nearlite/store';
import pg from 'pg';
import t from 'tap';
import { startPostgres } from '../../../test/helpers/postgres.js';
import { loadFixture } from '../../../test/helpers/stream_fixtures.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { backendOver, call, layoutOf, mainnetGenesis, openPg, pgDatabases } from './helpers.js';
import { readRequests } from './requests.js';

const STORAGE = { numBytesAccount: 100n, numExtraBytesRecord: 40n };

t.test('one writer; a crash above the cursor is invisible and cleaned up', async (t) => {
  const server = await startPostgres();
  t.teardown(() => server.stop());
  const a = loadFixture('mainnet-107503704').message;
  const b = loadFixture('mainnet-107503705').message;
  const genesis = mainnetGenesis();
  const layout = layoutOf(a);
  const dbs = await pgDatabases(server, layout);

  // The LevelDB history holding only `a`: what readers must answer while `b` is not whole.
  const store = await Store.open(join(tempDir(t), 'data'));
  t.teardown(() => store.close());
  const level = new HistoryStore(store);
  await loadGenesisHistory(level, genesis, STORAGE);
  await ingestBlock(level, a);

  const writer = await openPg(dbs, layout, 'writer');
  await t.rejects(openPg(dbs, layout, 'writer'), {
    name: 'PgHistoryError',
    code: PgHistoryErrorCode.NotWriter,
  });
  await loadGenesisHistory(writer, genesis, STORAGE);
  await ingestBlock(writer, a);
  await ingestBlock(writer, b);
  await writer.close();

  // A crash after the shard transactions of `b` and before its meta transaction.
  const meta = new pg.Client({ connectionString: dbs.metaUrl });
  await meta.connect();
  t.teardown(() => meta.end());
  await meta.query(`UPDATE meta SET block_height = $1, block_hash = $2 WHERE name = 'cursor'`, [
    a.block.header.height,
    base58Decode(a.block.header.hash),
  ]);
  await meta.query('DELETE FROM blocks WHERE block_height = $1', [b.block.header.height]);

  const shardDbs = [...new Set(dbs.shardUrls.values())];
  const rowsAbove = async (): Promise<number> => {
    let n = 0;
    for (const url of shardDbs) {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      for (const table of [
        'chunks',
        'transactions',
        'outcomes',
        'receipts',
        'block_state_changes',
        'state_history',
      ]) {
        const r = await c.query(`SELECT count(*)::int AS n FROM ${table} WHERE block_height > $1`, [
          a.block.header.height,
        ]);
        n += r.rows[0].n as number;
      }
      await c.end();
    }
    return n;
  };
  t.ok((await rowsAbove()) > 0, 'the shard databases hold rows of the half-written block');

  const reader = await openPg(dbs, layout, 'reader');
  t.teardown(() => reader.close());
  const fromLevel = backendOver(level);
  const fromReader = backendOver(reader);
  let alike = 0;
  const requests = readRequests([a, b], 6);
  for (const r of requests) {
    const want = await call(fromLevel, r.method, r.params);
    const got = await call(fromReader, r.method, r.params);
    if (got.body === want.body) alike++;
    else t.equal(got.body, want.body, `${r.method} ${JSON.stringify(r.params)}`);
  }
  t.equal(
    alike,
    requests.length,
    `a reader answers ${requests.length} requests as a history without the block`,
  );

  // The next writer deletes what the crash left, and writes the block again.
  const again = await openPg(dbs, layout, 'writer');
  t.teardown(() => again.close());
  t.equal(await rowsAbove(), 0, 'rows above the cursor are deleted when a writer starts');
  t.equal(again.cursor()?.height, a.block.header.height, 'it resumes after the cursor');
  await ingestBlock(again, b);
  await ingestBlock(level, b);
  await reader.refresh();
  t.equal(reader.cursor()?.height, b.block.header.height, 'the reader sees the new cursor');
  alike = 0;
  for (const r of requests) {
    const want = await call(fromLevel, r.method, r.params);
    const got = await call(fromReader, r.method, r.params);
    if (got.body === want.body) alike++;
    else t.equal(got.body, want.body, `${r.method} ${JSON.stringify(r.params)}`);
  }
  t.equal(alike, requests.length, 'after the rewrite, answers equal the LevelDB history with both blocks');

  const c = new pg.Client({ connectionString: shardDbs[0]! });
  await c.connect();
  t.teardown(() => c.end());
  const parts = await c.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = 'state_history' ORDER BY 1`,
  );
  t.same(
    parts.rows.map((r) => r.name),
    ['state_history_107503000', 'state_history_9820000'],
    'one partition per 1000-height range written: genesis and the followed blocks',
  );
  const inPart = await c.query(`SELECT count(*)::int AS n FROM state_history_107503000`);
  t.ok(inPart.rows[0].n > 0, 'the blocks’ state rows are in their partition');

  // A writer given a new meta database and this history's shard databases would clear everything
  // above its cursor, which it has not: it is refused, and the rows stay.
  await again.close();
  const chunks = async () => (await c.query(`SELECT count(*)::int AS n FROM chunks`)).rows[0].n as number;
  const before = await chunks();
  t.ok(before > 0, 'the shard database holds chunks');
  const otherMeta = await server.createDatabase('meta_other');
  await t.rejects(openPg({ metaUrl: otherMeta, shardUrls: dbs.shardUrls }, layout, 'writer'), {
    name: 'PgHistoryError',
    code: PgHistoryErrorCode.ForeignHistory,
  });
  t.equal(await chunks(), before, 'no row of the history is deleted');
  const resumed = await openPg(dbs, layout, 'writer');
  t.equal(resumed.cursor()?.height, b.block.header.height, 'its own meta database still takes it');
  await resumed.close();

  // A collecting history taken by an archival writer stays a collecting one, as nearcore opens an RPC
  // store with `archive` set: that writer collects nothing, and a later one without it collects again.
  const taken = await openPg(dbs, layout, 'writer', { archive: true });
  t.equal(await taken.archival(), false, 'an archival writer leaves a collecting history one');
  await taken.close();
  const collecting = await openPg(dbs, layout, 'writer');
  t.equal(await collecting.archival(), false, 'and a collecting writer takes it again');
  await collecting.close();
  // Converted, it is archival and stays so, as nearcore's store opener refuses an archive to a node
  // that is not one (DbKindMismatch): a writer that would collect its blocks is refused.
  const converted = await openPg(dbs, layout, 'writer', { archive: true, convertDbKind: true });
  t.equal(await converted.archival(), true, '--convert-db-kind makes it archival');
  await converted.close();
  await t.rejects(openPg(dbs, layout, 'writer'), {
    name: 'PgHistoryError',
    code: PgHistoryErrorCode.KindMismatch,
    message: /pass --convert-db-kind/,
  });
  const stillArchival = await openPg(dbs, layout, 'writer', { archive: true });
  t.equal(stillArchival.cursor()?.height, b.block.header.height, 'an archival writer still takes it');
  t.equal(await stillArchival.archival(), true);
  await stillArchival.close();
  const back = await openPg(dbs, layout, 'writer', { convertDbKind: true });
  t.teardown(() => back.close());
  t.equal(await back.archival(), false, 'and converts it back to a collecting history');
});
