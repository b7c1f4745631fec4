import { FollowLoop, HistoryStore, SYNC_HEIGHT_THRESHOLD, syncingAfter } from '@nearlite/follower';
import { Store } from '@nearlite/store';
import { type BlockSource, FileSource, type StreamerMessage } from '@nearlite/stream';
import t from 'tap';
import { MemorySource } from '../../../test/helpers/stream_fixtures.js';
import { syntheticChain, writeLake } from '../../../test/helpers/synthetic_chain.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { logs, until } from './helpers.js';

/** `inner`, whose fetch of `height` answers only once `open` is called. */
function gated(inner: MemorySource, height: number): { source: MemorySource; open: () => void } {
  let open!: () => void;
  const gate = new Promise<void>((r) => {
    open = r;
  });
  const source = Object.assign(Object.create(inner) as MemorySource, {
    fetchBlock: async (h: number) => {
      const m = inner.fetchBlock(h);
      if (h === height) await gate;
      return m;
    },
  });
  return { source, open };
}

/**
 * A loop over `source` into a fresh LevelDB history, writing on the loop's thread (as a PostgreSQL
 * history does), with short pauses; the store closes when the test ends.
 */
async function followInto(t: Tap.Test, source: BlockSource) {
  const store = await Store.open(tempDir(t));
  const history = new HistoryStore(store);
  const log = logs();
  const loop = new FollowLoop({ history, source, startHeight: 1_000_000, log, pollMs: 10, retryMaxMs: 10 });
  t.teardown(async () => {
    await loop.stop();
    await store.close();
  });
  return { history, log, loop };
}

t.test('follows in height order through failures and skipped heights, then tails the head', async (t) => {
  const chain = syntheticChain(40, { skip: [1_000_005, 1_000_017] });
  const source = new MemorySource(chain.slice(0, 30));
  source.failures = 3;
  const store = await Store.open(tempDir(t));
  const history = new HistoryStore(store);
  const log = logs();
  const order: number[] = [];
  const loop = new FollowLoop({
    history,
    source,
    startHeight: 1_000_000,
    log,
    concurrency: 4,
    pollMs: 20,
    retryInitialMs: 5,
    retryMaxMs: 20,
    progressEveryMs: 0,
    onBlock: (h) => order.push(h),
  });
  t.equal(loop.syncing, true, 'syncing until the source has answered');
  loop.start();
  const last30 = chain[29]!.block.header.height;
  await until(() => history.cursor()?.height === last30, 'the first 30 blocks');
  t.ok(loop.syncing === false, 'caught up');
  for (const m of chain.slice(30)) source.add(m);
  const last = chain.at(-1)!.block.header.height;
  await until(() => history.cursor()?.height === last, 'the tail');
  // Dozens of fetches and waits settled; what stop() would end is only what is pending now.
  const pending = (loop as unknown as { wakers: Set<unknown> }).wakers.size;
  t.ok(pending <= 2, `no settled wait is kept (${pending} pending)`);
  await loop.stop();
  t.same(
    order,
    chain.map((m) => m.block.header.height),
    'every block, in order, once',
  );
  t.notOk(order.includes(1_000_005) || order.includes(1_000_017), 'skipped heights have no block');
  t.ok(source.fetched.includes(1_000_005), 'a skipped height is still asked for');
  t.ok(
    log.lines.some((l) => l.startsWith('WARN fetching block') && l.includes('retrying')),
    'failures are reported',
  );
  t.ok(
    log.lines.some((l) => /blocks\/s, \d+ behind memory:, ETA/.test(l)),
    'progress shows rate, lag and ETA',
  );
  t.equal(loop.lag, 0);
  for (const m of chain)
    t.ok(await history.blockAt(m.block.header.height), `block ${m.block.header.height} stored`);
  await store.close();
});

