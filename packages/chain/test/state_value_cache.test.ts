// Views read values through a cache keyed by state root: each block's root answers with its own value.
import { CachedViewTrie, type Chain, openLocalnetChain, stateRecordToWrite } from '@nearlite/chain';
import { toBase64, utf8 } from '@nearlite/primitives';
import { Store } from '@nearlite/store';
import { trieKeyContractData } from '@nearlite/trie';
import t from 'tap';

const key = (k: string) => trieKeyContractData('test.near', utf8(k));

/** Produces a block that sets `k` to `value`; returns the block's hash. */
async function set(chain: Chain, k: string, value: string) {
  const write = [
    { Data: { account_id: 'test.near', data_key: toBase64(utf8(k)), value: toBase64(utf8(value)) } },
  ];
  const p = chain.patchState(write.map(stateRecordToWrite));
  const header = await chain.produceBlock();
  await p;
  return header.hash;
}

function viewAt(chain: Chain, blockHash: Uint8Array) {
  const trie = chain.stateTrie(blockHash, 0)!;
  return new CachedViewTrie(trie.storage, trie.root);
}

t.test('values and absences are cached per root, never across roots', async (t) => {
  const store = await Store.memory();
  t.teardown(() => store.close());
  const chain = await openLocalnetChain(store, { numShards: 1 });
  const b1 = await set(chain, 'k', 'one');
  const b2 = await set(chain, 'k', 'two');
  const big = 'x'.repeat(10_000);
  const b3 = await set(chain, 'other', big);
  for (let round = 0; round < 2; round++) {
    t.same(viewAt(chain, b1).get(key('k')), utf8('one'), `round ${round}: the first block's value`);
    t.same(viewAt(chain, b2).get(key('k')), utf8('two'), `round ${round}: the second block's value`);
    t.equal(viewAt(chain, b1).get(key('other')), undefined, `round ${round}: absent before it was set`);
    t.same(
      viewAt(chain, b3).get(key('other')),
      utf8(big),
      `round ${round}: present once set (a large value)`,
    );
  }
  const plain = chain.stateTrie(b2, 0)!;
  t.same(viewAt(chain, b2).get(key('k')), plain.get(key('k')), 'the same bytes as an uncached read');
});
