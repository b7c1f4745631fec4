// A follower's store damaged on disk: after a SIGKILL, LevelDB's log is torn, overwritten or cut, as
// a disk or filesystem can leave it. LevelDB drops the batches it cannot read (32 blocks each while
// catching up) and opens anyway. The follower must then either run on a whole history or refuse,
// naming the heights; `nearlite repair` must roll it back so that following again from the source
// brings every height back, answering as the producer does.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { DBCol, Store, u64be } from '@nearlite/store';
import tap from 'tap';
import { localChain, onSlowClock } from './helpers/chain.js';
import { flatMismatches } from './helpers/flat_check.js';
import { compareHistory, inFlight, type ProducerAnswers, settledTop } from './helpers/follow_compare.js';
import { LOG_DAMAGE, logFile } from './helpers/log_damage.js';
import { MAINNET_GENESIS, MAINNET_GENESIS_HEIGHT } from './helpers/mainnet.js';
import { cli, initHome, type RunningNode, startNode, waitForHeight } from './helpers/node.js';
import { syntheticChain, writeLake } from './helpers/synthetic_chain.js';
import { damageInTables } from './helpers/table_damage.js';
import { tempDir } from './helpers/tmp.js';
import { randomWorkload } from './helpers/workload.js';

type Block = { header: { height: number; hash: string; prev_hash: string } };

// Five damaged histories, each repaired, followed again and compared with the producer read by read
// (~9,000 reads each): about a minute alone and up to three times that beside the other test files on
// two cores; the six minutes every other file gets would leave too little room.
tap.setTimeout(15 * 60_000);

/** Every height from the cursor down answers the producer's block, or nothing where the producer has none. */
async function assertWhole(
  t: Pick<typeof tap, 'equal'>,
  follower: RunningNode,
  producer: RunningNode,
  what: string,
) {
  const top = (await follower.rpc<{ sync_info: { latest_block_height: number } }>('status', [])).body.result!
    .sync_info.latest_block_height;
  const at = (await follower.rpc<Block>('block', { block_id: top })).body.result;
  if (!at) {
    t.equal(top, 0, `${what}: a follower holding no block yet`);
    return;
  }
  let holes = 0;
  await inFlight(top + 1, 8, async (h) => {
    const [f, p] = await Promise.all([
      follower.rpc<Block>('block', { block_id: h }),
      producer.rpc<Block>('block', { block_id: h }),
    ]);
    if (f.body.result?.header.hash !== p.body.result?.header.hash) holes++;
  });
  t.equal(holes, 0, `${what}: every height below the cursor #${top} answers the producer's block`);
}

/** A follower of a synthetic chain of `blocks` blocks read from a lake directory, caught up. */
async function followedLake(t: Parameters<typeof tempDir>[0], blocks: number) {
  const lake = tempDir(t);
  const home = join(lake, 'home');
  const chain = syntheticChain(blocks, { from: 10_000_000, afterGenesis: MAINNET_GENESIS_HEIGHT });
  writeLake(join(lake, 'blocks'), chain);
  initHome(home, ['--genesis', MAINNET_GENESIS]);
  const follow = ['--follow', `file:${join(lake, 'blocks')}`];
  const top = chain.at(-1)!.block.header.height;
  const first = await startNode(home, follow);
  await waitForHeight(first, top, 60_000);
  return { home, chain, follow, top, first };
}

