// The cursor and block rows are decoded once per stored row: a second read returns what the first
// decoded, and a write or a collection is seen at once.
import { HistoryStore } from '@nearlite/follower';
import { base58Decode, fromUtf8 } from '@nearlite/primitives';
import { DBCol, Store } from '@nearlite/store';
import t from 'tap';
import { syntheticChain } from '../../../test/helpers/synthetic_chain.js';
import { tempDir } from '../../../test/helpers/tmp.js';

t.test('decoded rows follow writes and collection', async (t) => {
  const chain = syntheticChain(30);
  const heightOf = (i: number) => chain[i]!.block.header.height;
  const store = await Store.open(tempDir(t));
  t.teardown(() => store.close());
  const history = new HistoryStore(store, { gcGraceMs: 0 });
  await history.writeBlocks(chain.slice(0, 10), true);

  const cursor = history.cursor()!;
  t.equal(cursor.height, heightOf(9));
  t.equal(history.cursor(), cursor, 'read again: the cursor decoded before');
  // Every synthetic block carries the same transaction: its outcome row is written again by each
  // block, with that block's hash.
  const txOf = (i: number) => chain[i]!.shards.flatMap((s) => s.chunk?.transactions ?? [])[0]!;
  const txHash = base58Decode(txOf(0).transaction.hash);
  const outcomeBlock = async () =>
    (JSON.parse((await history.outcome(txHash))!) as { block_hash: string }).block_hash;
  t.equal(await outcomeBlock(), chain[9]!.block.header.hash, 'a JSON row');
  t.equal(await outcomeBlock(), chain[9]!.block.header.hash, 'read again');

  // Read by hash first, with an array the caller goes on to change.
  const hash = base58Decode(chain[5]!.block.header.hash);
  const byHash = history.blockSync(hash)!;
  hash.fill(0);
  const byHeight = (await history.blockAt(heightOf(5)))!;
  t.equal(byHeight, byHash, 'by height: the block decoded by hash');
  t.same(
    byHeight.hash,
    base58Decode(chain[5]!.block.header.hash),
    "its hash is its own, not the caller's array",
  );
  t.equal(byHeight.height, heightOf(5));
  t.equal(
    byHeight.json,
    fromUtf8(store.get(DBCol.StreamBlock, byHeight.hash)!.subarray(8)),
    'the stored JSON',
  );

  await history.writeBlocks(chain.slice(10, 20), false);
  t.equal(history.cursor()!.height, heightOf(19), 'a write moves the cursor at once');
  t.equal(await outcomeBlock(), chain[19]!.block.header.hash, 'and a JSON row written again');

  for (let i = 0; i < 20 && (history.firstHeight() ?? 0) <= heightOf(5); i++)
    await history.collectGarbage({ keepBlocks: 5 });
  t.ok(history.firstHeight()! > heightOf(5), 'the tail passed the block read before');
  // GC keeps a collected block's header (as nearcore's does), not the block decoded before.
  const collected = await history.blockAt(heightOf(5));
  t.same(
    collected && JSON.parse(collected.json),
    {
      header: JSON.parse(
        JSON.stringify(chain[5]!.block.header, (_k, v) => (typeof v === 'bigint' ? Number(v) : v)),
      ),
    },
    'a collected block is its header alone, though decoded whole before',
  );
  t.equal(history.blockSync(base58Decode(chain[5]!.block.header.hash))?.json, collected?.json, 'by hash too');
});
