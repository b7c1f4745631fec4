// A follower SIGKILLed at random moments while it ingests (32 blocks per write while catching up)
// resumes at the block after its cursor, with nothing missing or doubled: afterwards every height
// answers with the block the source published, and the flat state rows match the history.
import { join } from 'node:path';
import { HistoryStore } from '@nearlite/follower';
import { Store } from '@nearlite/store';
import t from 'tap';
import { flatMismatches } from './helpers/flat_check.js';
import { MAINNET_GENESIS, MAINNET_GENESIS_HEIGHT } from './helpers/mainnet.js';
import { cli, initHome, startNode, waitForHeight } from './helpers/node.js';
import { syntheticChain, writeLake } from './helpers/synthetic_chain.js';
import { tempDir } from './helpers/tmp.js';

const SKIPPED = [10_000_100, 10_000_101, 10_000_250, 10_001_500];

t.test('a follower killed during ingest resumes with the same answers', async (t) => {
  const lake = tempDir(t);
  const home = join(lake, 'home');
  const chain = syntheticChain(3000, {
    from: 10_000_000,
    afterGenesis: MAINNET_GENESIS_HEIGHT,
    skip: SKIPPED,
  });
  writeLake(join(lake, 'blocks'), chain);
  // A real chain's genesis: the follower starts from mainnet's genesis records.
  initHome(home, ['--genesis', MAINNET_GENESIS]);
  const follow = ['--follow', `file:${join(lake, 'blocks')}`];
  const last = chain.at(-1)!.block.header.height;

  let kills = 0;
  const seen: number[] = [];
  // Ten kills during catch-up, each 100–400 ms after the RPC is up, as long as blocks are left.
  for (let round = 0; round < 10; round++) {
    const node = await startNode(home, follow);
    await new Promise((r) => setTimeout(r, 100 + Math.floor(Math.random() * 300)));
    const { body } = await node.rpc<{ sync_info: { latest_block_height: number } }>('status', []);
    seen.push(body.result?.sync_info.latest_block_height ?? 0);
    await node.kill();
    kills++;
    if (seen.at(-1) === last) break;
  }
  t.ok(kills > 0, `killed ${kills} times at heights ${seen.join(', ')}`);

  const node = await startNode(home, follow);
  t.teardown(() => node.stop());
  await waitForHeight(node, last, 60_000);
  for (const m of chain) {
    const { body } = await node.rpc<{ header: { hash: string } }>('block', {
      block_id: m.block.header.height,
    });
    t.equal(body.result?.header.hash, m.block.header.hash, `block ${m.block.header.height}`);
  }
  for (const gap of SKIPPED) {
    const { body } = await node.rpc('block', { block_id: gap });
    t.equal(body.error?.cause.name, 'UNKNOWN_BLOCK', `${gap} has no block`);
  }
  const { body: status } = await node.rpc<{
    chain_id: string;
    sync_info: { latest_block_height: number; syncing: boolean; earliest_block_height: number };
  }>('status', []);
  t.equal(status.result?.chain_id, 'mainnet');
  t.equal(status.result?.sync_info.latest_block_height, last);
  t.equal(status.result?.sync_info.earliest_block_height, 10_000_000);
  t.equal(status.result?.sync_info.syncing, false);
  // Genesis state is history at the genesis height: mainnet's `near` account exists there.
  const { body: account } = await node.rpc<{ amount: string }>('query', {
    request_type: 'view_account',
    account_id: 'near',
    block_id: last,
  });
  t.ok(account.result?.amount, 'mainnet genesis account `near` is served at the followed head');
  const metrics = await (await fetch(`${node.url}/metrics`)).text();
  t.match(metrics, /nearlite_follower_lag_blocks 0/);
  t.match(metrics, new RegExp(`nearlite_block_height ${last}`));
  t.equal(await node.stop(), 0);

  const inspected = cli(['inspect', '--home', home, 'follow']);
  t.equal(inspected.status, 0, inspected.stderr);
  const view = JSON.parse(inspected.stdout) as {
    cursor_height: number;
    cursor_hash: string;
    first_height: number;
  };
  t.equal(view.cursor_height, last);
  t.equal(view.cursor_hash, chain.at(-1)!.block.header.hash);
  t.equal(view.first_height, 10_000_000);

  // Every kill left the flat rows in step with the history they shortcut.
  const store = await Store.open(join(home, 'data'));
  t.teardown(() => store.close());
  t.ok(new HistoryStore(store).hasFlatState(), 'the flat rows were written from the genesis state on');
  const flat = await flatMismatches(store);
  t.same(flat.mismatches, [], `each of ${flat.keys} keys' flat row is its newest history row`);
  t.ok(flat.keys > 50, 'the genesis records and the followed changes');
});
