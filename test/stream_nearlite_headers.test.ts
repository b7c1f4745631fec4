// nearlite's own block headers verify as a follower checks them: the hash recomputed from the
// header view (nearcore's BlockHeaderV5 layout) and each block linked to the one before.
import { parseStreamJson, verifiedHeaderLayout, verifyStreamerMessage } from '@nearlite/stream';
import t from 'tap';
import { initHome, startNode, waitForHeight } from './helpers/node.js';
import { tempDir } from './helpers/tmp.js';

t.test("a nearlite producer's block views verify and chain", async (t) => {
  const home = tempDir(t);
  initHome(home, ['--shards', '2']);
  const node = await startNode(home, ['--block-time', '100']);
  t.teardown(() => node.stop());
  await waitForHeight(node, 6);
  let prev: { hash: string; height: number } | null = null;
  for (let h = 0; h <= 6; h++) {
    // Read as a follower reads a source: u64s beyond a double's precision stay exact.
    const res = await fetch(node.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'block', params: { block_id: h } }),
    });
    const body = parseStreamJson(await res.text()) as { result: unknown };
    const block = body.result as { header: { hash: string; height: number; timestamp_nanosec: string } };
    t.ok(verifiedHeaderLayout(block.header) !== null, `block ${h} hash verifies`);
    // A message with no shards exercises the header and link checks alone.
    const message = { block: block as never, shards: [] };
    if (h > 0) t.doesNotThrow(() => verifyStreamerMessage(message, { prev }), `block ${h} links to ${h - 1}`);
    prev = { hash: block.header.hash, height: block.header.height };
  }
});
