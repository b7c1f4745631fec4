// GC on four shards releases exactly the trie nodes no kept state reaches. Under a workload that
// keeps every shard's state changing (churn.ts), GC runs after every block with three epochs of five
// blocks kept. At checkpoints the State column (real LevelDB) holds every node and value the kept
// blocks' states reach, and the nodes the tail block's chunks replaced (they go when the tail block
// does, as nearcore's trie deletions do), and nothing else (state_column.ts): no node a kept state
// needs was released, and none that only collected states needed was left behind. The flat rows are
// then every shard's trie at the head, key by key.
import { gcStep, gcStopHeight } from '@nearlite/chain';
import { blockShardKey, DBCol, Store } from '@nearlite/store';
import t from 'tap';
import { openProtocol86Chain } from '../../../test/helpers/protocol86_chain.js';
import { rng } from '../../../test/helpers/rng.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { Churn } from './churn.js';
import { flatRows, fromTries } from './flat_rows.js';
import { Sender, withUsers } from './four_shards.js';
import { checkStateColumn } from './state_column.js';

t.test('GC on four shards releases exactly the trie nodes no kept state reaches', async (t) => {
  const random = rng(Number(process.env.GC_FUZZ_SEED ?? 3));
  const { raw, signer } = withUsers([], 4, 5);
  const store = await Store.open(tempDir(t));
  t.teardown(() => store.close());
  const chain = await openProtocol86Chain(raw, signer, store, { vm: true });
  const sender = new Sender(chain, signer);
  const churn = new Churn(chain, signer, sender, random);
  t.ok(await churn.deploy(), 'every account has the contract');

  const gc = { numEpochsToKeep: 3, blocksPerStep: 4 };
  let checks = 0;
  const check = async (label: string): Promise<boolean> => {
    const tail = chain.chainStore.tail()!;
    const head = chain.head().height;
    const { missing, leftOver } = await checkStateColumn(store, chain.layout.shardIds, tail, head);
    checks++;
    if (missing.length > 0 || leftOver.length > 0) {
      t.fail(
        `${label} (tail ${tail}, head ${head}): ${missing.length} needed nodes released, ${leftOver.length} left behind`,
      );
      return false;
    }
    const flat = await flatRows(store);
    const want = fromTries(store, chain.layout.shardIds, chain.head().hash);
    const wrong = [...new Set([...flat.keys(), ...want.keys()])].filter((k) => flat.get(k) !== want.get(k));
    if (wrong.length > 0) {
      t.fail(`${label}: ${wrong.length} flat rows differ from the head's tries, the first ${wrong[0]}`);
      return false;
    }
    return true;
  };

  for (let block = 0; block < 70; block++) {
    churn.send(8);
    await chain.produceBlock();
    churn.afterBlock();
    while ((await gcStep(chain, gc)) > 0) {}
    if (block % 10 === 9 && !(await check(`block ${block}`))) return;
  }
  t.ok(chain.chainStore.tail()! > 20, `GC moved the tail to ${chain.chainStore.tail()}`);
  // nearcore's canonical clearing deletes, for each height below the stop height, the block before
  // it: the block just below the stop height is kept whole, and is the tail.
  const tail = chain.chainStore.tail()!;
  t.equal(tail, gcStopHeight(chain, gc.numEpochsToKeep) - 1, 'the tail is the block before the stop height');
  const rows = (height: number) => {
    const hash = chain.chainStore.blockHashByHeight(height)!;
    return [
      store.has(DBCol.Block, hash),
      store.has(DBCol.ChunkExtra, blockShardKey(hash, 0)),
      store.has(DBCol.BlockHeader, hash),
    ];
  };
  t.same(rows(tail), [true, true, true], 'the tail block is whole');
  t.same(rows(tail - 1), [false, false, true], 'the one below keeps its header alone');
  t.equal(
    checks,
    7,
    "every checkpoint found the State column exactly what the kept states reach, and the flat rows the head's tries",
  );
  const { created, deleted } = churn.counts();
  t.ok(deleted > 0, `accounts were created (${created}) and deleted (${deleted})`);
});
