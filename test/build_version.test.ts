// `status` and `client_config` name the commit the running build was made from, as nearcore's do: the
// bundle made in this checkout carries its HEAD, on a producer and on a follower alike.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import t from 'tap';
import { localChain } from './helpers/chain.js';
import { startFollower, waitForHeight } from './helpers/node.js';

type Version = { version: { version: string; build: string; commit: string; rustc_version: string } };

t.test('status and client_config report the commit the bundle was made from', async (t) => {
  const head = spawnSync('git', ['rev-parse', 'HEAD'], {
    cwd: join(import.meta.dirname, '..'),
    encoding: 'utf8',
  });
  t.equal(head.status, 0, 'the suite runs in a git checkout, as `npm test` builds the bundle there');
  const commit = head.stdout.trim();
  const chain = await localChain(t);
  const follower = await startFollower(chain.home, chain.node.url);
  t.teardown(() => follower.stop());
  await waitForHeight(follower, 3);
  for (const [who, node] of [
    ['producer', chain.node],
    ['follower', follower],
  ] as const) {
    const status = (await node.rpc<Version>('status', [])).body.result;
    t.same(
      status?.version,
      { version: '0.1.0', build: 'nearlite-0.1.0', commit, rustc_version: 'n/a' },
      `${who}: status (a bundle older than HEAD names its own commit: \`npm run build\` after committing)`,
    );
    const config = (await node.rpc<Version>('client_config', [])).body.result;
    t.same(config?.version, status?.version, `${who}: client_config`);
  }
});
