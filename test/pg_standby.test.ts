// Front ends on a hot standby: an operator scales reads out to PostgreSQL replicas. A standby refuses
// every write and LISTEN, so a front end there must start without writing and follow the writer's
// cursor by polling as the primary's WAL brings it.
import { join } from 'node:path';
import t from 'tap';
import { startCli } from './helpers/cli_process.js';
import { MAINNET_GENESIS_HEIGHT } from './helpers/mainnet.js';
import { followLakeArgs, pgHome, serveArgs, storeArgs } from './helpers/pg_home.js';
import { startStandby } from './helpers/standby.js';
import { lakePublisher, syntheticChain } from './helpers/synthetic_chain.js';

t.test('a front end on a hot standby serves the history and follows the writer', async (t) => {
  const pgh = await pgHome(t);
  const lake = join(pgh.dir, 'blocks');
  const publish = lakePublisher(lake, join(pgh.dir, 'staging'));
  const chain = syntheticChain(40, { from: 10_000_000, afterGenesis: MAINNET_GENESIS_HEIGHT });
  publish(chain.slice(0, 20));
  const writer = await startCli([...followLakeArgs(pgh.home, lake), ...storeArgs(pgh)]);
  t.teardown(() => writer.stop());
  const finalHeight = async (node: typeof writer) =>
    (await node.rpc<{ header: { height: number } }>('block', { finality: 'final' })).body.result?.header
      .height;
  const until = async (node: typeof writer, height: number) => {
    const deadline = Date.now() + 60_000;
    while ((await finalHeight(node)) !== height && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    return finalHeight(node);
  };
  const at = (i: number) => chain[i]!.block.header;
  t.equal(await until(writer, at(19).height), at(19).height, 'the writer wrote the first blocks');

  const standby = await startStandby(pgh.server);
  t.teardown(() => standby.stop());
  const front = await startCli(
    serveArgs(pgh.home, { metaUrl: standby.url('meta'), shardUrl: standby.url('shard0') }),
  );
  t.teardown(() => front.stop());
  const block = await front.rpc<{ header: { hash: string } }>('block', { block_id: at(10).height });
  t.equal(block.body.result?.header.hash, at(10).hash, 'it serves what the standby holds');

  publish(chain.slice(20));
  t.equal(
    await until(front, at(39).height),
    at(39).height,
    "it follows the writer's cursor through the standby",
  );
  const last = await front.rpc<{ header: { hash: string } }>('block', { block_id: at(39).height });
  t.equal(last.body.result?.header.hash, at(39).hash);
  t.notMatch(front.logs(), /read-only transaction|cannot execute/, 'no write or LISTEN failure is logged');
});
