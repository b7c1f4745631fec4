// Chunks made ahead of their block (Chain.prepareNextChunks), as nearcore makes the chunks of H+1
// when it accepts H: they take the pool as it stands, store their transactions at once, and become
// the next block's; a block at another height puts them back; a chain opened on a store whose
// block never came pools them again.
import { randomBytes } from 'node:crypto';
import {
  type CommittedBlock,
  generateKeyFile,
  type KeyFile,
  type NewChunksEvent,
  openLocalnetChain,
  type PooledTransaction,
} from '@nearlite/chain';
import type { CryptoHash } from '@nearlite/primitives';
import { toHex } from '@nearlite/primitives';
import { asciiKey, DBCol, Store } from '@nearlite/store';
import t from 'tap';

const PREPARED = asciiKey('PREPARED_TXS');

function tx(nonce: bigint): PooledTransaction {
  return {
    hash: randomBytes(32) as unknown as CryptoHash,
    bytes: new Uint8Array(randomBytes(100)),
    shardId: 0,
    accessKeyId: 'test.near:ed25519:key',
    nonce,
  };
}

function nextCommitted(chain: Awaited<ReturnType<typeof openLocalnetChain>>): Promise<CommittedBlock> {
  return new Promise((resolve) => chain.committed.once('block', resolve));
}

const hexes = (txs: readonly PooledTransaction[]) => txs.map((x) => toHex(x.hash));

/**
 * A chain on disk whose chunks made ahead hold a and b, closed before their block came, with
 * `poolOnly` added to its pool after the chunks were made.
 */
async function closedWithChunksAhead(
  dir: string,
  key: KeyFile,
  poolOnly: readonly PooledTransaction[] = [],
): Promise<[PooledTransaction, PooledTransaction]> {
  const store = await Store.open(dir);
  const chain = await openLocalnetChain(store, { numShards: 1, key });
  await chain.produceBlock();
  const a = tx(1n);
  const b = tx(2n);
  chain.pool.add(a);
  chain.pool.add(b);
  await chain.prepareNextChunks();
  for (const x of poolOnly) chain.pool.add(x);
  await store.close();
  return [a, b];
}

t.test(
  'chunks made ahead take the pool as it stands, are stored at once and make the next block',
  async (t) => {
    const store = await Store.memory();
    const chain = await openLocalnetChain(store, { numShards: 1, key: generateKeyFile('test.near') });
    await chain.produceBlock();
    const a = tx(1n);
    chain.pool.add(a);
    const heard = new Promise<NewChunksEvent>((resolve) => chain.events.once('chunks', resolve));
    const made = await chain.prepareNextChunks();
    t.same(hexes(made.included), hexes([a]));
    t.same([...(await heard).txIds], hexes([a]), 'announced on the chain’s events');
    t.same(store.get(DBCol.Transactions, a.hash), a.bytes, 'stored before any block has it');
    t.ok(store.has(DBCol.BlockMisc, PREPARED), 'and named for a restart');
    t.ok(chain.pool.has(a.hash), 'still known to admission until its block');
    t.same(hexes((await chain.prepareNextChunks()).included), [], 'made once per head');

    const b = tx(2n);
    chain.pool.add(b);
    const committed = nextCommitted(chain);
    const header = await chain.produceBlock();
    t.equal(header.lite.height, 2);
    t.same(hexes((await committed).included), hexes([a]), 'the block is made of those chunks: b waits');
    t.notOk(store.has(DBCol.BlockMisc, PREPARED), 'the block deletes the row');
    t.notOk(chain.pool.has(a.hash));
    t.ok(chain.pool.has(b.hash));

    // Not made ahead: the block makes its own chunks from the pool.
    const then = nextCommitted(chain);
    await chain.produceBlock();
    t.same(hexes((await then).included), hexes([b]));
  },
);

t.test('a block at another height than the chunks were made for makes its own', async (t) => {
  const store = await Store.memory();
  const chain = await openLocalnetChain(store, {
    numShards: 1,
    epochLength: 10,
    key: generateKeyFile('test.near'),
  });
  await chain.produceBlock();
  const a = tx(1n);
  chain.pool.add(a);
  await chain.prepareNextChunks();
  const committed = nextCommitted(chain);
  // From #1 the fast-forward's first block is #8: six heights skipped.
  await chain.fastForward(20, 1_000_000_000n);
  const first = await committed;
  t.equal(first.header.lite.height, 8);
  t.same(hexes(first.included), hexes([a]), 'its transactions back in the pool, taken by that block');
  t.notOk(store.has(DBCol.BlockMisc, PREPARED));
});

t.test('a chain opened on a store whose block never came pools their transactions again', async (t) => {
  const dir = t.testdir();
  const key = generateKeyFile('test.near');
  const c = tx(3n);
  const [a, b] = await closedWithChunksAhead(dir, key, [c]);

  const store = await Store.open(dir);
  t.teardown(() => store.close());
  const chain = await openLocalnetChain(store, { numShards: 1, key });
  t.ok(chain.pool.has(a.hash) && chain.pool.has(b.hash), 'what the chunks held is pooled again');
  t.notOk(chain.pool.has(c.hash), 'what only the pool held is not: it was never answered INCLUDED');
  const committed = nextCommitted(chain);
  await chain.produceBlock();
  t.same(hexes((await committed).included), hexes([a, b]));
  t.notOk(store.has(DBCol.BlockMisc, PREPARED));
});

t.test(
  'what a block leaves out of the transactions answered INCLUDED stays named for a restart',
  async (t) => {
    const dir = t.testdir();
    const key = generateKeyFile('test.near');
    const [a, b] = await closedWithChunksAhead(dir, key);

    // Opened again with room for one transaction a chunk: its first block makes its own chunk of a.
    let store = await Store.open(dir);
    let chain = await openLocalnetChain(store, { numShards: 1, key, maxTransactionsPerChunk: 1 });
    const first = nextCommitted(chain);
    await chain.produceBlock();
    t.same(hexes((await first).included), hexes([a]));
    t.ok(chain.pool.has(b.hash), 'b waits in the pool');
    await store.close();

    // Killed then: b, answered INCLUDED, is pooled again and runs.
    store = await Store.open(dir);
    t.teardown(() => store.close());
    chain = await openLocalnetChain(store, { numShards: 1, key });
    t.ok(chain.pool.has(b.hash), 'the row still names b');
    t.notOk(chain.pool.has(a.hash), 'and no longer a, which its block holds');
    const then = nextCommitted(chain);
    await chain.produceBlock();
    t.same(hexes((await then).included), hexes([b]));
    t.notOk(store.has(DBCol.BlockMisc, PREPARED), 'none left: the row goes');
  },
);

t.test('chunks made ahead with less room than the row names keep naming the rest', async (t) => {
  const dir = t.testdir();
  const key = generateKeyFile('test.near');
  const [a, b] = await closedWithChunksAhead(dir, key);

  let store = await Store.open(dir);
  let chain = await openLocalnetChain(store, { numShards: 1, key, maxTransactionsPerChunk: 1 });
  t.same(hexes((await chain.prepareNextChunks()).included), hexes([a]), 'room for a only');
  await store.close();

  store = await Store.open(dir);
  t.teardown(() => store.close());
  chain = await openLocalnetChain(store, { numShards: 1, key });
  t.ok(chain.pool.has(a.hash) && chain.pool.has(b.hash), 'both still named');
  const committed = nextCommitted(chain);
  await chain.produceBlock();
  t.same(hexes((await committed).included), hexes([a, b]));
  t.notOk(store.has(DBCol.BlockMisc, PREPARED));
});
