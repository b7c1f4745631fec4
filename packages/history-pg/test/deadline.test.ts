// A front end whose databases stop answering answers every request with an error once its read
// deadline passes, instead of holding it (and every request queued behind it) until they come back;
// once they do, it answers as before.
import { ingestBlock, loadGenesisHistory } from '@nearlite/follower';
import t from 'tap';
import { startPostgres } from '../../../test/helpers/postgres.js';
import { stallProxy } from '../../../test/helpers/stall_proxy.js';
import { loadFixture } from '../../../test/helpers/stream_fixtures.js';
import { backendOver, call, layoutOf, mainnetGenesis, openPg, pgDatabases } from './helpers.js';

const STORAGE = { numBytesAccount: 100n, numExtraBytesRecord: 40n };

t.test('a stalled database fails requests at the deadline, and serves again when back', async (t) => {
  const server = await startPostgres();
  t.teardown(() => server.stop());
  const message = loadFixture('mainnet-107503704').message;
  const layout = layoutOf(message);
  const dbs = await pgDatabases(server, layout);
  const writer = await openPg(dbs, layout, 'writer');
  await loadGenesisHistory(writer, mainnetGenesis(), STORAGE);
  await ingestBlock(writer, message);
  await writer.close();

  const proxy = await stallProxy(server.port);
  t.teardown(() => proxy.close());
  const via = (url: string) => url.replace(`:${server.port}/`, `:${proxy.port}/`);
  const reader = await openPg(
    { metaUrl: via(dbs.metaUrl), shardUrls: new Map([...dbs.shardUrls].map(([id, url]) => [id, via(url)])) },
    layout,
    'reader',
    { readDeadlineMs: 300, poolSize: 2 },
  );
  t.teardown(() => reader.close());
  const backend = backendOver(reader);
  const height = message.block.header.height;
  const requests: [string, unknown][] = [
    ['block', { block_id: height }],
    ['chunk', { block_id: height, shard_id: layout.shardIds[1] }],
    ['EXPERIMENTAL_changes_in_block', { block_id: height }],
  ];
  const served = await Promise.all(requests.map(([m, p]) => call(backend, m, p)));
  for (const [i, a] of served.entries())
    t.match(JSON.parse(a.body), { result: {} }, `${requests[i]![0]} answers`);

  proxy.stall();
  // More requests than the pool has connections: those waiting for one fail at the deadline too.
  // Without a deadline they would wait for as long as the stall; a hundred times the deadline stands
  // for that here, so the test fails rather than hangs.
  const noAnswer = new Promise<string>((resolve) => setTimeout(() => resolve('no answer'), 30_000).unref());
  const stalled = await Promise.all(
    Array.from({ length: 4 }, () =>
      requests.map(([m, p]) => Promise.race([call(backend, m, p).then((a) => a.body), noAnswer])),
    ).flat(),
  );
  for (const body of stalled) {
    t.match(
      body === 'no answer' ? body : JSON.parse(body),
      {
        error: {
          name: 'INTERNAL_ERROR',
          cause: {
            name: 'INTERNAL_ERROR',
            info: { error_message: /database .* did not answer within 0\.3 s/ },
          },
        },
      },
      'a request to a stalled database fails with the deadline named',
    );
  }

  proxy.resume();
  const again = await Promise.all(requests.map(([m, p]) => call(backend, m, p)));
  t.same(
    again.map((a) => a.body),
    served.map((a) => a.body),
    'the databases back, every request answers as before the stall',
  );
});
