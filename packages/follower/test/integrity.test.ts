// A followed history that lost whole batches, as LevelDB loses them when its log is damaged: the
// check finds every hole beneath the cursor (and nothing on a whole history with skipped heights),
// and the repair rolls back to the last whole block with the state rows as they were there.
import {
  assertHistoryWhole,
  checkHistory,
  FIRST_KEY,
  HistoryIntegrityError,
  HistoryStore,
  holdsHistory,
  repairHistory,
} from '@nearlite/follower';
import { decodeAccount } from '@nearlite/primitives';
import { DBCol, StoreUpdate, u64be } from '@nearlite/store';
import type { StreamerMessage } from '@nearlite/stream';
import { trieKeyAccount } from '@nearlite/trie';
import t from 'tap';
import { flatMismatches } from '../../../test/helpers/flat_check.js';
import { syntheticChain } from '../../../test/helpers/synthetic_chain.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { openFollower } from './helpers.js';

const FROM = 1_000_000;
// Heights the chain skips: no block, and no problem.
const SKIP = [FROM + 40, FROM + 41, FROM + 97];
const BATCH = 32;

/** The synthetic chain with test.near's balance set to its block's height, so each height's state differs. */
function chain(count: number): StreamerMessage[] {
  const out = syntheticChain(count, { from: FROM, skip: SKIP });
  for (const m of out)
    for (const s of m.shards)
      for (const c of s.state_changes)
        if (c.type === 'account_update')
          (c.change as { amount: string }).amount = String(m.block.header.height);
  return out;
}

/**
 * Writes the genesis state and the chain in batches of 32, as a catch-up does, leaving out the batches
 * `lost` names (and the genesis batch with `genesisLost`).
 */
async function followed(
  t: Parameters<Parameters<typeof t.test>[1]>[0],
  messages: StreamerMessage[],
  lost: number[] = [],
  genesisLost = false,
) {
  const f = await openFollower(tempDir(t), { gcGraceMs: 0 });
  t.teardown(() => f.store.close());
  if (!genesisLost) await f.history.writeGenesis(FROM - 1, []);
  for (let i = 0, b = 0; i < messages.length; i += BATCH, b++) {
    if (lost.includes(b)) continue;
    await f.history.writeBlocks(messages.slice(i, i + BATCH), i === 0);
  }
  return f;
}

const heightOf = (m: StreamerMessage) => m.block.header.height;

async function balanceAt(history: HistoryStore, height: number): Promise<string | null> {
  const v = await history.valueAt(trieKeyAccount('test.near'), height);
  return v ? decodeAccount(v).amount.toString() : null;
}

t.test('a whole history, skipped heights and all, has no problem', async (t) => {
  const messages = chain(150);
  const { history } = await followed(t, messages);
  const full = await checkHistory(history, { window: Number.POSITIVE_INFINITY });
  t.same(full.problems, []);
  t.equal(full.cursor?.height, heightOf(messages.at(-1)!));
  t.equal(full.from, FROM);
  const open = await assertHistoryWhole(history, '/home');
  t.equal(open.from, FROM, 'a history shorter than the window is checked whole on open');
});

