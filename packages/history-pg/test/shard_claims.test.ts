// A shard database holds the rows of the shards it was written for, and only those are read from
// it: a database given for another shard (two URLs swapped, an empty replacement, another history's)
// is refused by writer and readers alike, where it would have answered as a shard without rows.
import { ingestBlock, loadGenesisHistory } from '@nearlite/follower';
import { PgHistoryErrorCode } from '@nearlite/history-pg';
import pg from 'pg';
import t from 'tap';
import { startPostgres } from '../../../test/helpers/postgres.js';
import { loadFixture } from '../../../test/helpers/stream_fixtures.js';
import { layoutOf, mainnetGenesis, openPg, pgDatabases } from './helpers.js';

const STORAGE = { numBytesAccount: 100n, numExtraBytesRecord: 40n };

t.test('each shard database must be the one its shard was written to', async (t) => {
  const server = await startPostgres();
  t.teardown(() => server.stop());
  const block = loadFixture('mainnet-107503704').message;
  const layout = layoutOf(block);
  t.ok(layout.shardIds.length >= 2, 'the block has several shards');
  const dbs = await pgDatabases(server, layout);
  const [a, b] = [...new Set(dbs.shardUrls.values())] as [string, string];

  // A reader started before the writer has nothing to check its databases against yet; it is given
  // them swapped.
  const swapped = new Map([...dbs.shardUrls].map(([id, url]) => [id, url === a ? b : a]));
  const early = await openPg({ metaUrl: dbs.metaUrl, shardUrls: swapped }, layout, 'reader');

  const writer = await openPg(dbs, layout, 'writer');
  await loadGenesisHistory(writer, mainnetGenesis(), STORAGE);
  await ingestBlock(writer, block);
  await writer.close();
  const height = block.block.header.height;

  await t.rejects(early.refresh(), { code: PgHistoryErrorCode.ShardMismatch });
  t.equal(early.cursor(), null, 'the early reader, given swapped databases, holds no cursor');
  t.equal(early.genesisHeight(), null, 'nor the genesis');

  const rows = async (url: string): Promise<number> => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    const r = await c.query(
      'SELECT (SELECT count(*) FROM chunks) + (SELECT count(*) FROM state_history) AS n',
    );
    await c.end();
    return Number(r.rows[0].n);
  };
  const before = [await rows(a), await rows(b)];
  t.ok(before[0]! > 0 && before[1]! > 0, 'both shard databases hold rows');

  for (const role of ['writer', 'reader'] as const) {
    await t.rejects(
      openPg({ metaUrl: dbs.metaUrl, shardUrls: swapped }, layout, role),
      {
        code: PgHistoryErrorCode.ShardMismatch,
        message: new RegExp(`given for shard ${layout.shardIds[0]}, holds shard ${layout.shardIds[1]}`),
      },
      `a ${role} given the two databases swapped is refused`,
    );
    const empty = await server.createDatabase(`empty_${role}`);
    const replaced = new Map([...dbs.shardUrls].map(([id, url]) => [id, url === b ? empty : url]));
    await t.rejects(
      openPg({ metaUrl: dbs.metaUrl, shardUrls: replaced }, layout, role),
      { code: PgHistoryErrorCode.ShardMismatch, message: /holds no shard of the history/ },
      `a ${role} given an empty database in place of one shard database is refused`,
    );
    const extra = new Map([...dbs.shardUrls, [99, a]]);
    await t.rejects(
      openPg({ metaUrl: dbs.metaUrl, shardUrls: extra }, layout, role),
      { code: PgHistoryErrorCode.BadConfig, message: /the chain has no shard 99/ },
      `a ${role} given a database for a shard the chain does not have is refused`,
    );
  }
  t.same([await rows(a), await rows(b)], before, 'no row of the history is deleted');

  // Another history's shard database, under this history's meta database.
  const other = await pgDatabases(server, layout);
  const otherWriter = await openPg(other, layout, 'writer');
  await loadGenesisHistory(otherWriter, mainnetGenesis(), STORAGE);
  await otherWriter.close();
  const otherB = [...new Set(other.shardUrls.values())][1]!;
  const mixed = new Map([...dbs.shardUrls].map(([id, url]) => [id, url === b ? otherB : url]));
  for (const role of ['writer', 'reader'] as const)
    await t.rejects(
      openPg({ metaUrl: dbs.metaUrl, shardUrls: mixed }, layout, role),
      { code: PgHistoryErrorCode.ForeignHistory },
      `a ${role} given another history's shard database is refused`,
    );

  await t.rejects(early.refresh(), { code: PgHistoryErrorCode.ShardMismatch });
  t.equal(early.cursor(), null, 'the early reader still holds no cursor');
  await early.close();

  // A history written before shards were claimed takes the databases it is given, once, and from
  // then on only those.
  for (const url of [a, b]) {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query('DELETE FROM shard_claims');
    await c.end();
  }
  const meta = new pg.Client({ connectionString: dbs.metaUrl });
  await meta.connect();
  await meta.query(`DELETE FROM meta WHERE name = 'history_id'`);
  await meta.end();
  const legacyReader = await openPg({ metaUrl: dbs.metaUrl, shardUrls: swapped }, layout, 'reader');
  t.equal(legacyReader.cursor()?.height, height, 'with nothing recorded, a reader cannot tell');
  await legacyReader.close();
  const adopting = await openPg(dbs, layout, 'writer');
  t.equal(adopting.cursor()?.height, height, 'the writer takes the history and claims its databases');
  await adopting.close();
  await t.rejects(openPg({ metaUrl: dbs.metaUrl, shardUrls: swapped }, layout, 'reader'), {
    code: PgHistoryErrorCode.ShardMismatch,
  });
  const reader = await openPg(dbs, layout, 'reader');
  t.equal(reader.cursor()?.height, height, 'a reader given the right databases reads the history');
  await reader.close();
});
