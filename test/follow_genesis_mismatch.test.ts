// A follower whose genesis.json is not the followed chain's stops with the reason, as nearcore refuses
// a store or a peer of another genesis, rather than answer from its own genesis records what the
// followed chain never held. A follower on the chain's own genesis follows it.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { localChain } from './helpers/chain.js';
import { cli, initHome, spawnLogged, startFollower, waitForHeight } from './helpers/node.js';
import { tempDir } from './helpers/tmp.js';

t.test("a follower refuses a stream of another chain's genesis and stores none of it", async (t) => {
  const chain = await localChain(t, { blockTimeMs: 100 });
  await waitForHeight(chain.node, 3, 30_000);

  // Another `init`: its own chain id, genesis time and keys, as an operator's wrong genesis.json.
  const other = join(tempDir(t), 'other');
  initHome(other);
  const wrong = spawnLogged([
    'run',
    '--home',
    other,
    '--rpc-addr',
    '127.0.0.1:0',
    '--follow',
    chain.node.url,
  ]);
  t.teardown(() => wrong.proc.kill('SIGKILL'));
  let timer: NodeJS.Timeout | undefined;
  const code = await Promise.race([
    wrong.exited,
    new Promise<'timeout'>((r) => {
      timer = setTimeout(() => r('timeout'), 60_000);
    }),
  ]);
  clearTimeout(timer);
  t.equal(code, 1, 'the follower exits');
  t.match(
    wrong.logs(),
    /block 0 refused \(genesis\): the stream's genesis block has timestamp \d+, genesis\.json's genesis_time is \d+ ns: the stream is not the chain of this home's genesis\.json/,
    'and says why',
  );
  const inspected = cli(['inspect', '--home', other, 'follow']);
  t.equal(inspected.status, 0, inspected.stderr);
  const follow = JSON.parse(inspected.stdout) as { cursor_height: number | null };
  t.equal(follow.cursor_height, null, 'no block of the other chain was stored');
  t.ok(existsSync(join(other, 'data')), 'the history itself was opened');

  const right = await startFollower(chain.home, chain.node.url);
  t.teardown(() => right.stop());
  await waitForHeight(right, 3, 60_000);
  t.pass('a follower on the chain’s own genesis follows it');
});
