// A producer on four shards runs a random workload and publishes NEAR Lake to an S3 server. Two
// followers catch up and tail it, one over the producer's neardata routes and one over the bucket; every
// read method answers byte for byte as the producer does, for every height.
import { join } from 'node:path';
import t from 'tap';
import { localChain, onSlowClock } from './helpers/chain.js';
import { compareHistory, compareTransactions, settledTop } from './helpers/follow_compare.js';
import { initHome, type RunningNode, startNode, waitForHeight } from './helpers/node.js';
import { startS3 } from './helpers/s3.js';
import { randomWorkload } from './helpers/workload.js';

const SHARDS = [0, 1, 2, 3];

t.test('followers over HTTP and S3 answer a 4-shard random workload as the producer', async (t) => {
  const seed = Number(process.env.FOLLOW_WORKLOAD_SEED ?? Date.now() % 1_000_000);
  t.comment(`seed ${seed} (FOLLOW_WORKLOAD_SEED reruns it)`);
  const endpoint = await startS3(t, ['lake']);

  const lakeOut = ['--lake-out', 's3://lake', '--s3-endpoint', endpoint];
  const chain = await localChain(t, { shards: 4, blockTimeMs: 60, archive: true, args: lakeOut });
  const genesis = ['--genesis', join(chain.home, 'genesis.json')];

  // The HTTP follower starts before the workload and tails it; the S3 one catches up afterwards.
  const httpHome = join(chain.home, 'follower-http');
  initHome(httpHome, genesis);
  const httpFollower = await startNode(httpHome, ['--follow', chain.node.url, '--archive']);
  t.teardown(() => httpFollower.stop());

  const started = Date.now();
  const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
  const w = await randomWorkload(chain, seed, 14);
  t.comment(`workload done after ${elapsed()}`);
  const top = await settledTop(chain.node);
  const producer = await onSlowClock(t, chain, ['--archive', ...lakeOut]);

  const s3Home = join(chain.home, 'follower-s3');
  initHome(s3Home, genesis);
  const s3Follower = await startNode(s3Home, [
    '--follow',
    's3://lake',
    '--s3-endpoint',
    endpoint,
    '--archive',
  ]);
  t.teardown(() => s3Follower.stop());
  await waitForHeight(httpFollower, top, 90_000);
  await waitForHeight(s3Follower, top, 90_000);
  t.match(s3Follower.logs(), /following s3:\/\/lake/);
  // One preparing thread per core but one, never fewer than two (this machine kind has two cores).
  t.match(s3Follower.logs(), /blocks prepared on ([2-8]) threads/);

  const followers: [string, RunningNode][] = [
    ['http follower', httpFollower],
    ['s3 follower', s3Follower],
  ];
  t.comment(`both followers at #${top} after ${elapsed()}`);
  const history = await compareHistory(t, producer, followers, w, SHARDS, top, seed, false);
  t.ok(
    history.busyShards.size >= 3,
    `shards with transactions or receipts: ${[...history.busyShards].join(', ')}`,
  );
  t.ok(history.txs.length >= 20, `${history.txs.length} transactions`);
  t.comment(`history compared after ${elapsed()}`);
  const txCalls = await compareTransactions(t, producer, followers, history.txs);
  t.comment(`transactions compared after ${elapsed()}`);
  t.ok(
    history.compared + txCalls > 500,
    `${history.compared + txCalls} read calls compared on both followers`,
  );

  // The deleted accounts are gone at the top, the token balances are the producer's, on both followers.
  for (const id of w.deleted) {
    const { body } = await s3Follower.rpc('query', {
      request_type: 'view_account',
      account_id: id,
      block_id: top,
    });
    t.equal(body.error?.cause.name, 'UNKNOWN_ACCOUNT', `${id} deleted`);
  }
});
