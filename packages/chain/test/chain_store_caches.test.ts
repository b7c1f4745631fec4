// A ChainStore keeps as many decoded headers as it is given: a producer's few, a reader's many.
import { ChainStore, openLocalnetChain, PRODUCER_CACHES, READER_CACHES } from '@nearlite/chain';
import { Store } from '@nearlite/store';
import t from 'tap';
import { tempDir } from '../../../test/helpers/tmp.js';

t.test("the producer's caches hold the blocks near the head, a reader's many more", async (t) => {
  const store = await Store.open(tempDir(t));
  t.teardown(() => store.close());
  const chain = await openLocalnetChain(store, { numShards: 1 });
  for (let i = 0; i < 40; i++) await chain.produceBlock();
  t.ok(PRODUCER_CACHES.headers < READER_CACHES.headers / 8, 'a producer keeps far fewer');

  const small = new ChainStore(store, { headers: 8, chunkHeaders: 8, extras: 8 });
  const big = new ChainStore(store);
  const readAll = (cs: ChainStore) => {
    for (let h = 1; h <= 40; h++) cs.blockHeader(cs.blockHashByHeight(h)!);
  };
  readAll(small);
  readAll(big);
  const reads = () => store.stats.reads;
  const hash1 = small.blockHashByHeight(1)!;
  let before = reads();
  big.blockHeader(hash1);
  t.equal(reads() - before, 0, 'a reader still holds the first header decoded');
  before = reads();
  small.blockHeader(hash1);
  t.equal(reads() - before, 1, 'a small cache let it go: it is read again');
});
