// exportLake over a real chain on LevelDB: the kept final blocks by default, the range checked
// against what the store holds, and each file the builder's bytes.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gcStep } from '@nearlite/chain';
import t from 'tap';
import { tempDir } from '../../../test/helpers/tmp.js';
import { exportLake, LakeExportError, storedFinalHeight } from '../src/publish/lake_export.js';
import { DirLakeSink } from '../src/publish/lake_sink.js';
import { StreamerMessageBuilder } from '../src/publish/streamer_message.js';
import { openLocalChain } from './helpers.js';

t.test('exports the kept final blocks of a GC node', async (t) => {
  const { chain } = await openLocalChain(t, { numShards: 3, epochLength: 5 });
  for (let i = 0; i < 30; i++) {
    await chain.produceBlock();
    while ((await gcStep(chain, { numEpochsToKeep: 3, blocksPerStep: 2 })) > 0) {}
  }
  const tail = chain.chainStore.tail()!;
  const final = storedFinalHeight(chain)!;
  t.equal(final, 28, 'head 30, final 28');
  t.ok(tail > 0, `GC moved the tail to ${tail}`);

  const dir = join(tempDir(t), 'lake');
  const sink = new DirLakeSink(dir);
  const r = await exportLake(chain, sink);
  t.same(r, { from: tail, to: final, blocks: final - tail + 1 });
  const folders = readdirSync(dir).sort();
  t.equal(folders.length, final - tail + 1);
  t.equal(folders[0], String(tail).padStart(12, '0'));
  const builder = new StreamerMessageBuilder(chain);
  const built = (await builder.build(final))!;
  const folder = join(dir, String(final).padStart(12, '0'));
  t.same(readdirSync(folder).sort(), ['block.json', 'shard_0.json', 'shard_1.json', 'shard_2.json']);
  t.equal(readFileSync(join(folder, 'block.json'), 'utf8'), built.block);
  for (const s of built.shards)
    t.equal(readFileSync(join(folder, `shard_${s.shardId}.json`), 'utf8'), s.json);

  await t.rejects(exportLake(chain, sink, { from: tail - 1 }), LakeExportError, 'below the tail');
  await t.rejects(exportLake(chain, sink, { to: final + 1 }), LakeExportError, 'above the final block');
  await t.rejects(exportLake(chain, sink, { from: 20, to: 19 }), LakeExportError, 'an empty range');
  t.same(await exportLake(chain, sink, { from: 20, to: 20 }), { from: 20, to: 20, blocks: 1 });
});
