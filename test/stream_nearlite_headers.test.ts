// nearlite's own block headers verify as a follower checks them: the hash recomputed from the
// header view (nearcore's BlockHeaderV5 layout) and each block linked to the one before.
import { base58Encode } from '@nearlite/primitives';
import {
  chunkHeadersRoot,
  computeHeaderHash,
  HeaderLayout,
  parseStreamJson,
  verifiedHeaderLayout,
  verifyStreamerMessage,
} from '@nearlite/stream';
import t from 'tap';
import { initHome, type RunningNode, startNode, waitForHeight } from './helpers/node.js';
import { tempDir } from './helpers/tmp.js';

/** A `block` answer read as a follower reads a source: u64s beyond a double's precision stay exact. */
async function readBlock(node: RunningNode, height: number): Promise<{ header: Record<string, unknown> }> {
  const res = await fetch(node.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'block', params: { block_id: height } }),
  });
  return (parseStreamJson(await res.text()) as { result: { header: Record<string, unknown> } }).result;
}

/**
 * The block with a shard for each of its chunks, holding the chunk where it is new and nothing else:
 * what the checks of the header, the links and the chunk headers need of a message.
 */
function message(block: { author?: unknown; header: { height: number }; chunks?: unknown }) {
  const chunks = (block.chunks ?? []) as { shard_id: number; height_included: number }[];
  const shards = chunks.map((c) => ({
    shard_id: c.shard_id,
    chunk:
      c.height_included === block.header.height
        ? { author: block.author, header: c, transactions: [], receipts: [] }
        : null,
    receipt_execution_outcomes: [],
    state_changes: [],
  }));
  return { block: block as never, shards: shards as never };
}

t.test("a nearlite producer's block views verify and chain, its genesis with its chunks", async (t) => {
  const home = tempDir(t);
  initHome(home, ['--shards', '2']);
  const node = await startNode(home, ['--block-time', '100']);
  t.teardown(() => node.stop());
  await waitForHeight(node, 6);
  let prev: { hash: string; height: number } | null = null;
  for (let h = 0; h <= 6; h++) {
    const block = (await readBlock(node, h)) as { header: { hash: string; height: number } };
    // nearlite runs protocol 86: BlockHeaderInnerRestV6, recomputed here from the JSON view.
    t.equal(verifiedHeaderLayout(block.header), HeaderLayout.V6, `block ${h} hash verifies`);
    if (h > 0)
      t.doesNotThrow(() => verifyStreamerMessage(message(block), { prev }), `block ${h} links to ${h - 1}`);
    prev = { hash: block.header.hash, height: block.header.height };
  }

  // The genesis block commits to its chunks; one written before it did still verifies.
  const genesis = await readBlock(node, 0);
  const chunks = (genesis as unknown as { chunks: Record<string, unknown>[] }).chunks;
  t.equal(
    genesis.header.chunk_headers_root,
    base58Encode(chunkHeadersRoot(chunks)),
    'as nearcore’s Block::genesis',
  );
  t.doesNotThrow(() => verifyStreamerMessage(message(genesis)));

  // The same genesis with the zero root nearlite wrote before, its hash recomputed.
  const zero = '11111111111111111111111111111111';
  const legacy = structuredClone(genesis);
  legacy.header.chunk_headers_root = zero;
  legacy.header.hash = base58Encode(computeHeaderHash(legacy.header, HeaderLayout.V5));
  t.doesNotThrow(() => verifyStreamerMessage(message(legacy)), 'a legacy genesis');
  // Any other block with that root is refused.
  const block1 = await readBlock(node, 1);
  const forged = structuredClone(block1);
  forged.header.chunk_headers_root = zero;
  forged.header.hash = base58Encode(computeHeaderHash(forged.header, HeaderLayout.V5));
  t.throws(() => verifyStreamerMessage(message(forged)), {
    check: 'chunk_headers_root',
  });
});
