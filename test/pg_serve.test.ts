// One writer and two stateless front ends on one PostgreSQL history, all real processes: the front
// ends answer under read load while the chain advances, never from a height beyond the cursor; a
// writer SIGKILLed during catch-up leaves them consistent, and a restarted writer resumes.
import { join } from 'node:path';
import pg from 'pg';
import t from 'tap';
import { type CliProcess, startCli } from './helpers/cli_process.js';
import { MAINNET_GENESIS_HEIGHT } from './helpers/mainnet.js';
import { editProductionDelays } from './helpers/node.js';
import { followLakeArgs, pgHome, storeArgs } from './helpers/pg_home.js';
import { lakePublisher, syntheticChain } from './helpers/synthetic_chain.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

t.test('a writer and two serve front ends share a PostgreSQL history', async (t) => {
  const { metaUrl, shardUrl, dir, home } = await pgHome(t);
  const lake = join(dir, 'blocks');
  const skipped = 10_000_050;
  const chain = syntheticChain(260, {
    from: 10_000_000,
    afterGenesis: MAINNET_GENESIS_HEIGHT,
    skip: [skipped],
  });
  const last = chain.at(-1)!.block.header.height;
  const hashes = new Map(chain.map((m) => [m.block.header.height, m.block.header.hash]));
  const publish = lakePublisher(lake, join(dir, 'staging'));
  publish(chain.slice(0, 60));

  const meta = new pg.Pool({ connectionString: metaUrl, max: 4 });
  // Teardown stops the server under this pool's idle connections; their goodbye is no failure.
  meta.on('error', () => {});
  t.teardown(() => meta.end());
  const cursor = async (): Promise<number> => {
    const r = await meta.query<{ h: string }>(`SELECT block_height AS h FROM meta WHERE name = 'cursor'`);
    return r.rows[0] ? Number(r.rows[0].h) : -1;
  };

  // nearcore's staleness bound is ten times this (3 s): a front end whose cursor stands that long
  // has no new blocks.
  editProductionDelays(home, 100, 300);
  const store = storeArgs({ metaUrl, shardUrl });
  const writerArgs = [...followLakeArgs(home, lake), ...store];
  const procs: CliProcess[] = [];
  t.teardown(async () => {
    for (const p of procs) await p.stop();
  });
  let writer = await startCli(writerArgs);
  procs.push(writer);
  const fronts: CliProcess[] = [];
  for (let i = 0; i < 2; i++) {
    const front = await startCli(['serve', '--home', home, '--rpc-addr', '127.0.0.1:0', ...store]);
    procs.push(front);
    fronts.push(front);
  }

  const problems: string[] = [];
  let answered = 0;
  let beyond = 0;
  let stopLoad = false;
  const load = async (front: CliProcess, seed: number) => {
    for (let i = seed; !stopLoad; i++) {
      const before = await cursor();
      const wanted =
        i % 3 === 0 ? null : 10_000_000 + ((i * 7919) % (Math.max(before, 10_000_000) - 10_000_000 + 4));
      const res = await front.rpc<{ header: { height: number; hash: string } }>(
        'block',
        wanted === null ? { finality: 'final' } : { block_id: wanted },
      );
      const status = await front.rpc<{ sync_info: { latest_block_height: number } }>('status', []);
      const account = await front.rpc<{ block_height: number }>('query', {
        request_type: 'view_account',
        account_id: 'near',
        finality: 'final',
      });
      const after = await cursor();
      const got = res.body.result;
      if (got) {
        if (got.header.height > after)
          problems.push(`block #${got.header.height} served above the cursor ${after}`);
        if (hashes.get(got.header.height) !== got.header.hash)
          problems.push(`block #${got.header.height}: wrong hash`);
      } else if (res.body.error?.cause.name !== 'UNKNOWN_BLOCK') {
        problems.push(`block ${wanted}: ${JSON.stringify(res.body.error)}`);
      } else if (wanted !== null && wanted > before) beyond++;
      const head = status.body.result?.sync_info.latest_block_height;
      if (head === undefined || head > after)
        problems.push(`status reports #${head} with the cursor at ${after}`);
      const at = account.body.result?.block_height;
      if (account.body.error && account.body.error.cause.name !== 'UNKNOWN_BLOCK')
        problems.push(`view_account: ${JSON.stringify(account.body.error)}`);
      if (at !== undefined && at > after) problems.push(`view_account at #${at} above the cursor ${after}`);
      answered++;
    }
  };
  const loads = fronts.flatMap((f, i) => [load(f, i * 2), load(f, i * 2 + 1)]);

  // The chain advances while the front ends are read.
  for (let i = 60; i < 180; i += 30) {
    publish(chain.slice(i, i + 30));
    await sleep(400);
  }
  // The writer is SIGKILLed while it catches up with the rest.
  publish(chain.slice(180));
  await sleep(150);
  await writer.kill();
  const atKill = await cursor();
  t.ok(atKill >= 10_000_000, `writer killed with the cursor at #${atKill}`);
  await sleep(800);
  // The writer is gone: once the cursor has stood past the bound, the front ends are unhealthy.
  for (const front of fronts) await front.rpc('health', []);
  await sleep(3_300);
  for (const [i, front] of fronts.entries()) {
    const health = await front.rpc('health', []);
    t.equal(health.body.error?.cause.name, 'NO_NEW_BLOCKS', `front end ${i}: no new blocks`);
  }
  for (const [i, front] of fronts.entries()) {
    const final = await front.rpc<{ header: { height: number } }>('block', { finality: 'final' });
    t.equal(final.body.result?.header.height, atKill, `front end ${i}: final is the cursor the writer left`);
    const above = await front.rpc('block', { block_id: atKill + 1 });
    t.equal(
      above.body.error?.cause.name,
      'UNKNOWN_BLOCK',
      `front end ${i}: the block after the cursor is unknown`,
    );
  }

  const kinds = async () =>
    Promise.all(
      fronts.map(
        async (f) =>
          (await f.rpc<{ hot_db_kind: string }>('EXPERIMENTAL_split_storage_info', {})).body.result
            ?.hot_db_kind,
      ),
    );
  t.same(await kinds(), ['RPC', 'RPC'], 'the front ends report the GC history the writer made');
  // The operator makes the history archival, the front ends running: they report the kind it has now,
  // as nearcore reads its store's kind at each call.
  writer = await startCli([...writerArgs, '--archive', '--convert-db-kind']);
  procs.push(writer);
  t.same(await kinds(), ['Archive', 'Archive'], 'and the archival history once the writer converted it');
  const deadline = Date.now() + 120_000;
  while ((await cursor()) < last && Date.now() < deadline) await sleep(100);
  t.equal(await cursor(), last, 'the restarted writer resumed to the last block');
  for (const [i, front] of fronts.entries()) {
    const health = await front.rpc('health', []);
    t.equal(health.body.error, undefined, `front end ${i}: healthy once the cursor moves again`);
  }
  await sleep(800);
  stopLoad = true;
  await Promise.all(loads);
  t.same(problems, [], 'no error and no answer beyond the cursor');
  t.ok(answered > 40, `${answered} read rounds answered (${beyond} asked above the cursor)`);

  for (const [i, front] of fronts.entries()) {
    let same = 0;
    for (const m of chain) {
      const h = m.block.header.height;
      const res = await front.rpc<{ header: { hash: string } }>('block', { block_id: h });
      if (res.body.result?.header.hash === m.block.header.hash) same++;
      else t.fail(`front end ${i}: block #${h}`);
    }
    t.equal(same, chain.length, `front end ${i} serves every followed block`);
    const gap = await front.rpc('block', { block_id: skipped });
    t.equal(gap.body.error?.cause.name, 'UNKNOWN_BLOCK', `front end ${i}: the skipped height has no block`);
    const status = await front.rpc<{ sync_info: { latest_block_height: number } }>('status', []);
    t.equal(status.body.result?.sync_info.latest_block_height, last, `front end ${i} reports the cursor`);
    // A front end follows nothing: its head is the writer's cursor and it processes no block itself.
    const metrics = await (await fetch(`${front.url}/metrics`)).text();
    const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(metrics)?.[1]);
    t.equal(value('near_block_height_head'), last, `front end ${i}: near_block_height_head is the cursor`);
    t.equal(value('near_sync_status'), 0, `front end ${i}: in sync`);
    t.equal(value('near_block_processed_total'), 0, `front end ${i}: it wrote no block`);
  }
});
