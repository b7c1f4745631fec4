// The recorder sizes a chunk's storage proof as nearcore's TrieRecorder does: the stored bytes of
// every distinct node a lookup walks (the last one included when the key is absent), the value's
// bytes when the lookup reads it, and 2,000 bytes of upper bound for each contract-data removal.
import { sha256, utf8 } from '@nearlite/primitives';
import {
  applyChanges,
  decodeRawNode,
  EMPTY_ROOT,
  encodedNodeLength,
  MemoryTrieStorage,
  REMOVAL_UPPER_BOUND_BYTES,
  Trie,
  TrieRecorder,
  TrieUpdate,
  TrieWalk,
  trieKeyAccount,
  trieKeyContractData,
} from '@nearlite/trie';
import t from 'tap';
import { pathBytes } from '../../../test/helpers/proven_bytes.js';

/** A trie of `n` accounts' data, each key 8 bytes so that none is a prefix of another. */
function build(n: number): {
  storage: MemoryTrieStorage;
  trie: Trie;
  keys: Uint8Array[];
  values: Uint8Array[];
} {
  const storage = new MemoryTrieStorage();
  const keys: Uint8Array[] = [];
  const values: Uint8Array[] = [];
  for (let i = 0; i < n; i++) {
    keys.push(sha256(utf8(`k${i}`)).subarray(0, 8));
    values.push(utf8(`value number ${i}`.repeat(1 + (i % 5))));
  }
  const ch = applyChanges(
    storage,
    EMPTY_ROOT,
    keys.map((key, i) => ({ key, value: values[i]! })),
  );
  for (const ins of ch.insertions) storage.put(ins.hash, ins.bytes);
  return { storage, trie: new Trie(storage, ch.newRoot), keys, values };
}

t.test('a node is sized as its stored bytes, for every node of a trie', async (t) => {
  const { storage } = build(300);
  let kinds = new Set<string>();
  for (const bytes of storage.map.values()) {
    // Values share the column; only nodes decode.
    let node: ReturnType<typeof decodeRawNode>;
    try {
      node = decodeRawNode(bytes);
    } catch {
      continue;
    }
    if (encodedNodeLength(node.node) !== bytes.length) t.fail(`a ${node.node.kind} of ${bytes.length} bytes`);
    kinds.add(node.node.kind + (node.node.kind === 'branch' && node.node.value ? '+value' : ''));
  }
  kinds = new Set([...kinds].sort());
  t.ok(kinds.has('leaf') && kinds.has('branch'), `kinds seen: ${[...kinds].join(', ')}`);
});

t.test('a lookup records its path and value once; an existence check leaves the value out', async (t) => {
  const { trie, keys, values } = build(300);
  const r = new TrieRecorder(trie);
  r.recordLookup(keys[7]!, true);
  const first = pathBytes(trie, keys[7]!) + values[7]!.length;
  t.equal(r.size, first, 'path nodes plus the value');
  t.equal(r.upperBound, first);
  r.recordLookup(keys[7]!, true);
  t.equal(r.size, first, 'the same lookup again adds nothing');

  const h = new TrieRecorder(trie);
  h.recordLookup(keys[9]!, false);
  t.equal(h.size, pathBytes(trie, keys[9]!), 'without the value');
  h.recordLookup(keys[9]!, true);
  t.equal(h.size, pathBytes(trie, keys[9]!) + values[9]!.length, 'reading it later adds the value only');

  // Two lookups share the upper nodes: the second adds only what the first did not walk.
  const both = new TrieRecorder(trie);
  both.recordLookup(keys[1]!, true);
  both.recordLookup(keys[2]!, true);
  const one = new TrieRecorder(trie);
  one.recordLookup(keys[1]!, true);
  const two = new TrieRecorder(trie);
  two.recordLookup(keys[2]!, true);
  t.ok(both.size < one.size + two.size, 'shared nodes count once');
  t.ok(both.size > Math.max(one.size, two.size));
});

