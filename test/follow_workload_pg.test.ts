// A producer on two shards runs a random workload; one follower keeps its history in LevelDB, another
// in PostgreSQL (a meta database and one database per shard), both archival and following the producer
// over HTTP. A `nearlite serve` front end reads the same PostgreSQL history. Every read method answers
// byte for byte as the producer does on all three, for every height, so LevelDB and PostgreSQL agree.
import { join } from 'node:path';
import t from 'tap';
import { localChain, onSlowClock } from './helpers/chain.js';
import { startCli } from './helpers/cli_process.js';
import { compareHistory, compareTransactions, settledTop } from './helpers/follow_compare.js';
import { initHome, type RunningNode, startNode, waitForHeight } from './helpers/node.js';
import { startPostgres, storeFlags } from './helpers/postgres.js';
import { randomWorkload } from './helpers/workload.js';

const SHARDS = [0, 1];

t.test('LevelDB and PostgreSQL followers answer a 2-shard random workload as the producer', async (t) => {
  const seed = Number(process.env.FOLLOW_WORKLOAD_SEED ?? Date.now() % 1_000_000);
  t.comment(`seed ${seed} (FOLLOW_WORKLOAD_SEED reruns it)`);

  // The server first: the chain would otherwise run on while it starts, for no more to compare.
  // The followers and the front end stop before the server they write to and read from.
  const server = await startPostgres();
  const procs: RunningNode[] = [];
  t.teardown(async () => {
    for (const p of procs) await p.stop();
    await server.stop();
  });
  const store = await storeFlags(server, SHARDS);

  const chain = await localChain(t, { shards: SHARDS.length, blockTimeMs: 60, archive: true });
  const genesis = ['--genesis', join(chain.home, 'genesis.json')];

  // Both start before the workload: each catches up with the first blocks, then tails the rest.
  const levelHome = join(chain.home, 'follower-leveldb');
  initHome(levelHome, genesis);
  const levelFollower = await startNode(levelHome, ['--follow', chain.node.url, '--archive']);
  procs.push(levelFollower);
  const pgHome = join(chain.home, 'follower-pg');
  initHome(pgHome, genesis);
  const pgFollower = await startNode(pgHome, ['--follow', chain.node.url, '--archive', ...store]);
  procs.push(pgFollower);
  t.match(pgFollower.logs(), /store at PostgreSQL \(meta /);

  const started = Date.now();
  const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
  const w = await randomWorkload(chain, seed, 10);
  t.comment(`workload done after ${elapsed()}`);
  const top = await settledTop(chain.node);
  const producer = await onSlowClock(t, chain, ['--archive']);

  await waitForHeight(levelFollower, top, 90_000);
  await waitForHeight(pgFollower, top, 90_000);
  // A front end started on the history the PostgreSQL follower has written so far.
  const front = await startCli(['serve', '--home', pgHome, '--rpc-addr', '127.0.0.1:0', ...store]);
  procs.push(front);
  // Its home's config says nothing of archive: the history's kind is the writer's (--archive).
  const config = await front.rpc<{ archive: boolean }>('client_config', []);
  t.equal(config.body.result?.archive, true, 'the front end reports the history as archival');
  await waitForHeight(front, top, 30_000);

  const followers: [string, RunningNode][] = [
    ['leveldb follower', levelFollower],
    ['postgres follower', pgFollower],
    ['postgres serve', front],
  ];
  t.comment(`all at #${top} after ${elapsed()}`);
  const history = await compareHistory(t, producer, followers, w, SHARDS, top, seed, false);
  t.equal(
    history.busyShards.size,
    SHARDS.length,
    `shards with transactions or receipts: ${[...history.busyShards].join(', ')}`,
  );
  t.ok(history.txs.length >= 20, `${history.txs.length} transactions`);
  t.comment(`history compared after ${elapsed()}`);
  const txCalls = await compareTransactions(t, producer, followers, history.txs);
  t.comment(`transactions compared after ${elapsed()}`);
  t.ok(history.compared + txCalls > 500, `${history.compared + txCalls} read calls compared on the three`);

  // The deleted accounts are gone at the top on the PostgreSQL history too.
  for (const id of w.deleted) {
    const { body } = await front.rpc('query', {
      request_type: 'view_account',
      account_id: id,
      block_id: top,
    });
    t.equal(body.error?.cause.name, 'UNKNOWN_ACCOUNT', `${id} deleted`);
  }
});
