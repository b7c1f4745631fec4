// The same real blocks followed once into LevelDB and once into PostgreSQL (a meta database and two
// shard databases): every read method answers byte for byte alike, from a writer's history and
// from a separate reader's.
import { join } from 'node:path';
import { HistoryStore, ingestBlock, ingestBlocks, loadGenesisHistory } from '@nearlite/follower';
import { Store } from '@nearlite/store';
import t from 'tap';
import { startPostgres } from '../../../test/helpers/postgres.js';
import { loadFixture } from '../../../test/helpers/stream_fixtures.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { backendOver, call, layoutOf, mainnetGenesis, openPg, pgDatabases } from './helpers.js';
import { readRequests } from './requests.js';

const STORAGE = { numBytesAccount: 100n, numExtraBytesRecord: 40n };
const GROUPS = [
  ['mainnet-107503704', 'mainnet-107503705'],
  ['mainnet-115185108', 'mainnet-115185109'],
];

t.test('LevelDB and PostgreSQL histories answer every read method alike', async (t) => {
  const pg = await startPostgres();
  t.teardown(() => pg.stop());
  for (const group of GROUPS) {
    await t.test(group.join(' + '), async (t) => {
      const messages = group.map((name) => loadFixture(name).message);
      const genesis = mainnetGenesis();

      const store = await Store.open(join(tempDir(t), 'data'));
      t.teardown(() => store.close());
      const level = new HistoryStore(store);
      await loadGenesisHistory(level, genesis, STORAGE);
      for (const m of messages) await ingestBlock(level, m);

      const layout = layoutOf(messages[0]!);
      const dbs = await pgDatabases(pg, layout);
      const writer = await openPg(dbs, layout, 'writer');
      t.teardown(() => writer.close());
      await loadGenesisHistory(writer, genesis, STORAGE);
      // The catch-up path: every block of the group in one write.
      await ingestBlocks(writer, messages);
      t.equal(writer.cursor()?.height, messages.at(-1)!.block.header.height, 'the cursor is the last block');

      const reader = await openPg(dbs, layout, 'reader');
      t.teardown(() => reader.close());
      t.same(reader.cursor(), writer.cursor(), 'a reader sees the cursor');

      const fromLevel = backendOver(level);
      const fromWriter = backendOver(writer);
      const fromReader = backendOver(reader);
      const requests = readRequests(messages);
      let ok = 0;
      let answered = 0;
      for (const r of requests) {
        const want = await call(fromLevel, r.method, r.params);
        const got = await call(fromWriter, r.method, r.params);
        const again = await call(fromReader, r.method, r.params);
        const what = `${r.method} ${JSON.stringify(r.params)}`;
        if (got.body !== want.body || got.status !== want.status)
          t.equal(got.body, want.body, `writer: ${what}`);
        else if (again.body !== want.body) t.equal(again.body, want.body, `reader: ${what}`);
        else ok++;
        if (!want.body.includes('"error"')) answered++;
      }
      t.equal(ok, requests.length, `${requests.length} requests answered alike`);
      t.ok(answered > requests.length / 2, `most of them with a result (${answered})`);
    });
  }
});