t.test('a lost batch beneath the cursor is found, refused and rolled back', async (t) => {
  const messages = chain(200);
  // The third batch: messages 64..95.
  const { history, store } = await followed(t, messages, [2]);
  const lostLow = heightOf(messages[64]!);
  const lostHigh = heightOf(messages[95]!);
  const lastWhole = heightOf(messages[63]!);
  const top = heightOf(messages.at(-1)!);

  const report = await checkHistory(history, { window: Number.POSITIVE_INFINITY });
  t.same(
    report.problems.map((p) => p.height),
    [lostHigh],
    'the lost parent is named at the height its child gives',
  );
  t.match(report.problems[0]!.what, `nothing is stored from #${lastWhole + 1} to #${lostHigh}`);
  // Read as the node would without the check: the lost heights' balances come from older rows.
  t.equal(await balanceAt(history, lostHigh), String(lastWhole), 'the hole would be served as older state');

  await t.rejects(assertHistoryWhole(history, '/some/home'), HistoryIntegrityError);
  await assertHistoryWhole(history, '/some/home').catch((err: Error) => {
    t.match(err.message, `damaged beneath its cursor #${top}: #${lostHigh}`);
    t.match(err.message, '`nearlite repair --home /some/home`');
  });
  // A check bounded above the hole does not reach it: the full one does (`inspect verify`).
  t.same((await checkHistory(history, { window: top - lostHigh - 2 })).problems, []);

  const repaired = await repairHistory(history);
  t.equal(repaired.emptied, false);
  t.equal(repaired.cursor?.height, lastWhole);
  t.equal(history.cursor()?.height, lastWhole);
  t.same(
    repaired.droppedHeights,
    messages.slice(96).map(heightOf),
    'the blocks stored above the hole are dropped',
  );
  for (const m of messages.slice(64)) t.equal(history.blockHashAt(heightOf(m)), undefined);
  t.ok(history.blockHashAt(lastWhole), 'the last whole block stays');
  t.same((await checkHistory(history, { window: Number.POSITIVE_INFINITY })).problems, []);
  t.same((await flatMismatches(store)).mismatches, [], 'every flat row is its key newest history row');
  t.equal(await balanceAt(new HistoryStore(store), lastWhole), String(lastWhole));

  // Following again from the cursor (a new process: nothing read before the repair is remembered)
  // brings the history back whole.
  const again = new HistoryStore(store);
  await again.writeBlocks(messages.slice(64), false);
  t.same((await checkHistory(again, { window: Number.POSITIVE_INFINITY })).problems, []);
  t.same((await flatMismatches(store)).mismatches, []);
  for (const h of [lostLow, lostHigh, top]) t.equal(await balanceAt(again, h), String(h));
});

t.test('a lost first batch leaves nothing to roll back to: the history is emptied', async (t) => {
  const messages = chain(100);
  const { history, store } = await followed(t, messages, [0]);
  const report = await checkHistory(history, { window: Number.POSITIVE_INFINITY });
  t.equal(report.first, null);
  t.match(report.problems.map((p) => p.what).join('; '), 'the first followed height is not recorded');
  const repaired = await repairHistory(history);
  t.equal(repaired.emptied, true);
  t.equal(holdsHistory(store), false, 'the next start writes the genesis state again');
  t.equal(history.cursor(), null);
  for await (const _ of store.iter(DBCol.StreamBlock)) t.fail('a block row is left');
});

t.test("GC's deletions kept while the tail's move was lost: the tail moves up", async (t) => {
  const messages = chain(120);
  const { history } = await followed(t, messages);
  // GC moves the tail past 50 blocks and deletes their rows; then the batch that moved it is lost.
  const done = heightOf(messages[50]!);
  const keepBlocks = heightOf(messages.at(-1)!) - done;
  while (
    (history.firstHeight() ?? 0) < done ||
    (await history.collectGarbage({ keepBlocks, heightsPerStep: 100 })) > 0
  )
    await history.collectGarbage({ keepBlocks, heightsPerStep: 100 });
  await history.collectGarbage({ keepBlocks, heightsPerStep: 100 });
  t.equal(
    history.store.get(DBCol.StreamOutcomeIds, history.blockHashAt(FROM)!),
    undefined,
    'the rows below the tail are deleted',
  );
  t.same(Object.keys(JSON.parse(history.blockAtSync(FROM)!.json)), ['header'], 'but its header');
  const update = new StoreUpdate();
  update.put(DBCol.FollowerMisc, FIRST_KEY, u64be(FROM));
  await history.store.commit(update);
  const report = await checkHistory(history, { window: Number.POSITIVE_INFINITY });
  t.equal(report.collectedTo, done);
  t.match(report.problems[0]!.what, `the rows below #${done} are collected, but the tail is #${FROM}`);
  const repaired = await repairHistory(history);
  t.equal(repaired.cursor?.height, heightOf(messages.at(-1)!), 'nothing above the tail is dropped');
  t.equal(history.firstHeight(), done);
  t.same((await checkHistory(history, { window: Number.POSITIVE_INFINITY })).problems, []);
});

