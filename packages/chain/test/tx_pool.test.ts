// A chunk carries at most combined_transactions_size_limit bytes of signed transactions; what does not
// fit waits in the pool for the next chunk, in arrival order.
import {
  COMBINED_TRANSACTIONS_SIZE_LIMIT,
  openLocalnetChain,
  type PooledTransaction,
  TxPool,
} from '@nearlite/chain';
import { sha256 } from '@nearlite/primitives';
import { Store } from '@nearlite/store';
import t from 'tap';

function pooled(n: number, size: number, shardId = 0): PooledTransaction {
  const bytes = new Uint8Array(size).fill(n);
  return { hash: sha256(bytes), bytes, shardId, accessKeyId: `k${n}`, nonce: 1n };
}

t.test('take stops before the transaction that would pass the byte limit', async (t) => {
  const pool = new TxPool();
  for (let i = 1; i <= 4; i++) pool.add(pooled(i, 100));
  t.same(
    pool.take(0, 10, 250).map((x) => x.bytes[0]),
    [1, 2],
    'two fit in 250 bytes, the third would not',
  );
  t.same(
    pool.take(0, 10, 300).map((x) => x.bytes[0]),
    [3, 4],
    'exactly the limit fits',
  );
  pool.add(pooled(5, 400));
  t.same(pool.take(0, 10, 300), [], 'one larger than the limit waits');
  t.same(
    pool.take(0, 1).map((x) => x.bytes[0]),
    [5],
  );
});

t.test('a block leaves what passes nearcore’s 4 MiB to the next chunk', async (t) => {
  t.equal(COMBINED_TRANSACTIONS_SIZE_LIMIT, 4_194_304, 'witness_config.combined_transactions_size_limit');
  const store = await Store.memory();
  const chain = await openLocalnetChain(store, { numShards: 1 });
  const size = 1_500_000;
  for (let i = 1; i <= 3; i++) chain.pool.add(pooled(i, size));
  const counts: number[] = [];
  for (let i = 0; i < 2; i++) {
    const header = await chain.produceBlock();
    const [chunkHeader] = chain.chainStore.blockChunkHeaders(header.hash)!;
    const chunk = chain.chainStore.chunk(chunkHeader!.chunkHash)!;
    counts.push(chunk.transactions.length);
    t.ok(chunk.transactions.reduce((n, x) => n + x.length, 0) <= COMBINED_TRANSACTIONS_SIZE_LIMIT);
  }
  t.same(counts, [2, 1]);
});

t.test('transactions handed back go before later arrivals, in the order they came back', async (t) => {
  const pool = new TxPool();
  for (let i = 1; i <= 4; i++) pool.add(pooled(i, 10));
  const taken = pool.take(0, 10);
  pool.add(pooled(5, 10));
  pool.restore(taken.slice(2));
  t.same(
    pool.take(0, 10).map((x) => x.bytes[0]),
    [3, 4, 5],
  );
});

t.test("a chunk gets one transaction of each key in turn, each key's in nonce order", async (t) => {
  const pool = new TxPool();
  const tx = (key: string, nonce: bigint): PooledTransaction => {
    const bytes = new TextEncoder().encode(`${key}${nonce}`);
    return { hash: sha256(bytes), bytes, shardId: 0, accessKeyId: key, nonce };
  };
  // Arrival: a3 a1 a2 b2 c1 b1. nearcore's pool iterator takes a group's lowest nonce each time it
  // comes back to the group, and goes round the groups.
  for (const [k, n] of [
    ['a', 3n],
    ['a', 1n],
    ['a', 2n],
    ['b', 2n],
    ['c', 1n],
    ['b', 1n],
  ] as const)
    pool.add(tx(k, n));
  t.same(
    pool.take(0, 10).map((x) => `${x.accessKeyId}${x.nonce}`),
    ['a1', 'b1', 'c1', 'a2', 'b2', 'a3'],
  );
});