t.test('a block that fails verification stops the cursor there and is refetched', async (t) => {
  const chain = syntheticChain(6);
  const bad = structuredClone(chain[3]!);
  bad.block.header.gas_price = '1';
  const source = new MemorySource([...chain.slice(0, 3), bad, ...chain.slice(4)]);
  const { history, log, loop } = await followInto(t, source);
  loop.start();
  await until(() => log.lines.some((l) => l.includes('refused (block_hash)')), 'the refusal');
  t.equal(history.cursor()?.height, 1_000_002, 'stopped before the bad block');
  const before = source.fetched.length;
  const refusals = () => log.lines.filter((l) => l.includes('refused (block_hash)')).length;
  await until(() => refusals() >= 3, 'two more refusals');
  t.same(
    new Set(source.fetched.slice(before)),
    new Set([1_000_003]),
    'while it is refused, the bad height alone is asked for again',
  );
  source.add(chain[3]!);
  await until(() => history.cursor()?.height === 1_000_005, 'the rest after the source is fixed');
  await loop.stop();
});

t.test('the file: source reads the NEAR Lake layout', async (t) => {
  const dir = tempDir(t);
  const chain = syntheticChain(5, { skip: [1_000_002] });
  writeLake(dir, chain);
  const source = new FileSource(dir);
  t.equal(await source.firstHeight(), 1_000_000);
  t.equal(await source.finalHeight(), chain.at(-1)!.block.header.height);
  t.equal(await source.fetchBlock(1_000_002), null, 'skipped height');
  t.equal(await source.nextHeight(1_000_001), 1_000_003, 'the next listed height, over the skipped one');
  t.equal(await source.nextHeight(999_000), 1_000_000);
  t.equal(await source.nextHeight(chain.at(-1)!.block.header.height), null, 'none above the last');
  const m = await source.fetchBlock(1_000_003);
  t.equal(m?.block.header.hash, chain[2]!.block.header.hash);
  t.equal(m?.shards.length, 1);
});

t.test('a non-archival follower keeps the configured number of blocks below its cursor', async (t) => {
  const chain = syntheticChain(30);
  const store = await Store.open(tempDir(t));
  const history = new HistoryStore(store, { gcGraceMs: 0 });
  const loop = new FollowLoop({
    history,
    source: new MemorySource(chain),
    startHeight: 1_000_000,
    log: logs(),
    pollMs: 10,
    gc: { keepBlocks: 10 },
  });
  loop.start();
  const last = chain.at(-1)!.block.header.height;
  await until(() => history.cursor()?.height === last && history.firstHeight() === last - 10, 'GC to settle');
  await loop.stop();
  for (const m of chain) {
    const h = m.block.header.height;
    // A collected block keeps its header alone, as nearcore's GC leaves headers.
    const view = JSON.parse((await history.blockAt(h))!.json) as { chunks?: unknown };
    t.equal(view.chunks !== undefined, h >= last - 10, `block ${h} ${h >= last - 10 ? 'kept' : 'collected'}`);
  }
  await store.close();
});

t.test('blocks count as written once the cursor shows them, before the GC step after them', async (t) => {
  const chain = syntheticChain(12);
  const store = await Store.open(tempDir(t));
  const history = new HistoryStore(store, { gcGraceMs: 0 });
  // The GC step after the first batch waits until the test has looked.
  let release!: () => void;
  const held = new Promise<void>((r) => {
    release = r;
  });
  let steps = 0;
  const collect = history.collectGarbage.bind(history);
  history.collectGarbage = async (o) => {
    if (steps++ === 0) await held;
    return collect(o);
  };
  const loop = new FollowLoop({
    history,
    source: new MemorySource(chain),
    startHeight: 1_000_000,
    log: logs(),
    pollMs: 10,
    batchSize: 32,
    gc: { keepBlocks: 100 },
  });
  t.teardown(async () => {
    release();
    await loop.stop();
    await store.close();
  });
  loop.start();
  const last = chain.at(-1)!.block.header.height;
  await until(() => history.cursor()?.height === last, 'the batch written');
  t.equal(steps, 1, 'its GC step is under way');
  t.equal(loop.blocksWritten, chain.length, 'every block the cursor shows is counted');
  release();
});