t.test('a block stored at a height the chain skipped is a problem', async (t) => {
  const messages = chain(60);
  const { history } = await followed(t, messages);
  const update = new StoreUpdate();
  update.put(DBCol.StreamBlockHeight, u64be(SKIP[0]!), new Uint8Array(32).fill(7));
  await history.store.commit(update);
  const report = await checkHistory(history, { window: Number.POSITIVE_INFINITY });
  t.same(
    report.problems.map((p) => p.height),
    [SKIP[0]],
  );
  t.match(report.problems[0]!.what, 'a block is stored at a height');
});

t.test('a lost genesis batch: refused, and the repair empties the history', async (t) => {
  const messages = chain(80);
  const { history, store } = await followed(t, messages, [], true);
  t.equal(holdsHistory(store), true, 'the cursor still marks the database as a history');
  const report = await checkHistory(history, { window: 512 });
  t.match(report.problems.map((p) => p.what).join('; '), 'the genesis state');
  await t.rejects(assertHistoryWhole(history, '/h'), HistoryIntegrityError);
  const repaired = await repairHistory(history);
  t.equal(repaired.emptied, true);
  t.equal(history.cursor(), null);
  t.equal(holdsHistory(store), false);
});

t.test(
  'a repair stopped part way leaves a history refused for the same hole; a second one finishes',
  async (t) => {
    const messages = chain(200);
    const { history, store } = await followed(t, messages, [2]);
    const lastWhole = heightOf(messages[63]!);
    const lostHigh = heightOf(messages[95]!);
    // The second of the repair's batches fails, as a process killed between them would leave it.
    const commit = store.commit.bind(store);
    let commits = 0;
    store.commit = async (...args: Parameters<typeof store.commit>) => {
      if (++commits === 2) throw new Error('killed');
      return commit(...args);
    };
    await t.rejects(repairHistory(history, { blocksPerBatch: 40 }), /killed/);
    store.commit = commit;
    const between = new HistoryStore(store);
    const cursor = between.cursor()!;
    t.ok(
      cursor.height > lastWhole && cursor.height < heightOf(messages.at(-1)!),
      `the cursor moved down to #${cursor.height}`,
    );
    t.ok(between.blockHashAt(cursor.height), 'onto a block still stored');
    t.same(
      (await checkHistory(between, { window: Number.POSITIVE_INFINITY })).problems.map((p) => p.height),
      [lostHigh],
      'the hole is still found',
    );
    t.same((await flatMismatches(store)).mismatches, [], 'every flat row is its key newest history row');
    const finished = await repairHistory(between, { blocksPerBatch: 40 });
    t.equal(finished.cursor?.height, lastWhole);
    t.same((await checkHistory(between, { window: Number.POSITIVE_INFINITY })).problems, []);
    t.same((await flatMismatches(store)).mismatches, []);
    t.equal(await balanceAt(new HistoryStore(store), lastWhole), String(lastWhole));
  },
);

t.test('an emptied history goes a batch at a time, its own rows last', async (t) => {
  const messages = chain(70);
  const { history, store } = await followed(t, messages, [0]);
  const repaired = await repairHistory(history, { rowsPerBatch: 5 });
  t.equal(repaired.emptied, true);
  for (const col of Object.values(DBCol))
    if (col !== DBCol.DbVersion)
      for await (const _ of store.iter(col)) t.fail(`a row is left in column ${col.id}`);
});
