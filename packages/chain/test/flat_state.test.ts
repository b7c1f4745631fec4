// Flat head-state rows are keyed by shard: keys with no account in them (the delayed-receipt queue,
// the yield queue, the bandwidth scheduler's state) exist once per shard. A store written before,
// with rows keyed by the trie key alone, is rebuilt from the head's state roots when opened.
import {
  ChainStore,
  FLAT_STATE_BY_SHARD_KEY,
  flatStateReader,
  openLocalnetChain,
  trieStorage,
} from '@nearlite/chain';
import { DBCol, Store, StoreUpdate } from '@nearlite/store';
import { Trie, trieKeyAccount, trieKeyBandwidthSchedulerState } from '@nearlite/trie';
import t from 'tap';
import { openProtocol86Chain, protocol86Localnet } from '../../../test/helpers/protocol86_chain.js';
import { flatRows, fromTries } from './flat_rows.js';

t.test('every shard has its own row of a key every shard has', async (t) => {
  const store = await Store.memory();
  const { raw, signer } = protocol86Localnet(4);
  const chain = await openProtocol86Chain(raw, signer, store);
  await chain.produceBlocks(3);
  const key = trieKeyBandwidthSchedulerState();
  const values = chain.layout.shardIds.map((s) => flatStateReader(store, s).get(key));
  t.ok(
    values.every((v) => v !== undefined),
    'every shard has a bandwidth scheduler state',
  );
  t.same(
    await flatRows(store),
    fromTries(store, chain.layout.shardIds, chain.head().hash),
    'the flat rows are the tries of the head, shard by shard',
  );
  t.equal(
    flatStateReader(store, chain.layout.accountIdToShardId('near')).get(trieKeyAccount('test.near')),
    undefined,
    "an account is not in another shard's rows",
  );
});

t.test('a store whose flat rows have no shard is rebuilt once, when opened', async (t) => {
  const store = await Store.memory();
  const chain = await openLocalnetChain(store, { numShards: 4 });
  await chain.produceBlocks(3);
  const shardIds = chain.layout.shardIds;
  const head = chain.head().hash;
  const want = fromTries(store, shardIds, head);
  // The rows as stores before this wrote them: the trie key alone, the last shard's row of a key
  // every shard has standing for all of them.
  const old = new StoreUpdate();
  for await (const [k] of store.iter(DBCol.FlatState)) old.delete(DBCol.FlatState, k.slice());
  const cs = new ChainStore(store);
  for (const shardId of shardIds) {
    const trie = new Trie(trieStorage(store), cs.chunkExtra(head, shardId)!.stateRoot);
    for (const [k, v] of trie.iterPrefix(new Uint8Array(0))) old.put(DBCol.FlatState, k, v);
  }
  old.delete(DBCol.BlockMisc, FLAT_STATE_BY_SHARD_KEY);
  await store.commit(old);

  const reopened = await openLocalnetChain(store, { numShards: 4 });
  t.same(reopened.head().hash, head, 'the same chain');
  t.same(await flatRows(store), want, 'the rows were rebuilt under their shards');
  t.ok(store.get(DBCol.BlockMisc, FLAT_STATE_BY_SHARD_KEY), 'and the store says so');
  await reopened.produceBlock();
  t.same(
    await flatRows(store),
    fromTries(store, shardIds, reopened.head().hash),
    'the next block keeps them in step',
  );
});