tap.test(
  'a damaged follower runs on a whole history or refuses naming heights; repair restores it',
  async (t) => {
    const seed = Number(process.env.FOLLOW_WORKLOAD_SEED ?? Date.now() % 1_000_000);
    t.comment(`seed ${seed} (FOLLOW_WORKLOAD_SEED reruns it)`);
    const chain = await localChain(t, { blockTimeMs: 30, archive: true });
    const w = await randomWorkload(chain, seed, 4);
    // Enough heights for a dozen batches, so that damage in the middle of the log falls between two.
    const top = Math.max(await settledTop(chain.node), 360);
    await waitForHeight(chain.node, top + 3, 60_000);

    // Caught up after the workload, in batches of 32 blocks: the log holds every batch.
    const source = join(chain.home, 'follower');
    initHome(source, ['--genesis', join(chain.home, 'genesis.json')]);
    const first = await startNode(source, ['--follow', chain.node.url, '--archive']);
    await waitForHeight(first, top, 60_000);
    await first.kill();
    // From here the producer is the source and the reference, nothing more. At 30 ms a block it would
    // add thousands of empty blocks over the cases below, which every follower would ingest while
    // being compared: the same chain on a slow clock leaves the cases about the same heights.
    const producer = await onSlowClock(t, chain, ['--archive']);

    // The heights compared are below the producer's head and final: its answers stay the same
    // from one damaged history to the next, so it is asked each question once.
    const producerAnswers: ProducerAnswers = new Map();
    let refused = 0;
    let rolledBack = 0;
    for (const [what, damage] of LOG_DAMAGE) {
      await t.test(what, async (t) => {
        const home = tempDir(t);
        cpSync(source, home, { recursive: true });
        damage(logFile(home));
        const verify = cli(['inspect', '--home', home, 'verify']);
        let started: RunningNode | null = null;
        try {
          started = await startNode(home, ['--follow', producer.url, '--archive']);
        } catch (err) {
          refused++;
          const message = (err as Error).message;
          t.match(
            message,
            /the followed history is damaged beneath its cursor #\d+: #\d+/,
            'refused, naming the heights',
          );
          t.match(message, `nearlite repair --home ${home}`);
          t.equal(verify.status, 1, 'inspect verify finds it too');
          t.match(verify.stderr, /the followed history is damaged at #\d+/);
        }
        if (started) {
          t.equal(
            verify.status,
            0,
            `inspect verify passes what the start accepted: ${verify.stdout}${verify.stderr}`,
          );
          await assertWhole(t, started, producer, `${what}, as opened`);
          await started.stop();
        }
        const repaired = cli(['repair', '--home', home]);
        t.equal(repaired.status, 0, repaired.stderr);
        t.comment(repaired.stdout.trim());
        if (/rolled back to #\d+/.test(repaired.stdout)) rolledBack++;
        t.match(
          repaired.stdout,
          /rolled back to #\d+\n(.*\n)?dropped \d+ block|every row is deleted|nothing to roll back/,
          'repair says what it did',
        );
        const after = cli(['inspect', '--home', home, 'verify']);
        t.equal(after.status, 0, `inspect verify passes after repair: ${after.stdout}${after.stderr}`);
        const store = await Store.open(join(home, 'data'));
        t.same((await flatMismatches(store)).mismatches, [], 'every flat row is its key newest history row');
        await store.close();

        const again = await startNode(home, ['--follow', producer.url, '--archive']);
        try {
          await waitForHeight(again, top, 60_000);
          await assertWhole(t, again, producer, `${what}, followed again`);
          const { compared } = await compareHistory(
            t,
            producer,
            [['follower', again]],
            w,
            [0],
            top,
            seed,
            false,
            producerAnswers,
          );
          t.ok(compared > top, `${compared} reads answered as the producer's`);
        } finally {
          await again.stop();
        }
      });
    }
    t.ok(refused >= 1, `${refused} of ${LOG_DAMAGE.length} damaged histories refused`);
    t.ok(rolledBack >= 1, `${rolledBack} rolled back to a whole block below the damage, the rest emptied`);
  },
);

tap.test(
  'a follower that lost its genesis batch refuses, rather than writing it again over newer rows',
  async (t) => {
    const { home, chain, follow, top, first } = await followedLake(t, 200);
    await first.kill();
    // The genesis state (mainnet's records) is the log's first large record: a byte early on takes it,
    // and the blocks' batches after it survive.
    LOG_DAMAGE.find(([what]) => what === 'bytes early in the log')![1](logFile(home));
    const verify = cli(['inspect', '--home', home, 'verify']);
    t.equal(verify.status, 1, verify.stdout);
    t.match(verify.stdout, /the genesis state .* is not recorded/);
    await t.rejects(startNode(home, follow), /the followed history is damaged beneath its cursor #10000199/);
    const repaired = cli(['repair', '--home', home]);
    t.equal(repaired.status, 0, repaired.stderr);
    t.match(repaired.stdout, /every row is deleted \(200 block\(s\)\)/);
    const again = await startNode(home, follow);
    try {
      await waitForHeight(again, top, 60_000);
      const { body } = await again.rpc<{ amount: string }>('query', {
        request_type: 'view_account',
        account_id: 'near',
        block_id: top,
      });
      t.ok(body.result?.amount, 'the genesis state is written again and served');
      const { body: block } = await again.rpc<Block>('block', { block_id: 10_000_000 });
      t.equal(block.result?.header.hash, chain[0]!.block.header.hash, 'and every block followed again');
    } finally {
      await again.stop();
    }
  },
);

tap.test(
  'a follower whose table holds damaged blocks names them; repair rolls back below them',
  async (t) => {
    const { home, chain, follow, top, first } = await followedLake(t, 120);
    // A clean stop flushes LevelDB's log into a table: the rows below are in .ldb files only.
    t.equal(await first.stop(), 0);

    // One block altered so that it still parses (a digit of its header's gas price), one so that it
    // does not (its opening brace).
    const [damagedAt, altered] = [top - 40, top - 20];
    const store = await Store.open(join(home, 'data'), { readOnly: true });
    // The row is the height, then the block's JSON text.
    const jsonAt = (h: number) =>
      Buffer.from(store.get(DBCol.StreamBlock, store.get(DBCol.StreamBlockHeight, u64be(h))!)!.subarray(8));
    const [json, alteredJson] = [jsonAt(damagedAt), jsonAt(altered)];
    await store.close();
    // LevelDB verifies no checksum when it reads: a byte changed in a table comes back as it is.
    const found =
      damageInTables(join(home, 'data'), json, (b, at) => {
        b[at] = 0x78; // `x` for the opening brace
      }) +
      damageInTables(join(home, 'data'), alteredJson, (b, at) => {
        const digit = at + alteredJson.indexOf('"gas_price":"') + '"gas_price":"'.length;
        b[digit] = b[digit] === 0x39 ? 0x38 : b[digit]! + 1;
      });
    t.equal(found, 2, 'both blocks were found in a table and damaged');

    const named = new RegExp(
      `the followed history is damaged beneath its cursor #${top}: #${damagedAt}, #${altered} \\(first: #${damagedAt} the block stored at this height is damaged: Unexpected token`,
    );
    await t.rejects(startNode(home, follow), named, 'the start refuses, naming both');
    const verify = cli(['inspect', '--home', home, 'verify']);
    t.equal(verify.status, 1, 'inspect verify fails');
    t.match(verify.stderr, new RegExp(`the followed history is damaged at #${damagedAt}`));
    t.match(
      verify.stdout,
      new RegExp(
        `"height":${altered},"what":"the block stored at this height is damaged: its header does not hash to \\w+"`,
      ),
    );
    const repaired = cli(['repair', '--home', home]);
    t.equal(repaired.status, 0, repaired.stderr);
    t.match(repaired.stdout, new RegExp(`rolled back to #${damagedAt - 1}`));
    t.equal(cli(['inspect', '--home', home, 'verify']).status, 0, 'inspect verify passes');
    const again = await startNode(home, follow);
    try {
      await waitForHeight(again, top, 60_000);
      for (const m of chain) {
        const h = m.block.header.height;
        const { body } = await again.rpc<Block>('block', { block_id: h });
        if (body.result?.header.hash !== m.block.header.hash) t.fail(`#${h} is not the stream's block`);
      }
      t.pass(`every block up to #${top} is followed again`);
    } finally {
      await again.stop();
    }
  },
);