t.test('catching up, the loop fetches four batches ahead of the block it waits for', async (t) => {
  const chain = syntheticChain(40);
  const inner = new MemorySource(chain);
  const first = chain[0]!.block.header.height;
  // The first block is held back: everything the loop asks for meanwhile is its window.
  const { source, open } = gated(inner, first);
  const store = await Store.open(tempDir(t));
  const history = new HistoryStore(store);
  const loop = new FollowLoop({ history, source, startHeight: first, log: logs(), batchSize: 4 });
  loop.start();
  await until(() => inner.fetched.length >= 16, 'the window');
  await new Promise((r) => setTimeout(r, 50));
  t.same(
    [...inner.fetched].sort((a, b) => a - b),
    Array.from({ length: 16 }, (_, i) => first + i),
    'sixteen heights, none past them, while the first is awaited',
  );
  open();
  const last = chain.at(-1)!.block.header.height;
  await until(() => history.cursor()?.height === last, 'the whole chain');
  await loop.stop();
  await store.close();
});

t.test('catching up, a block that keeps failing does not hold back the blocks before it', async (t) => {
  const chain = syntheticChain(20);
  const inner = new MemorySource(chain);
  const first = chain[0]!.block.header.height;
  const missing = first + 5;
  // As a Lake bucket whose newest block lacks a shard file yet: that height fails until it is there.
  let present = false;
  const source = Object.assign(Object.create(inner) as MemorySource, {
    fetchBlock: async (h: number) => {
      if (h === missing && !present) throw new Error(`shard_0.json of ${h} is not there yet`);
      return inner.fetchBlock(h);
    },
  });
  const store = await Store.open(tempDir(t));
  const history = new HistoryStore(store);
  const loop = new FollowLoop({
    history,
    source,
    startHeight: first,
    log: logs(),
    pollMs: 10,
    retryMaxMs: 20,
    batchSize: 32,
  });
  t.teardown(async () => {
    await loop.stop();
    await store.close();
  });
  loop.start();
  await until(() => history.cursor()?.height === missing - 1, 'the blocks before the failing one');
  await new Promise((r) => setTimeout(r, 100));
  t.equal(history.cursor()?.height, missing - 1, 'and no further while it fails');
  present = true;
  const last = chain.at(-1)!.block.header.height;
  await until(() => history.cursor()?.height === last, 'the rest once it is there');
});

t.test(
  'a block whose fetch is still retrying inside the source does not hold back the one before it',
  async (t) => {
    const chain = syntheticChain(6);
    const inner = new MemorySource(chain);
    const first = chain[0]!.block.header.height;
    // As a source answered 5xx for the next block: it retries by itself (~25 s) before the loop hears.
    const { source, open: release } = gated(inner, first + 1);
    const store = await Store.open(tempDir(t));
    const history = new HistoryStore(store);
    const loop = new FollowLoop({
      history,
      source,
      startHeight: first,
      log: logs(),
      pollMs: 10,
      batchSize: 32,
    });
    t.teardown(async () => {
      release();
      await loop.stop();
      await store.close();
    });
    loop.start();
    await until(() => history.cursor()?.height === first, 'the block before the retrying one');
    t.equal(history.cursor()?.height, first, 'written while the next one is still being fetched');
    release();
    const last = chain.at(-1)!.block.header.height;
    await until(() => history.cursor()?.height === last, 'the rest once it answers');
  },
);

