// config.json's `expected_shutdown` on a PostgreSQL history, real processes: the writer follows no
// height above it and stops there, and a `serve` front end on the same home stops once the writer's
// cursor is there.
import { join } from 'node:path';
import t from 'tap';
import { startCli } from './helpers/cli_process.js';
import { MAINNET_GENESIS_HEIGHT } from './helpers/mainnet.js';
import { editConfig, type RunningNode } from './helpers/node.js';
import { followLakeArgs, pgHome, serveArgs, storeArgs } from './helpers/pg_home.js';
import { lakePublisher, syntheticChain } from './helpers/synthetic_chain.js';

/** The exit status, or 'running' after 60 s: a deadline for a node that would never stop, not a measure of speed. */
const exitOf = (node: RunningNode) =>
  Promise.race([
    node.exited,
    new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), 60_000).unref()),
  ]);

t.test('a writer and its front end both stop at expected_shutdown', async (t) => {
  const pg = await pgHome(t);
  const lake = join(pg.dir, 'blocks');
  const chain = syntheticChain(60, { from: 10_000_000, afterGenesis: MAINNET_GENESIS_HEIGHT });
  lakePublisher(lake, join(pg.dir, 'staging'))(chain);
  const stopAt = 10_000_030;
  editConfig(pg.home, (c) => ({ ...c, expected_shutdown: stopAt }));

  const front = await startCli(serveArgs(pg.home, pg));
  t.teardown(() => front.kill());
  const writer = await startCli([...followLakeArgs(pg.home, lake), ...storeArgs(pg)]);
  t.teardown(() => writer.kill());

  t.equal(await exitOf(writer), 0, 'the writer stops by itself');
  t.match(
    writer.logs(),
    new RegExp(`Expected shutdown triggered: head block\\(${stopAt}\\) >= \\(${stopAt}\\)"`),
  );
  t.equal(await exitOf(front), 0, 'and so does the front end');
  t.match(
    front.logs(),
    new RegExp(`Expected shutdown triggered: head block\\(${stopAt}\\) >= \\(${stopAt}\\)"`),
    "at the writer's cursor, which went no further",
  );
  t.match(front.logs(), /"msg":"stopped"/);
});
