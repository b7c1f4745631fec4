// A store damaged on disk: after a SIGKILL, LevelDB's log is torn, overwritten or cut, as a disk or
// filesystem can leave it. The node must then either run on a whole chain or refuse, naming the
// heights; `nearlite repair` must bring it back to a chain it can run on and serve in full.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ChainStore, loadGenesisConfig, repairChain, shardLayoutFromView } from '@nearlite/chain';
import { DBCol, Store, StoreUpdate, u64be } from '@nearlite/store';
import t from 'tap';
import { LOG_DAMAGE, logFile } from './helpers/log_damage.js';
import { cli, initHome, type RunningNode, startNode, waitForHeight } from './helpers/node.js';
import { damageInTables } from './helpers/table_damage.js';
import { tempDir } from './helpers/tmp.js';

type Block = { header: { height: number; hash: string; prev_hash: string } };
type Checks = Pick<typeof t, 'fail' | 'equal'>;
type RepairChecks = Pick<typeof t, 'fail' | 'equal' | 'match'>;
type FinalRecord = { height: number; hash: string };

/** Every kept height answers `block`, and each links to the one below: no hole is served. */
async function assertWhole(t: Checks, node: RunningNode, what: string): Promise<number> {
  const head = (await node.rpc<Block>('block', { finality: 'optimistic' })).body.result!.header;
  let above: Block['header'] | null = null;
  for (let h = head.height; h >= 0; h--) {
    const r = await node.rpc<Block>('block', { block_id: h });
    if (!r.body.result) {
      t.fail(`${what}: #${h} below head #${head.height} answers ${r.body.error?.cause.name}`);
      return head.height;
    }
    if (above) t.equal(above.prev_hash, r.body.result.header.hash, `${what}: #${h + 1} links to #${h}`);
    above = r.body.result.header;
  }
  return head.height;
}

/**
 * `repair`, which must say it rolled back to `#to`; then `inspect verify` passes and `check` runs on
 * the node started again. Returns what repair printed.
 */
async function repairedTo(
  t: RepairChecks,
  home: string,
  to: number,
  check: (node: RunningNode) => Promise<unknown>,
): Promise<string> {
  const repaired = cli(['repair', '--home', home]);
  t.equal(repaired.status, 0, repaired.stderr);
  t.match(repaired.stdout, new RegExp(`rolled back to #${to}`));
  t.equal(cli(['inspect', '--home', home, 'verify']).status, 0, 'inspect verify passes');
  const again = await startNode(home, ['--block-time', '20']);
  try {
    await check(again);
  } finally {
    await again.stop();
  }
  return repaired.stdout;
}

/**
 * A chain run to `height` and stopped cleanly, which flushes LevelDB's log into a table (the rows are
 * in .ldb files only), with its store opened read-only.
 */
async function stoppedChain(t: Checks & { teardown(fn: () => unknown): void }, height: number) {
  const home = tempDir(t);
  initHome(home);
  const node = await startNode(home, ['--block-time', '20']);
  await waitForHeight(node, height);
  t.equal(await node.stop(), 0);
  const store = await Store.open(join(home, 'data'), { readOnly: true });
  return { home, store, cs: new ChainStore(store) };
}