t.test('a block with a member missing is refused and refetched; the loop goes on', async (t) => {
  const chain = syntheticChain(6);
  const shard = (m: StreamerMessage) => m.shards[0] as unknown as Record<string, unknown>;
  const cases: [string, (m: StreamerMessage) => void][] = [
    ['a shard without receipt_execution_outcomes', (m) => delete shard(m).receipt_execution_outcomes],
    ['a chunk without transactions', (m) => delete (shard(m).chunk as Record<string, unknown>).transactions],
    [
      'a state change without account_id',
      (m) => delete (m.shards[0]!.state_changes[0]!.change as Record<string, unknown>).account_id,
    ],
    // Nothing in the message proves an outcome's receipt ids, and a status read follows them.
    [
      'a transaction outcome without a list of receipt ids',
      (m) => {
        const o = m.shards[0]!.chunk!.transactions[0]!.outcome.execution_outcome.outcome as Record<
          string,
          unknown
        >;
        o.receipt_ids = null;
      },
    ],
    [
      'a receipt outcome naming a receipt id that is no hash',
      (m) => {
        const o = m.shards[0]!.receipt_execution_outcomes[0]!.execution_outcome.outcome as Record<
          string,
          unknown
        >;
        o.receipt_ids = ['x'];
      },
    ],
  ];
  t.ok(
    chain[3]!.shards[0]!.state_changes.length > 0 && chain[3]!.shards[0]!.chunk,
    'the block has a chunk and state changes',
  );
  for (const [what, spoil] of cases) {
    const bad = structuredClone(chain[3]!);
    spoil(bad);
    const source = new MemorySource([...chain.slice(0, 3), bad, ...chain.slice(4)]);
    const { history, log, loop } = await followInto(t, source);
    loop.start();
    await until(() => log.lines.some((l) => l.includes('refused (shape)')), `${what}: the refusal`);
    t.equal(history.cursor()?.height, 1_000_002, `${what}: stopped before the bad block`);
    t.notOk(
      log.lines.some((l) => l.includes('follow loop stopped')),
      `${what}: the loop runs on`,
    );
    source.add(chain[3]!);
    await until(() => history.cursor()?.height === 1_000_005, `${what}: the rest after the source is fixed`);
    await loop.stop();
  }
});

t.test('a write that fails is written again, and the loop goes on', async (t) => {
  const chain = syntheticChain(6);
  const { history, log, loop } = await followInto(t, new MemorySource(chain));
  const write = history.writeBlocks.bind(history);
  let failures = 2;
  history.writeBlocks = async (...args) => {
    if (args[0].some((m) => m.block.header.height === 1_000_003) && failures-- > 0)
      throw new Error('the database went away');
    return write(...args);
  };
  loop.start();
  await until(() => history.cursor()?.height === 1_000_005, 'every block');
  await loop.stop();
  t.equal(log.lines.filter((l) => l.includes('failed, retrying: Error: the database went away')).length, 2);
  for (const m of chain)
    t.ok(await history.blockAt(m.block.header.height), `block ${m.block.header.height} stored`);
});

t.test('stop() ends the loop while a fetch hangs', async (t) => {
  const chain = syntheticChain(3);
  const source = new MemorySource(chain);
  const fetch = source.fetchBlock.bind(source);
  let asked = false;
  source.fetchBlock = (height) => {
    if (height !== 1_000_001) return fetch(height);
    asked = true;
    return new Promise(() => {});
  };
  const { history, loop } = await followInto(t, source);
  loop.start();
  await until(() => asked, 'the hanging fetch');
  let guard: NodeJS.Timeout | undefined;
  const stopped = await Promise.race([
    loop.stop().then(() => true),
    new Promise<boolean>((resolve) => {
      guard = setTimeout(() => resolve(false), 20_000);
    }),
  ]);
  clearTimeout(guard);
  t.ok(stopped, 'stop() settled with the fetch still pending');
  t.equal(history.cursor()?.height, 1_000_000);
});

