// A follower behind its source is syncing, as nearcore's client counts it: `status` says so, `health`
// answers NODE_IS_SYNCING (so a load balancer sends clients elsewhere) and `near_sync_status` is 7,
// until it is back at the source's final height. One height behind is not syncing (nearcore's
// sync_height_threshold), nor is a follower behind for less than two of its polls of the source's
// head, so one tailing the head does not flap; the rule's other turns are unit-tested with
// `syncingAfter`.
import { FollowerNode } from '@nearlite/node';
import type { BlockSource } from '@nearlite/stream';
import t from 'tap';
import { MAINNET_GENESIS } from './helpers/mainnet.js';
import { editProductionDelays, initHome, rawRpc } from './helpers/node.js';
import { MemorySource } from './helpers/stream_fixtures.js';
import { syntheticChain } from './helpers/synthetic_chain.js';
import { tempDir } from './helpers/tmp.js';

const FROM = 10_000_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The chain in memory, handed out up to `gate`, while `claimed` is what it says its final height is. */
function gatedSource(chain: ReturnType<typeof syntheticChain>) {
  const memory = new MemorySource(chain);
  const waiting: (() => void)[] = [];
  const s = {
    gate: FROM,
    claimed: FROM,
    release(gate: number, claimed = gate) {
      s.gate = gate;
      s.claimed = claimed;
      for (const w of waiting.splice(0)) w();
    },
    source: {
      name: 'gated:',
      async fetchBlock(height: number) {
        while (height > s.gate) await new Promise<void>((r) => waiting.push(r));
        return memory.fetchBlock(height);
      },
      // A listing, as S3 and a directory have: the follower steps from genesis to the first block.
      async nextHeight(after: number) {
        return chain.map((m) => m.block.header.height).find((h) => h > after) ?? null;
      },
      finalHeight: async () => s.claimed,
      firstHeight: () => memory.firstHeight(),
      close: async () => {},
    } satisfies BlockSource,
  };
  return s;
}

t.test('a follower behind its source is syncing: status, health and near_sync_status say so', async (t) => {
  const home = tempDir(t);
  initHome(home, ['--genesis', MAINNET_GENESIS]);
  const chain = syntheticChain(40, { from: FROM });
  const gated = gatedSource(chain);
  // Nothing handed out yet, while the source says it is final up to FROM + 29.
  gated.release(FROM - 1, FROM + 29);
  const node = await FollowerNode.start({
    home,
    source: gated.source,
    rpcAddr: '127.0.0.1:0',
    logger: { info: () => {}, warn: () => {}, error: () => {} },
    pollMs: 20,
    prepareThreads: 0,
  });
  t.teardown(async () => {
    gated.release(FROM + 39);
    await node.stop();
  });
  const call = async (method: string) => JSON.parse((await rawRpc(node.url, method, [])).body);
  const metric = async (name: string) => {
    const text = await (await fetch(`${node.url}/metrics`)).text();
    return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
  };
  const until = async (what: string, ok: () => Promise<boolean>) => {
    for (let i = 0; i < 300 && !(await ok()); i++) await sleep(20);
    t.ok(await ok(), what);
  };
  const state = async () => {
    const status = await call('status');
    const health = await call('health');
    return {
      height: status.result.sync_info.latest_block_height as number,
      syncing: status.result.sync_info.syncing as boolean,
      health: (health.error?.cause?.name ?? 'healthy') as string,
      syncStatus: await metric('near_sync_status'),
    };
  };

  await until('the source answered', async () => (await metric('nearlite_follower_lag_blocks')) > 0);
  const genesisHeight = 9_820_210;
  t.same(
    await state(),
    { height: genesisHeight, syncing: true, health: 'NODE_IS_SYNCING', syncStatus: 7 },
    'at genesis with the source far ahead: syncing',
  );
  // The fetches of the blocks not handed out hang: the lag stands, and how long the source has kept
  // every call waiting grows.
  await until(
    'the hanging fetch is counted',
    async () => (await metric('nearlite_follower_source_failing_seconds')) > 0.2,
  );
  const unhealthy = await call('health');
  t.equal(unhealthy.error.name, 'HANDLER_ERROR', "nearcore's error shape");
  t.equal((await fetch(`${node.url}/health`)).status, 503, 'GET /health fails too');

  gated.release(FROM + 29);
  await until('caught up', async () => (await state()).height === FROM + 29);
  t.same(await state(), { height: FROM + 29, syncing: false, health: 'healthy', syncStatus: 0 }, 'in sync');
  const written = await metric('nearlite_follower_last_write_timestamp_seconds');
  t.ok(Math.abs(written - Date.now() / 1000) < 30, `the last write is now (${written})`);

  // The source is one final block ahead and has not handed it out yet.
  gated.release(FROM + 29, FROM + 30);
  await until('the source seen one ahead', async () => (await metric('nearlite_follower_lag_blocks')) === 1);
  t.same(
    await state(),
    { height: FROM + 29, syncing: false, health: 'healthy', syncStatus: 0 },
    'one height behind is not syncing',
  );
  // Back at the tip, then the source six ahead with the blocks not handed out: once it has been
  // behind for two polls (20 ms each here) it is syncing.
  gated.release(FROM + 30);
  await until('at the tip', async () => (await state()).height === FROM + 30);
  gated.release(FROM + 30, FROM + 36);
  await until('the source seen six ahead', async () => (await metric('nearlite_follower_lag_blocks')) === 6);
  await until('syncing once behind for two polls', async () => (await state()).syncing);
  t.same(
    await state(),
    { height: FROM + 30, syncing: true, health: 'NODE_IS_SYNCING', syncStatus: 7 },
    'behind for longer than two polls is syncing',
  );
  gated.release(FROM + 39);
  await until('back at the tip', async () => (await state()).height === FROM + 39);
  t.same(
    await state(),
    { height: FROM + 39, syncing: false, health: 'healthy', syncStatus: 0 },
    'in sync again',
  );
});

