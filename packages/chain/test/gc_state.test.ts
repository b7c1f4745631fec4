// GC on four shards releases exactly the trie nodes no kept state reaches. Contracts on every shard
// write and remove records of random sizes, accounts are created and deleted, transfers cross
// shards, and GC runs after every block with three epochs of five blocks kept. At checkpoints the
// State column (real LevelDB) holds every node and value reachable from the state roots after the
// blocks still kept and from the one before the tail, whose nodes the tail's changes replace (they
// go when the tail does, as nearcore's trie deletions do), and nothing else: no node a kept state
// needs was released, and none that only collected states needed was left behind. The flat rows
// are then every shard's trie at the head, key by key.
import { gcStep } from '@nearlite/chain';
import { type CryptoHash, decodeAccessKey, toHex } from '@nearlite/primitives';
import { DBCol, Store } from '@nearlite/store';
import { decodeRawNode, isEmptyRoot, trieKeyAccessKey, trieKeyAccount } from '@nearlite/trie';
import t from 'tap';
import { openProtocol86Chain } from '../../../test/helpers/protocol86_chain.js';
import { rng } from '../../../test/helpers/rng.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { wat } from '../../../test/helpers/wat.js';
import { flatRows, fromTries } from './flat_rows.js';
import { deployToUsers, Sender, USERS, withUsers } from './four_shards.js';

/** w: writes the input's bytes after the first under the first; d: removes the record under it. */
const RECORDS = wat(`(module
  (import "env" "input" (func $input (param i64)))
  (import "env" "read_register" (func $reg (param i64 i64)))
  (import "env" "register_len" (func $len (param i64) (result i64)))
  (import "env" "storage_write" (func $write (param i64 i64 i64 i64 i64) (result i64)))
  (import "env" "storage_remove" (func $remove (param i64 i64 i64) (result i64)))
  (memory 1)
  (func (export "w")
    (call $input (i64.const 0))
    (call $reg (i64.const 0) (i64.const 0))
    (drop (call $write (i64.const 1) (i64.const 0)
      (i64.sub (call $len (i64.const 0)) (i64.const 1)) (i64.const 1) (i64.const 1))))
  (func (export "d")
    (call $input (i64.const 0))
    (call $reg (i64.const 0) (i64.const 0))
    (drop (call $remove (i64.const 1) (i64.const 0) (i64.const 1)))))`);

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
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
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
  t.ok(await deployToUsers(chain, sender, await RECORDS), 'every account has the contract');
  recordRoots();

  const gc = { numEpochsToKeep: 3, blocksPerStep: 4 };
  let seq = 0;
  const live = new Set<string>();
  const created: string[] = [];
  const deleted: string[] = [];
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
    for (let n = 0; n < 8; n++) {
      const roll = random();
      const user = pick(USERS);
      if (roll < 0.45) {
        const value = new Uint8Array(1 + Math.floor(random() * 300));
        value[0] = Math.floor(random() * 12);
        for (let i = 1; i < value.length; i++) value[i] = Math.floor(random() * 256);
        sender.send(user, user, [
          { type: 'FunctionCall', methodName: 'w', args: value, gas: 10n ** 13n, deposit: 0n },
        ]);
      } else if (roll < 0.65) {
        sender.send(user, user, [
          {
            type: 'FunctionCall',
            methodName: 'd',
            args: Uint8Array.of(Math.floor(random() * 12)),
            gas: 10n ** 13n,
            deposit: 0n,
          },
        ]);
      } else if (roll < 0.85) {
        sender.send(user, pick(USERS), [{ type: 'Transfer', deposit: 10n ** 21n }]);
      } else if (roll < 0.93 || live.size === 0) {
        // A sub-account, on its parent's shard or another, given the key every account signs with.
        const id = `g${seq++}.${user}`;
        created.push(id);
        sender.send(user, id, [
          { type: 'CreateAccount' },
          { type: 'Transfer', deposit: 10n ** 22n },
          {
            type: 'AddKey',
            publicKey: signer.publicKey,
            accessKey: { nonce: 0n, permission: { kind: 'FullAccess' } },
          },
        ]);
      } else {
        const id = pick([...live]);
        live.delete(id);
        deleted.push(id);
        sender.send(id, id, [{ type: 'DeleteAccount', beneficiaryId: pick(USERS) }]);
      }
    }
    await chain.produceBlock();
    recordRoots();
    // A key added by a receipt starts at a nonce of the block's height times a million.
    for (const id of created.splice(0)) {
      const key = chain
        .stateTrie(chain.head().hash, chain.layout.accountIdToShardId(id))!
        .get(trieKeyAccessKey(id, signer.publicKey));
      if (key) {
        sender.nonces.set(id, decodeAccessKey(key).nonce);
        live.add(id);
      } else created.push(id);
    }
    while ((await gcStep(chain, gc)) > 0) {}
    if (block % 10 === 9 && !(await check(`block ${block}`))) return;
  }
  t.ok(chain.chainStore.tail()! > 20, `GC moved the tail to ${chain.chainStore.tail()}`);
  t.equal(
    checks,
    7,
    "every checkpoint found the State column exactly what the kept states reach, and the flat rows the head's tries",
  );
  const gone = deleted.filter(
    (id) =>
      chain.stateTrie(chain.head().hash, chain.layout.accountIdToShardId(id))!.get(trieKeyAccount(id)) ===
      undefined,
  );
  t.ok(gone.length > 0, `accounts were created (${seq}) and deleted (${gone.length})`);
});
