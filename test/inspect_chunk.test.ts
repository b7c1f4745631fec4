// `inspect chunk` lists the chunk's transaction hashes and receipt ids, on a producer's home and on a
// follower's, as the node's `chunk` answer holds them: what a user then passes to `inspect tx` or the RPC.
import { join } from 'node:path';
import { KeyPair } from 'near-api-js';
import t from 'tap';
import { localChain } from './helpers/chain.js';
import { cli, startFollower, waitForHeight } from './helpers/node.js';

interface ChunkAnswer {
  transactions: { hash: string }[];
  receipts: { receipt_id: string }[];
}

t.test("inspect chunk names the chunk's transactions and receipts", async (t) => {
  const chain = await localChain(t, { shards: 2, blockTimeMs: 80 });
  const { root, node } = chain;
  // An account on the other shard: its creation's receipt leaves the sender's chunk as an outgoing receipt.
  await root.createAccount({
    newAccountId: 'zed.test.near',
    publicKey: KeyPair.fromRandom('ed25519').getPublicKey(),
    nearToTransfer: 10n ** 24n,
  });
  await root.transfer({ receiverId: 'zed.test.near', amount: 1n });
  const top = (await node.rpc<{ header: { height: number } }>('block', { finality: 'final' })).body.result!
    .header.height;
  const busy: { height: number; shard: number; chunk: ChunkAnswer }[] = [];
  for (let height = 1; height <= top; height++) {
    for (const shard of [0, 1]) {
      const chunk = (await node.rpc<ChunkAnswer>('chunk', { block_id: height, shard_id: shard })).body.result;
      if (chunk && chunk.transactions.length + chunk.receipts.length > 0) busy.push({ height, shard, chunk });
    }
  }
  t.ok(
    busy.some((b) => b.chunk.transactions.length > 0),
    'a chunk with transactions',
  );
  t.ok(
    busy.some((b) => b.chunk.receipts.length > 0),
    'a chunk with receipts',
  );

  const follower = await startFollower(chain.home, node.url);
  await waitForHeight(follower, top, 60_000);
  await follower.stop();
  await node.stop();

  for (const [what, home] of [
    ['producer', chain.home],
    ['follower', join(chain.home, 'follower')],
  ] as const) {
    for (const { height, shard, chunk } of busy) {
      const r = cli(['inspect', '--home', home, 'chunk', String(height), String(shard)]);
      t.equal(r.status, 0, r.stderr);
      const inspected = JSON.parse(r.stdout) as { transactions: string[]; receipts: string[] };
      t.same(
        inspected.transactions,
        chunk.transactions.map((x) => x.hash),
        `${what}: the transactions of chunk ${height}/${shard}`,
      );
      t.same(
        inspected.receipts,
        chunk.receipts.map((x) => x.receipt_id),
        `${what}: the receipts of chunk ${height}/${shard}`,
      );
    }
  }
});
