// A source that collects its oldest blocks (a non-archival node's neardata routes) may drop the
// height a follower is about to fetch. Before anything is written that is no gap: the follower
// starts at the source's first block instead. After a block is written it would be one: the
// follower waits at the height and says why, and never writes past it.
import { FollowLoop, HistoryStore, PreparePool } from '@nearlite/follower';
import { Store } from '@nearlite/store';
import { openSource } from '@nearlite/stream';
import t from 'tap';
import { serveNeardata } from '../../../test/helpers/neardata_server.js';
import { syntheticChain } from '../../../test/helpers/synthetic_chain.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { logs, until } from './helpers.js';

const chain = syntheticChain(30);
const height = (i: number) => chain[i]!.block.header.height;

/** A loop from `startHeight` over the server at `url`, on the loop's thread or on preparing threads. */
async function follow(t: Tap.Test, url: string, startHeight: number, threads: boolean) {
  const source = openSource(url);
  const store = await Store.open(tempDir(t));
  const history = new HistoryStore(store);
  const pool = threads ? new PreparePool(source.reopen!, 2) : null;
  const log = logs();
  const loop = new FollowLoop({
    history,
    source,
    startHeight,
    log,
    pollMs: 10,
    retryInitialMs: 5,
    retryMaxMs: 20,
    batchSize: 4,
    ...(pool ? { prepared: { pool, writer: history } } : {}),
  });
  t.teardown(async () => {
    await loop.stop();
    await pool?.close();
    await source.close();
    await store.close();
  });
  loop.start();
  return { history, log };
}

for (const threads of [false, true]) {
  const path = threads ? 'on preparing threads' : "on the loop's thread";

  t.test(`nothing written yet, a collected start moves to the source's first block (${path})`, async (t) => {
    const server = await serveNeardata(chain);
    t.teardown(() => server.close());
    // The follower read the first block, then the source collected past it.
    server.collectBelow(height(8));
    const { history, log } = await follow(t, server.url, height(0), threads);
    await until(() => history.cursor()?.height === height(29), 'the last block');
    t.equal(await history.blockAt(height(7)), undefined, 'nothing below the first block the source keeps');
    t.ok(await history.blockAt(height(8)), 'the history begins at it');
    t.ok(
      log.lines.includes(`INFO ${server.url} no longer keeps block ${height(0)}: starting at #${height(8)}`),
      'and says so',
    );
    t.same(
      log.lines.filter((l) => !l.startsWith('INFO')),
      [],
      `no failure is reported\n${log.lines.join('\n')}`,
    );
  });

  t.test(
    `after a written block, a collected height is waited at, never stepped over (${path})`,
    async (t) => {
      const server = await serveNeardata(chain);
      t.teardown(() => server.close());
      server.setHead(height(9));
      const { history, log } = await follow(t, server.url, height(0), threads);
      await until(() => history.cursor()?.height === height(9), 'the first ten blocks');
      // The follower fell behind a source that collects: the next height is gone.
      server.collectBelow(height(15));
      server.setHead(height(29));
      const errors = () => log.lines.filter((l) => l.startsWith('ERROR'));
      const at10 = () => errors().filter((l) => l.startsWith(`ERROR fetching block ${height(10)} `));
      await until(() => at10().length >= 3, 'the failures reported');
      t.match(
        at10()[0],
        new RegExp(
          `^ERROR fetching block ${height(10)} from ${server.url} failed .*BLOCK_HEIGHT_TOO_LOW.*` +
            'no longer keeps this block, and following on from a later one would leave a gap in the ' +
            'history: follow an archival source$',
        ),
      );
      t.same(
        errors().filter((l) => !l.startsWith(`ERROR fetching block ${height(10)} `)),
        [],
        'said of the height waited at alone, not of each height above it in the window',
      );
      t.equal(history.cursor()?.height, height(9), 'the cursor waits before the gap');
      t.equal(await history.blockAt(height(15)), undefined, 'nothing past it is written');
      server.restore();
      await until(() => history.cursor()?.height === height(29), 'the rest once the source has it again');
      for (let i = 10; i < 30; i++) t.ok(await history.blockAt(height(i)), `block ${height(i)}`);
    },
  );
}