t.test('an absent key records the nodes walked to find it missing, the last one included', async (t) => {
  const { trie, keys } = build(300);
  const absent = Uint8Array.of(...keys[3]!.subarray(0, 7), keys[3]![7]! ^ 0xff);
  const r = new TrieRecorder(trie);
  r.recordLookup(absent, true);
  t.ok(r.size > 0);
  t.equal(r.size, pathBytes(trie, absent), 'the walk to where the key would be');
  const empty = new TrieRecorder(new Trie(new MemoryTrieStorage(), EMPTY_ROOT));
  empty.recordLookup(absent, true);
  t.equal(empty.size, 0, 'an empty trie records nothing');
});

t.test(
  "removals of contract data add 2,000 bytes each to the upper bound, the runtime's own none",
  async (t) => {
    const r = new TrieRecorder(new Trie(new MemoryTrieStorage(), EMPTY_ROOT));
    const u = new TrieUpdate({ get: () => undefined }, r);
    u.remove(trieKeyContractData('c.near', utf8('x')));
    u.remove(trieKeyContractData('c.near', utf8('x')));
    u.remove(trieKeyAccount('c.near'));
    t.equal(r.upperBound, 2 * REMOVAL_UPPER_BOUND_BYTES, 'each contract-data removal, repeated ones too');
    t.equal(r.size, 0, 'nothing is recorded by a removal itself');
    t.equal(u.recordedStorageSize(), 4000);
    t.equal(new TrieUpdate({ get: () => undefined }).recordedStorageSize(), 0, 'no recorder: 0');
  },
);

t.test('has() asks the base whether a key exists without reading it', async (t) => {
  const read: string[] = [];
  const u = new TrieUpdate({
    get: (k) => {
      read.push(`get ${k[0]}`);
      return undefined;
    },
    has: (k) => {
      read.push(`has ${k[0]}`);
      return k[0] === 1;
    },
  });
  t.equal(u.has(Uint8Array.of(1)), true);
  t.equal(u.has(Uint8Array.of(2)), false);
  u.set(Uint8Array.of(3), Uint8Array.of(9));
  t.equal(u.has(Uint8Array.of(3)), true, 'a write of the chunk answers without the base');
  u.remove(Uint8Array.of(1));
  t.equal(u.has(Uint8Array.of(1)), false, 'so does a removal');
  t.same(read, ['has 1', 'has 2']);
});

t.test('a lookup counts the nodes it touches as Trie.touchedNodes counts them for gas', async (t) => {
  const { trie, keys } = build(300);
  const r = new TrieRecorder(trie);
  for (const key of [...keys.slice(0, 50), ...keys.slice(0, 20).map((k) => k.subarray(0, 5)), utf8('zz')]) {
    const want = trie.touchedNodes(key);
    // Twice: the first walk finds the nodes, the second steps through those it kept.
    t.same(r.recordLookup(key, false), want);
    t.same(r.recordLookup(key, true), want);
  }
});

t.test('recorders sharing a walk of the trie each record what their own lookups touch', async (t) => {
  const { trie, keys } = build(300);
  const walk = new TrieWalk(trie);
  const first = new TrieRecorder(walk);
  const second = new TrieRecorder(walk);
  for (const key of keys.slice(0, 40)) first.recordLookup(key, true);
  t.equal(second.size, 0, "the other's lookups record nothing here");
  for (const key of keys.slice(20, 60)) t.same(second.recordLookup(key, true), trie.touchedNodes(key));
  for (const [r, from, to] of [
    [first, 0, 40],
    [second, 20, 60],
  ] as const) {
    const alone = new TrieRecorder(trie);
    for (const key of keys.slice(from, to)) alone.recordLookup(key, true);
    t.equal(r.size, alone.size, `keys ${from}–${to}: as a recorder of its own records them`);
  }
  t.throws(() => {
    for (let i = 0; i < 40; i++) new TrieRecorder(walk);
  }, RangeError);
});
