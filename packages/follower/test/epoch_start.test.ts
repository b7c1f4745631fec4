// Where the head's epoch began, from the blocks a history holds: the first of its epoch id, found
// by halving over held heights (skipped ones included), or unknown where the history begins inside
// the epoch.
import { EpochStarts, HeaderFactsCache, type HistoryReader, type StoredBlock } from '@nearlite/follower';
import { base58Encode } from '@nearlite/primitives';
import t from 'tap';

const EPOCH = [1, 2, 3].map((b) => base58Encode(new Uint8Array(32).fill(b)));

/** Blocks at `heights`, each naming the epoch `epochOf` gives its height. */
function history(heights: readonly number[], epochOf: (h: number) => string) {
  const blocks = new Map<number, StoredBlock>(
    heights.map((h) => [
      h,
      {
        height: h,
        hash: new Uint8Array(32).fill(h % 256),
        json: JSON.stringify({
          header: { height: h, epoch_id: epochOf(h), timestamp: 0, latest_protocol_version: 73 },
        }),
      },
    ]),
  );
  let reads = 0;
  const reader = {
    firstHeight: () => heights[0] ?? null,
    blockAt: async (h: number) => {
      reads++;
      return blocks.get(h);
    },
  } as unknown as HistoryReader;
  return { reader, blocks, reads: () => reads };
}

t.test('the first held block of the head epoch, skipped heights around it', async (t) => {
  const heights = Array.from({ length: 5000 }, (_, i) => 1000 + i).filter((h) => h < 3200 || h > 3204);
  const epochOf = (h: number) => (h < 2000 ? EPOCH[0]! : h < 3205 ? EPOCH[1]! : EPOCH[2]!);
  const { reader, blocks, reads } = history(heights, epochOf);
  const facts = new HeaderFactsCache();
  const starts = new EpochStarts(reader, facts);
  const head = facts.of(blocks.get(5999)!);
  t.equal(await starts.of(head), 3205, 'the epoch after the skipped heights 3200–3204');
  const searched = reads();
  t.ok(searched < 60, `found in ${searched} reads, not a scan`);
  t.equal(await starts.of(facts.of(blocks.get(5998)!)), 3205, 'the same epoch');
  t.equal(reads(), searched, 'kept for the epoch');
  t.equal(await starts.of(facts.of(blocks.get(2500)!)), 2000, 'an earlier epoch');
});

t.test('unknown where the history begins inside the head epoch', async (t) => {
  const { reader, blocks } = history(
    Array.from({ length: 100 }, (_, i) => 500 + i),
    () => EPOCH[0]!,
  );
  const facts = new HeaderFactsCache();
  t.equal(await new EpochStarts(reader, facts).of(facts.of(blocks.get(599)!)), null);
});