t.test(
  'a long run of skipped heights is stepped over with the source listing, not height by height',
  async (t) => {
    // A sandbox fast-forward leaves thousands of heights without blocks between two blocks.
    const gap = Array.from({ length: 5000 }, (_, i) => 1_000_010 + i);
    const chain = syntheticChain(20, { skip: gap });
    const dir = tempDir(t);
    writeLake(dir, chain);
    const fetched: number[] = [];
    class Counting extends FileSource {
      override fetchBlock(height: number) {
        fetched.push(height);
        return super.fetchBlock(height);
      }
    }
    const order: number[] = [];
    const store = await Store.open(tempDir(t));
    const history = new HistoryStore(store);
    const loop = new FollowLoop({
      history,
      source: new Counting(dir),
      startHeight: 1_000_000,
      log: logs(),
      concurrency: 8,
      pollMs: 10,
      onBlock: (h) => order.push(h),
    });
    t.teardown(async () => {
      await loop.stop();
      await store.close();
    });
    loop.start();
    const last = chain.at(-1)!.block.header.height;
    t.equal(last, 1_005_019);
    await until(() => history.cursor()?.height === last, 'the blocks after the gap');
    t.same(
      order,
      chain.map((m) => m.block.header.height),
      'every block, in order, once',
    );
    const inGap = fetched.filter((h) => h >= 1_000_010 && h < 1_005_010);
    t.ok(inGap.length <= 8, `${inGap.length} of the 5,000 skipped heights asked for (the window's first)`);
    t.ok(fetched.length < 40, `${fetched.length} fetches in all`);
  },
);

t.test(
  "syncing as nearcore's client decides it: sync_height_threshold 1, back in sync at the tip",
  async (t) => {
    t.equal(syncingAfter(false, null), true, 'the source has not said how far it is: syncing');
    t.equal(syncingAfter(true, 1), true, 'a syncing node stays so until it reaches the tip');
    t.equal(syncingAfter(true, 0), false, 'at the tip it is in sync');
    t.equal(syncingAfter(false, 1), false, 'one height behind is not enough to start syncing');
    t.equal(syncingAfter(false, SYNC_HEIGHT_THRESHOLD + 1), true, 'two heights behind starts it');
    t.equal(syncingAfter(false, 0), false);
    // A follower polls its source's head: a poll's worth of blocks behind for a moment is tailing.
    t.equal(syncingAfter(false, 2, 300, 2000), false, 'two behind for less than two polls: in sync');
    t.equal(syncingAfter(false, 2, 2000, 2000), true, 'behind for two polls: syncing');
    t.equal(syncingAfter(true, 2, 0, 2000), true, 'a syncing node stays so whatever the time');
  },
);

t.test('a write that neither ends nor fails is said in the log while it lasts', async (t) => {
  const chain = syntheticChain(3);
  const store = await Store.open(tempDir(t));
  const history = new HistoryStore(store);
  let release!: () => void;
  const held = new Promise<void>((r) => {
    release = r;
  });
  const write = history.writeBlocks.bind(history);
  history.writeBlocks = async (messages, first) => {
    await held;
    return write(messages, first);
  };
  const log = logs();
  const loop = new FollowLoop({
    history,
    source: new MemorySource(chain),
    startHeight: 1_000_000,
    log,
    pollMs: 10,
    batchSize: 32,
    slowWriteWarnMs: 40,
  });
  t.teardown(async () => {
    release();
    await loop.stop();
    await store.close();
  });
  loop.start();
  const last = chain.at(-1)!.block.header.height;
  await until(() => log.lines.filter((l) => /has not finished after/.test(l)).length >= 2, 'two warnings');
  t.match(
    log.lines.find((l) => /has not finished/.test(l)),
    new RegExp(`^WARN writing blocks 1000000\\.\\.${last} has not finished after \\d+ s$`),
  );
  release();
  await until(() => history.cursor()?.height === last, 'the write done');
  const said = log.lines.filter((l) => /has not finished/.test(l)).length;
  await new Promise((r) => setTimeout(r, 150));
  t.equal(log.lines.filter((l) => /has not finished/.test(l)).length, said, 'and no more once it is done');
});
