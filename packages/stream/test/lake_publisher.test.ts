// run --lake-out's publisher over a real chain: each block is written once final, shards before
// block.json; a restart resumes after the last written height; a failed write is reported and the
// same height is written on the next block, never skipped; nor is a height GC took before it was
// published.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gcStep } from '@nearlite/chain';
import t, { type Test } from 'tap';
import { tempDir } from '../../../test/helpers/tmp.js';
import { LakePublisher } from '../src/publish/lake_publisher.js';
import { DirLakeSink } from '../src/publish/lake_sink.js';
import { StreamerMessageBuilder } from '../src/publish/streamer_message.js';
import { FileSource } from '../src/sources/file.js';
import { openLocalChain } from './helpers.js';

const setup = async (test: Test) => (await openLocalChain(test)).chain;

const folders = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((n) => /^\d{12}$/.test(n)) : []);

t.test('publishes final blocks, resumes, and retries a failed height', async (t) => {
  const chain = await setup(t);
  const dir = join(tempDir(t), 'lake');
  const published: number[] = [];
  let p = await LakePublisher.start(chain, new DirLakeSink(dir), { onPublished: (h) => published.push(h) });
  for (let i = 0; i < 6; i++) await chain.produceBlock();
  await p.stop();
  t.same(published, [0, 1, 2, 3, 4], 'every final block, in order (head 6, final 4)');
  t.same(folders(dir).length, 5);
  for (const h of published) {
    const folder = join(dir, String(h).padStart(12, '0'));
    t.same(readdirSync(folder).sort(), ['block.json', 'shard_0.json', 'shard_1.json']);
  }
  const built = await new StreamerMessageBuilder(chain).build(3);
  t.equal(readFileSync(join(dir, '000000000003', 'block.json'), 'utf8'), built!.block, 'block.json bytes');
  t.equal(readFileSync(join(dir, '000000000003', 'shard_1.json'), 'utf8'), built!.shards[1]!.json);
  const src = new FileSource(dir);
  t.equal((await src.fetchBlock(4))?.block.header.height, 4, 'readable as a Lake source');

  // A restart resumes after the highest height written.
  published.length = 0;
  const errors: number[] = [];
  p = await LakePublisher.start(chain, new DirLakeSink(dir), {
    onPublished: (h) => published.push(h),
    onError: (_e, h) => errors.push(h),
  });
  t.equal(p.nextHeight, 5);
  // A write that fails (the height's folder is a file) is reported, and retried with the next block.
  writeFileSync(join(dir, '000000000005'), 'in the way');
  await chain.produceBlock();
  await chain.produceBlock();
  await p.idle();
  t.ok(errors.length >= 1 && errors.every((h) => h === 5), 'height 5 failed and was reported');
  t.same(published, [], 'nothing after it was written');
  rmSync(join(dir, '000000000005'));
  await chain.produceBlock();
  await p.stop();
  t.same(published, [5, 6, 7], 'height 5 was written once the sink worked, then the rest');
});

t.test('a block a stopped run left without its block.json is written again on resuming', async (t) => {
  const chain = await setup(t);
  const dir = join(tempDir(t), 'lake');
  let p = await LakePublisher.start(chain, new DirLakeSink(dir));
  for (let i = 0; i < 8; i++) await chain.produceBlock();
  await p.stop();
  t.same(folders(dir).map(Number), [0, 1, 2, 3, 4, 5, 6]);
  // What a kill between a block's shard files and its block.json leaves (the files' order above).
  rmSync(join(dir, '000000000006', 'block.json'));
  const published: number[] = [];
  p = await LakePublisher.start(chain, new DirLakeSink(dir), { onPublished: (h) => published.push(h) });
  t.equal(p.nextHeight, 6, 'it resumes at the block without its block.json, not after it');
  await p.stop();
  t.same(published, [6]);
  const built = await new StreamerMessageBuilder(chain).build(6);
  t.equal(readFileSync(join(dir, '000000000006', 'block.json'), 'utf8'), built!.block, 'written whole');
  t.equal((await new FileSource(dir).fetchBlock(6))?.block.header.height, 6, 'and read by a Lake reader');

  // Several such folders at the top (left by a writer before this one): written again from the lowest.
  for (const h of ['000000000005', '000000000006']) rmSync(join(dir, h, 'block.json'));
  p = await LakePublisher.start(chain, new DirLakeSink(dir));
  t.equal(p.nextHeight, 5);
  await p.stop();
  // A sink holding only such a folder starts at it.
  const lone = join(tempDir(t), 'lone');
  let q = await LakePublisher.start(chain, new DirLakeSink(lone));
  await q.stop();
  for (const h of folders(lone).filter((h) => h !== '000000000000'))
    rmSync(join(lone, h), { recursive: true });
  rmSync(join(lone, '000000000000', 'block.json'));
  q = await LakePublisher.start(chain, new DirLakeSink(lone));
  t.equal(q.nextHeight, 0);
  await q.stop();
});

t.test('a height GC took before it was published is reported, never stepped over', async (t) => {
  const { chain } = await openLocalChain(t, { epochLength: 5 });
  const dir = join(tempDir(t), 'lake');
  let p = await LakePublisher.start(chain, new DirLakeSink(dir));
  for (let i = 0; i < 4; i++) await chain.produceBlock();
  await p.stop();
  t.same(folders(dir).map(Number), [0, 1, 2], 'published up to the final block');
  // Publishing stopped while the chain went on, collecting its oldest epochs.
  for (let i = 0; i < 30; i++) {
    await chain.produceBlock();
    while ((await gcStep(chain, { numEpochsToKeep: 3, blocksPerStep: 2 })) > 0) {}
  }
  const first = chain.chainStore.tail()!;
  t.ok(first > 3, `the tail moved to ${first}`);

  const errors: [number, string][] = [];
  const published: number[] = [];
  p = await LakePublisher.start(chain, new DirLakeSink(dir), {
    onPublished: (h) => published.push(h),
    onError: (e, h) => errors.push([h, (e as Error).message]),
  });
  t.equal(p.nextHeight, 3, 'it goes on after the last block the bucket has');
  await chain.produceBlock();
  await chain.produceBlock();
  await p.stop();
  t.same(published, [], 'nothing past the gap');
  t.ok(errors.length >= 2, 'reported with every block');
  t.same(
    new Set(errors.map(([h, m]) => `${h}: ${m}`)),
    new Set(['3: block 3 was garbage collected before it was published']),
  );
  t.same(folders(dir).map(Number), [0, 1, 2]);

  // A new bucket begins at the first block kept.
  const fresh = await LakePublisher.start(chain, new DirLakeSink(join(tempDir(t), 'fresh')));
  t.equal(fresh.nextHeight, first);
  await fresh.stop();
});
