// A new follower whose source is down when it starts waits for it, as the follow loop waits for a
// source that goes down later, instead of ending; its RPC answers meanwhile.
import { createServer } from 'node:net';
import { FollowerNode } from '@nearlite/node';
import { type BlockSource, StreamErrorCode, StreamSourceError } from '@nearlite/stream';
import t from 'tap';
import { MAINNET_GENESIS } from './helpers/mainnet.js';
import { initHome, rawRpc, spawnLogged } from './helpers/node.js';
import { MemorySource } from './helpers/stream_fixtures.js';
import { syntheticChain } from './helpers/synthetic_chain.js';
import { tempDir } from './helpers/tmp.js';

const FROM = 10_000_000;

t.test('a follower with nothing followed yet waits for a source that is down at its start', async (t) => {
  const home = tempDir(t);
  initHome(home, ['--genesis', MAINNET_GENESIS]);
  const chain = syntheticChain(5, { from: FROM });
  const memory = new MemorySource(chain);
  let refusals = 2;
  const source: BlockSource = {
    name: 'down:',
    fetchBlock: (h) => memory.fetchBlock(h),
    nextHeight: async (after: number) =>
      chain.map((m) => m.block.header.height).find((h) => h > after) ?? null,
    finalHeight: () => memory.finalHeight(),
    firstHeight: async () => {
      if (refusals-- > 0)
        throw new StreamSourceError(
          StreamErrorCode.UNAVAILABLE,
          'down:',
          null,
          'still failing after 8 attempts: 503',
        );
      return memory.firstHeight();
    },
    close: async () => {},
  };
  const warnings: string[] = [];
  const node = await FollowerNode.start({
    home,
    source,
    rpcAddr: '127.0.0.1:0',
    logger: { info: () => {}, warn: (m: string) => warnings.push(m), error: () => {} },
    pollMs: 20,
    prepareThreads: 0,
  });
  t.teardown(() => node.stop());
  const last = chain.at(-1)!.block.header;
  let height = 0;
  for (let i = 0; i < 400 && height !== last.height; i++) {
    const status = JSON.parse((await rawRpc(node.url, 'status', [])).body);
    height = status.result.sync_info.latest_block_height;
    await new Promise((r) => setTimeout(r, 25));
  }
  t.equal(height, last.height, 'then it follows');
  t.equal(
    warnings.filter((w) => /asking down: for its first block again in/.test(w)).length,
    2,
    'each wait said',
  );
});

t.test('a signal stops a follower that waits for its source', async (t) => {
  const home = tempDir(t);
  initHome(home, ['--genesis', MAINNET_GENESIS]);
  // Nothing listens there: every attempt at the first block is refused.
  const port = await new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 1));
    });
  });
  const node = spawnLogged([
    'run',
    '--home',
    home,
    '--rpc-addr',
    '127.0.0.1:0',
    '--follow',
    `http://127.0.0.1:${port}`,
  ]);
  t.teardown(() => node.proc.kill('SIGKILL'));
  // While the source's own attempts at the first block are under way (eight, ~25 s).
  for (let i = 0; i < 300 && !/attempt 2 failed/.test(node.logs()); i++)
    await new Promise((r) => setTimeout(r, 100));
  t.match(node.logs(), /attempt 2 failed/, 'the node waits for the source');
  t.match(node.logs(), /RPC on http/, 'with its RPC up');
  node.proc.kill('SIGTERM');
  const still = new Promise<string>((resolve) => setTimeout(() => resolve('still running'), 10_000).unref());
  t.equal(await Promise.race([node.exited, still]), 0, 'it stops at once');
  t.match(node.logs(), /"msg":"stopped"/);
});