t.test(
  'a follower whose source stops answering is unhealthy once 10 × max_block_production_delay pass',
  async (t) => {
    const home = tempDir(t);
    initHome(home, ['--genesis', MAINNET_GENESIS]);
    // 100 ms, so the 10 × rule takes a second here rather than nearcore's default 20 s.
    editProductionDelays(home, 100, 100);
    const chain = syntheticChain(10, { from: FROM });
    const gated = gatedSource(chain);
    gated.release(FROM + 9);
    let down = false;
    // A source retrying a failing request by itself (the stream sources do, ~25 s) keeps the call
    // waiting instead of failing it.
    let hung: Promise<void> | null = null;
    let unhang = () => {};
    const source: BlockSource = {
      ...gated.source,
      async finalHeight() {
        if (down) throw new Error('connection refused');
        if (hung) await hung;
        return gated.source.finalHeight();
      },
    };
    const node = await FollowerNode.start({
      home,
      source,
      rpcAddr: '127.0.0.1:0',
      logger: { info: () => {}, warn: () => {}, error: () => {} },
      pollMs: 20,
      prepareThreads: 0,
    });
    t.teardown(() => node.stop());
    const health = async () => {
      const body = JSON.parse((await rawRpc(node.url, 'health', [])).body);
      return body.error ? (body.error.cause.name as string) : 'healthy';
    };
    for (let i = 0; i < 300; i++) {
      const status = JSON.parse((await rawRpc(node.url, 'status', [])).body);
      if (status.result.sync_info.latest_block_height === FROM + 9) break;
      await sleep(20);
    }
    t.equal(await health(), 'healthy', 'caught up on an answering source');

    down = true;
    await sleep(200);
    t.equal(await health(), 'healthy', 'a source down for less than a second is not yet a stale node');
    await sleep(1000);
    const res = await rawRpc(node.url, 'health', []);
    const body = JSON.parse(res.body);
    t.equal(body.error?.cause?.name, 'NO_NEW_BLOCKS', 'NO_NEW_BLOCKS once it has been down for longer');
    t.ok(body.error.cause.info.elapsed.secs >= 1, 'with the time since the last block was written');

    down = false;
    for (let i = 0; i < 250 && (await health()) !== 'healthy'; i++) await sleep(20);
    t.equal(await health(), 'healthy', 'healthy again once the source answers');

    hung = new Promise((resolve) => {
      unhang = resolve;
    });
    await sleep(200);
    t.equal(await health(), 'healthy', 'a call kept waiting for less than a second is not yet a stale node');
    await sleep(1000);
    t.equal(await health(), 'NO_NEW_BLOCKS', 'NO_NEW_BLOCKS once every call has waited longer, as if failed');
    hung = null;
    unhang();
    for (let i = 0; i < 250 && (await health()) !== 'healthy'; i++) await sleep(20);
    t.equal(await health(), 'healthy', 'healthy again once the source answers');
  },
);
