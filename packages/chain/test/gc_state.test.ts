// GC on four shards releases exactly the trie nodes no kept state reaches. Under a workload that
// keeps every shard's state changing (churn.ts), GC runs after every block with three epochs of five
// blocks kept. At checkpoints the State column (real LevelDB) holds every node and value reachable
// from the state roots after the blocks still kept and from the one before the tail, whose nodes the
// tail's changes replace (they go when the tail does, as nearcore's trie deletions do), and nothing
// else: no node a kept state needs was released, and none that only collected states needed was
// left behind. The flat rows are then every shard's trie at the head, key by key.
import { gcStep } from '@nearlite/chain';
import { type CryptoHash, toHex } from '@nearlite/primitives';
import { DBCol, Store } from '@nearlite/store';
import { decodeRawNode, isEmptyRoot } from '@nearlite/trie';
import t from 'tap';
import { openProtocol86Chain } from '../../../test/helpers/protocol86_chain.js';
import { rng } from '../../../test/helpers/rng.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { Churn } from './churn.js';
import { flatRows, fromTries } from './flat_rows.js';
import { Sender, withUsers } from './four_shards.js';

/** Every node and value hash reachable from `roots`, read from the State column. */
function reachable(store: Store, roots: readonly CryptoHash[]): { found: Set<string>; missing: string[] } {
  const found = new Set<string>();
  const missing: string[] = [];
  const stack = roots.filter((r) => !isEmptyRoot(r));
  while (stack.length > 0) {
    const hash = stack.pop()!;
    const hex = toHex(hash);
    if (found.has(hex)) continue;
    found.add(hex);
    const bytes = store.get(DBCol.State, hash);
    if (!bytes) {
      missing.push(hex);
      continue;
    }
    const { node } = decodeRawNode(bytes);
    const value = node.kind === 'extension' ? null : node.value;
    if (value) {
      const v = toHex(value.hash);
      found.add(v);
      if (!store.get(DBCol.State, value.hash)) missing.push(v);
    }
    if (node.kind === 'extension') stack.push(node.child);
    else if (node.kind === 'branch')
      for (let i = 0; i < 16; i++) {
        const child = node.children.get(i);
        if (child) stack.push(child);
      }
  }
  return { found, missing };
}

t.test('GC on four shards releases exactly the trie nodes no kept state reaches', async (t) => {
  const random = rng(Number(process.env.GC_FUZZ_SEED ?? 3));
  const _pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const { raw, signer } = withUsers();
  (raw as typeof raw & { epoch_length: number }).epoch_length = 5;
  const store = await Store.open(tempDir(t));
  t.teardown(() => store.close());
  const chain = await openProtocol86Chain(raw, signer, store, { vm: true });
  const sender = new Sender(chain, signer);
  const roots = new Map<number, CryptoHash[]>();
  const recordRoots = () => {
    const head = chain.head();
    roots.set(
      head.height,
      chain.layout.shardIds.map((s) => chain.chainStore.chunkExtra(head.hash, s)!.stateRoot),
    );
  };
  recordRoots();
  const churn = new Churn(chain, signer, sender, random);
  t.ok(await churn.deploy(), 'every account has the contract');
  recordRoots();

  const gc = { numEpochsToKeep: 3, blocksPerStep: 4 };
  let checks = 0;
  const check = async (label: string): Promise<boolean> => {
    const tail = chain.chainStore.tail()!;
    const head = chain.head().height;
    const kept = [];
    for (let h = tail; h <= head; h++) kept.push(...(roots.get(h) ?? []));
    const needed = reachable(store, kept);
    const withBefore = reachable(store, [...kept, ...(roots.get(tail - 1) ?? [])]);
    const present: string[] = [];
    for await (const [k] of store.iter(DBCol.State)) present.push(toHex(k));
    const leaked = present.filter((h) => !withBefore.found.has(h));
    checks++;
    if (needed.missing.length > 0 || leaked.length > 0) {
      t.fail(
        `${label} (tail ${tail}, head ${head}): ${needed.missing.length} needed nodes released, ${leaked.length} left behind`,
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
    recordRoots();
    churn.afterBlock();
    while ((await gcStep(chain, gc)) > 0) {}
    if (block % 10 === 9 && !(await check(`block ${block}`))) return;
  }
  t.ok(chain.chainStore.tail()! > 20, `GC moved the tail to ${chain.chainStore.tail()}`);
  t.equal(
    checks,
    7,
    "every checkpoint found the State column exactly what the kept states reach, and the flat rows the head's tries",
  );
  const { created, deleted } = churn.counts();
  t.ok(deleted > 0, `accounts were created (${created}) and deleted (${deleted})`);
});