t.test(
  'a damaged log: the node runs on a whole chain or refuses naming heights; repair restores it',
  async (t) => {
    const source = tempDir(t);
    initHome(source);
    const node = await startNode(source, ['--block-time', '20']);
    await waitForHeight(node, 60);
    await node.kill();

    for (const [what, damage] of LOG_DAMAGE) {
      await t.test(what, async (t) => {
        const home = tempDir(t);
        cpSync(source, home, { recursive: true });
        damage(logFile(home));
        let started: RunningNode | null = null;
        try {
          started = await startNode(home, ['--block-time', '600000']);
        } catch (err) {
          const message = (err as Error).message;
          t.match(
            message,
            /damaged beneath its head #\d+: #\d+|no longer holds final block #\d+/,
            'refused, naming the heights',
          );
          // Nor is a hole published: it would read as heights the chain skipped. (A whole chain that
          // lost its announced top exports what it holds.)
          if (/damaged beneath its head/.test(message)) {
            const exported = cli(['lake-export', '--home', home, '--out', tempDir(t)]);
            t.equal(exported.status, 1, 'lake-export refuses it too');
            t.match(exported.stderr, /the store is damaged at #\d+/);
          }
        }
        if (started) {
          await assertWhole(t, started, `${what}, as opened`);
          await started.stop();
        }
        const repaired = cli(['repair', '--home', home]);
        t.equal(repaired.status, 0, repaired.stderr);
        t.match(
          repaired.stdout,
          /rolled back to #\d+|rebuilds the chain from genesis|nothing to roll back/,
          'repair says what it did',
        );
        const verify = cli(['inspect', '--home', home, 'verify']);
        t.equal(verify.status, 0, `inspect verify passes after repair: ${verify.stdout}${verify.stderr}`);
        const after = await startNode(home, ['--block-time', '20']);
        try {
          const head = await assertWhole(t, after, `${what}, repaired`);
          await waitForHeight(after, head + 3);
          await assertWhole(t, after, `${what}, producing again`);
        } finally {
          await after.stop();
        }
      });
    }
  },
);

t.test('a home whose data directory was removed starts a new chain, as nearcore does', async (t) => {
  const home = tempDir(t);
  initHome(home);
  const first = await startNode(home, ['--block-time', '20']);
  await waitForHeight(first, 20);
  const old = (await first.rpc<Block>('block', { finality: 'final' })).body.result!.header;
  const oldFirst = (await first.rpc<Block>('block', { block_id: 1 })).body.result!.header.hash;
  await first.kill();
  const seen = JSON.parse(readFileSync(join(home, 'final_head.json'), 'utf8')) as FinalRecord;
  t.ok(seen.height >= old.height, `the home recorded final block #${seen.height}`);

  // How a local chain is reset: the store's directory goes, the home stays.
  rmSync(join(home, 'data'), { recursive: true });
  const again = await startNode(home, ['--block-time', '20']);
  t.match(
    again.logs(),
    new RegExp(`a new chain starts from genesis, and final block #${seen.height} \\(`),
    'the operator is told which final block is forgotten',
  );
  await waitForHeight(again, 3);
  const fresh = (await again.rpc<Block>('block', { block_id: 1 })).body.result?.header.hash;
  t.ok(fresh !== undefined && fresh !== oldFirst, 'a new chain, made from genesis again');
  await again.stop();
  // The record follows the new chain now: the next start accepts the store.
  const now = JSON.parse(readFileSync(join(home, 'final_head.json'), 'utf8')) as FinalRecord;
  const third = await startNode(home, ['--block-time', '20']);
  t.teardown(() => third.stop());
  const stored = await third.rpc<Block>('block', { block_id: now.height });
  t.equal(stored.body.result?.header.hash, now.hash);
});

t.test('inspect verify checks every kept height', async (t) => {
  const home = tempDir(t);
  initHome(home);
  const node = await startNode(home, ['--block-time', '20']);
  await waitForHeight(node, 30);
  await node.stop();
  const clean = cli(['inspect', '--home', home, 'verify']);
  t.equal(clean.status, 0, clean.stderr);
  const report = JSON.parse(clean.stdout) as { problems: unknown[]; checked_heights: number };
  t.same(report.problems, []);
  t.ok(report.checked_heights >= 30, 'every kept height checked');
});

t.test('inspect and repair on a home the node never ran on say so and leave no database', async (t) => {
  const home = tempDir(t);
  initHome(home);
  const data = join(home, 'data');
  for (const what of ['stats', 'verify', 'block']) {
    const r = cli(['inspect', '--home', home, what]);
    t.equal(r.status, 1, `inspect ${what}: exit status 1`);
    t.equal(r.stderr, `nearlite: no database at ${data}\n`, `inspect ${what}: says there is none`);
  }
  const repaired = cli(['repair', '--home', home]);
  t.equal(repaired.status, 0, repaired.stderr);
  t.equal(repaired.stdout, `no database at ${data}: nothing to repair\n`);
  t.notOk(existsSync(data), 'nothing made where the database would be');
  // The first start still makes the chain there.
  const node = await startNode(home, ['--block-time', '20']);
  t.teardown(() => node.stop());
  await waitForHeight(node, 2);
});

t.test('a clean stop vouches for the store only while nothing has touched it since', async (t) => {
  const home = tempDir(t);
  initHome(home);
  const marker = join(home, 'clean_stop.json');
  const first = await startNode(home, ['--block-time', '20']);
  await waitForHeight(first, 40);
  t.equal(await first.stop(), 0);
  t.ok(existsSync(marker), 'a clean stop leaves its record');
  const logs = readdirSync(join(home, 'data')).filter((f) => f.endsWith('.log'));
  t.same(
    logs.map((f) => statSync(join(home, 'data', f)).size),
    logs.map(() => 0),
    "LevelDB's log was flushed into a table: nothing depends on replaying it",
  );

  const again = await startNode(home, ['--block-time', '600000']);
  t.match(again.logs(), /as its clean stop at #\d+ left it/, 'the start after a clean stop trusts it');
  t.notOk(existsSync(marker), 'the record is taken by the start that trusts it');
  const head = await assertWhole(t, again, 'after a clean stop');
  // A crash of this run must leave nothing that vouches for the store.
  await again.kill();
  t.notOk(existsSync(marker), 'a killed run leaves no record');

  const checked = await startNode(home, ['--block-time', '600000']);
  t.notMatch(checked.logs(), /clean stop/, 'after a crash every height in the window is checked');
  t.equal(await checked.stop(), 0);
  t.ok(existsSync(marker));

  // Another program opens the database after the clean stop and drops a height from the index.
  const hole = head - 5;
  const store = await Store.open(join(home, 'data'));
  await store.commit(new StoreUpdate().delete(DBCol.BlockHeight, u64be(hole)));
  await store.close();
  await t.rejects(
    startNode(home, ['--block-time', '600000']),
    new RegExp(`damaged beneath its head #\\d+: #${hole}`),
    'the record no longer matches the files, so the window is checked and the hole named',
  );
});

t.test(
  'a clean stop that cannot write its record still stops cleanly, and the next start checks',
  async (t) => {
    const home = tempDir(t);
    initHome(home);
    const node = await startNode(home, ['--block-time', '20']);
    await waitForHeight(node, 10);
    // Where the record is written first stands something that cannot be written, as a full disk refuses.
    mkdirSync(join(home, 'clean_stop.json.tmp'));
    t.equal(await node.stop(), 0, 'the store closed whole: a clean exit');
    t.match(
      node.logs(),
      /the clean-stop record could not be written \(cannot write \S*clean_stop\.json: EISDIR[^)]*\): the next start checks the store/,
    );
    t.notOk(existsSync(join(home, 'clean_stop.json')), 'no record, not a half-written one');
    const again = await startNode(home, ['--block-time', '600000']);
    t.teardown(() => again.stop());
    t.notMatch(again.logs(), /clean stop/, 'the start checks every height in the window');
    await assertWhole(t, again, 'after a stop without its record');
  },
);

t.test('a repair stopped part way: the start refuses the store, the next repair finishes it', async (t) => {
  const home = tempDir(t);
  initHome(home);
  const node = await startNode(home, ['--block-time', '20']);
  await waitForHeight(node, 40);
  await node.kill();

  const genesis = loadGenesisConfig(join(home, 'genesis.json'));
  const shardIds = shardLayoutFromView(genesis.shardLayout).shardIds;
  const store = await Store.open(join(home, 'data'));
  const head = new ChainStore(store).head()!.height;
  const hole = head - 12;
  await store.commit(new StoreUpdate().delete(DBCol.BlockHeight, u64be(hole)));
  // The repair's third batch never lands, as if the process died there.
  const commit = store.commit.bind(store);
  let commits = 0;
  store.commit = async (...args: Parameters<typeof store.commit>) => {
    if (++commits === 3) throw new Error('stopped');
    return commit(...args);
  };
  await t.rejects(
    repairChain(store, shardIds, genesis.genesisHeight, { blocksPerBatch: 2, rowsPerBatch: 3 }),
  );
  store.commit = commit;
  await store.close();

  const refusal = new RegExp(
    `a repair of the store stopped part way through rolling the store back to #${hole - 1}\\. Refusing to run on it; \`nearlite repair --home .*\` finishes it`,
  );
  await t.rejects(startNode(home, ['--block-time', '600000']), refusal);
  const verify = cli(['inspect', '--home', home, 'verify']);
  t.equal(verify.status, 1, 'inspect verify fails');
  t.match(verify.stdout, /a repair stopped part way through rolling the store back/);
  t.match(
    verify.stderr,
    new RegExp(
      `a repair of the store stopped part way through rolling the store back to #${hole - 1}; \`nearlite repair --home .*\` finishes it`,
    ),
    'and says what finishes it, as the start does',
  );
  t.notMatch(verify.stderr, /damaged/);
  const exported = cli(['lake-export', '--home', home, '--out', tempDir(t)]);
  t.equal(exported.status, 1, 'lake-export refuses it');

  const repaired = await repairedTo(t, home, hole - 1, async (again) => {
    const top = await assertWhole(t, again, 'repaired');
    await waitForHeight(again, top + 3);
    await assertWhole(t, again, 'producing again');
  });
  t.match(
    repaired,
    new RegExp(
      `going on with a repair that stopped part way through rolling the store back to #${hole - 1}\n`,
    ),
  );
  t.match(
    repaired,
    new RegExp(`rolling back to #${hole - 1}: every block above it up to the head #${head} goes\n`),
  );
  // The stopped run's deletions went uncounted: the heights are named, with what this run dropped.
  t.match(
    repaired,
    new RegExp(
      `dropped every block above #${hole - 1} up to #${head}, [1-9]\\d* block\\(s\\) \\(#\\d+.*\\) of them with \\d+ transaction\\(s\\) in this run`,
    ),
  );
  t.notMatch(repaired, /\(\)/, 'no empty list');
});

t.test('a repair stopped after its last deletion: the next one names the heights it dropped', async (t) => {
  const home = tempDir(t);
  initHome(home);
  const node = await startNode(home, ['--block-time', '20']);
  await waitForHeight(node, 30);
  await node.kill();
  const genesis = loadGenesisConfig(join(home, 'genesis.json'));
  const shardIds = shardLayoutFromView(genesis.shardLayout).shardIds;
  const store = await Store.open(join(home, 'data'));
  const cs = new ChainStore(store);
  const head = cs.head()!.height;
  const hole = head - 8;
  const holeHash = cs.blockHashByHeight(hole)!;
  await store.commit(new StoreUpdate().delete(DBCol.BlockHeight, u64be(hole)));
  // Every block above the target gone (the hole's, which no height names, last), the process dies
  // before the head moves.
  const commit = store.commit.bind(store);
  store.commit = async (...args: Parameters<typeof store.commit>) => {
    let above = store.get(DBCol.BlockHeader, holeHash) !== undefined;
    for await (const _ of store.iter(DBCol.BlockHeight, undefined, { gte: u64be(hole), limit: 1 }))
      above = true;
    if (!above) throw new Error('stopped');
    return commit(...args);
  };
  await t.rejects(repairChain(store, shardIds, genesis.genesisHeight, { blocksPerBatch: 2 }));
  store.commit = commit;
  await store.close();

  const repaired = cli(['repair', '--home', home]);
  t.equal(repaired.status, 0, repaired.stderr);
  t.match(repaired.stdout, new RegExp(`rolled back to #${hole - 1}\n`));
  t.match(
    repaired.stdout,
    new RegExp(`dropped every block above #${hole - 1} up to #${head}, all of them before this run\n`),
  );
  t.notMatch(repaired.stdout, /\(\)/, 'no empty list');
  t.equal(cli(['inspect', '--home', home, 'verify']).status, 0, 'inspect verify passes');
});

t.test('a damaged table: altered header bytes are named, and repair rolls back below them', async (t) => {
  const { home, store, cs } = await stoppedChain(t, 60);
  const head = cs.head()!.height;
  const [altered, undecodable] = [head - 20, head - 10];
  const headerOf = (h: number) => store.get(DBCol.BlockHeader, cs.blockHashByHeight(h)!)!;
  const rows = [altered, undecodable].map((h) => Buffer.from(headerOf(h)));
  await store.close();

  // LevelDB verifies no checksum when it reads, so the bytes come back as the disk has them. The
  // tables are written uncompressed: each header is found as it is, and damaged in place — one a
  // changed byte of its random value (still a header, of another block), the other a length that
  // runs past its end.
  // The header's hash and prev_hash, then inner_lite: height, four hashes, timestamp, two hashes.
  // inner_rest opens with six hashes (random_value the last) and the proposals' length.
  const innerRest = 64 + 8 + 32 * 4 + 8 + 32 * 2;
  const damaged =
    damageInTables(join(home, 'data'), rows[0]!, (b, at) => {
      b[at + innerRest + 32 * 5]! ^= 0x01;
    }) +
    damageInTables(join(home, 'data'), rows[1]!, (b, at) =>
      b.writeUInt32LE(0xfffffff, at + innerRest + 32 * 6),
    );
  t.equal(damaged, 2, 'both headers were found in the tables and damaged');

  const named = new RegExp(
    `the store is damaged beneath its head #${head}: #${altered}, #${undecodable} \\(first: #${altered} the header of block \\w+ is damaged: its contents hash to \\w+\\)`,
  );
  await t.rejects(startNode(home, ['--block-time', '20']), named, 'the start refuses, naming both');
  const verify = cli(['inspect', '--home', home, 'verify']);
  t.equal(verify.status, 1, 'inspect verify fails');
  const problems = (JSON.parse(verify.stdout) as { problems: { height: number; what: string }[] }).problems;
  t.same(
    problems.map((p) => p.height),
    [altered, undecodable],
  );
  t.match(problems[0]!.what, /the header of block \w+ is damaged: its contents hash to \w+/);
  t.match(problems[1]!.what, /the header of block \w+ is damaged: Unexpected length of input/);

  await repairedTo(t, home, altered - 1, async (again) => {
    await waitForHeight(again, head + 5);
    await assertWhole(t, again, 'after the repair');
  });
});

t.test('a damaged trie node in a table is named, not decoded; repair rolls back below it', async (t) => {
  const { home, store, cs } = await stoppedChain(t, 30);
  const head = cs.head()!;
  const root = cs.chunkExtra(head.hash, 0)!.stateRoot;
  const nodeBytes = Buffer.from(store.get(DBCol.State, root)!);
  await store.close();

  // Trie nodes are keyed by the hash of their bytes: a byte changed in the table no longer matches.
  const found = damageInTables(join(home, 'data'), nodeBytes, (b, at) => {
    b[at + nodeBytes.length - 1]! ^= 0x01;
  });
  t.equal(found, 1, "the head's state root node was found in a table and damaged");

  await t.rejects(
    startNode(home, ['--block-time', '20']),
    new RegExp(
      `the store is damaged beneath its head #${head.height}: #${head.height} \\(first: #${head.height} shard 0: the state root node is damaged: the State row \\w+ is damaged: its bytes hash to \\w+\\)`,
    ),
    'the start refuses, naming it',
  );
  await repairedTo(t, home, head.height - 1, async (again) => {
    await waitForHeight(again, head.height + 5);
    const view = await again.rpc<{ amount: string }>('query', {
      request_type: 'view_account',
      account_id: 'test.near',
      finality: 'final',
    });
    t.ok(view.body.result?.amount, 'the state after the repair is read');
  });
  // The block made again at the damaged block's height has the same state: writing its root node
  // again replaced the damaged bytes.
  const after = await Store.open(join(home, 'data'), { readOnly: true });
  t.same(Buffer.from(after.get(DBCol.State, root)!), nodeBytes, 'the damaged node is whole again');
  await after.close();
});
