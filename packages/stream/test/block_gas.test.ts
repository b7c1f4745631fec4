// The gas a followed block counts for the status line: its new chunks' `gas_used`, as nearcore's
// Block::compute_gas_used sums it, on a mainnet block of the stream.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BlockViewJson, blockGasUsed } from '@nearlite/stream';
import t from 'tap';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'stream');

t.test("a block's gas is the sum of its new chunks' gas_used", async (t) => {
  const block = JSON.parse(
    readFileSync(join(FIXTURES, 'mainnet-107503704.block.json'), 'utf8'),
  ) as BlockViewJson;
  // Mainnet's four chunks of #107503704 used 13,206,486,412,890, 0, 18,992,367,501,374 and
  // 47,262,988,974,297 gas.
  t.equal(blockGasUsed(block), 79_461_842_888_561n);
  // A shard whose chunk is missing carries its last chunk's header, included at an earlier height:
  // that gas was counted with the block that included it.
  const missed = {
    ...block,
    chunks: block.chunks.map((c, i) => (i === 3 ? { ...c, height_included: 107_503_703 } : c)),
  };
  t.equal(blockGasUsed(missed), 79_461_842_888_561n - 47_262_988_974_297n);
});
