// Prefix iteration (view_state, access-key lists) against an oracle: the entries are the sorted keys
// that start with the prefix, and the proof lists the nodes a walk down to the prefix and then down
// each child in turn reaches, in that order.
import { compareBytes, toHex } from '@nearlite/primitives';
import {
  applyChanges,
  decodeRawNode,
  EMPTY_ROOT,
  MemoryTrieStorage,
  type RawNode,
  Trie,
  toNibbles,
} from '@nearlite/trie';
import t from 'tap';

/** A deterministic generator, so a failure can be replayed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function buildTrie(keys: Uint8Array[]): { trie: Trie; storage: MemoryTrieStorage } {
  const storage = new MemoryTrieStorage();
  const ch = applyChanges(
    storage,
    EMPTY_ROOT,
    keys.map((key, i) => ({ key, value: Uint8Array.of(i & 255, i >> 8, 7) })),
  );
  for (const ins of ch.insertions) storage.put(ins.hash, ins.bytes);
  return { trie: new Trie(storage, ch.newRoot), storage };
}

function startsWith(key: Uint8Array, prefix: Uint8Array): boolean {
  if (key.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (key[i] !== prefix[i]) return false;
  return true;
}

/** The nodes a recursive walk visits: down to the prefix, then each subtree's root before its children, children ascending. */
function oracleProof(storage: MemoryTrieStorage, root: Uint8Array, prefix: Uint8Array): string[] {
  const out: string[] = [];
  const visit = (hash: Uint8Array): RawNode => {
    const bytes = storage.get(hash)!;
    out.push(toHex(bytes));
    return decodeRawNode(bytes).node;
  };
  const walk = (node: RawNode): void => {
    if (node.kind === 'extension') walk(visit(node.child));
    else if (node.kind === 'branch')
      for (let i = 0; i < 16; i++) {
        const c = node.children.get(i);
        if (c) walk(visit(c));
      }
  };
  const want = toNibbles(prefix);
  let at = 0;
  let node = visit(root);
  for (;;) {
    const rest = want.length - at;
    if (rest === 0) {
      walk(node);
      return out;
    }
    if (node.kind === 'leaf' || node.kind === 'extension') {
      let c = 0;
      while (c < node.key.length && c < rest && node.key[c] === want[at + c]) c++;
      if (c < Math.min(node.key.length, rest)) return out;
      if (c === rest) {
        walk(node);
        return out;
      }
      if (node.kind === 'leaf') return out;
      at += node.key.length;
      node = visit(node.child);
      continue;
    }
    const child = node.children.get(want[at]!);
    if (!child) return out;
    at++;
    node = visit(child);
  }
}

t.test(
  'prefix iteration returns the sorted entries under the prefix, and the proof in walk order',
  async (t) => {
    const rand = rng(20261129);
    const keys = new Map<string, Uint8Array>();
    const add = (k: Uint8Array) => keys.set(toHex(k), k);
    // Short keys over a small alphabet (shared prefixes, keys that are prefixes of others: branch
    // values), long keys sharing a long run (extensions, paths past 64 nibbles).
    for (let i = 0; i < 400; i++) {
      const len = 1 + Math.floor(rand() * 5);
      add(Uint8Array.from({ length: len }, () => Math.floor(rand() * 4) * 17));
    }
    const long = Uint8Array.from({ length: 90 }, (_, i) => (i * 37) & 255);
    for (let i = 0; i < 40; i++) {
      const k = new Uint8Array(long.length + 1 + (i % 3));
      k.set(long);
      for (let j = long.length; j < k.length; j++) k[j] = Math.floor(rand() * 256);
      add(k);
    }
    add(long);
    // A long key alone under its first nibbles: a leaf whose own key outgrows the walk's path buffer.
    add(Uint8Array.from({ length: 70 }, (_, i) => (i === 0 ? 0xee : (i * 53) & 255)));
    const all = [...keys.values()].sort(compareBytes);
    const { trie, storage } = buildTrie(all);

    const prefixes: Uint8Array[] = [
      new Uint8Array(0),
      long,
      long.subarray(0, 45),
      Uint8Array.of(255),
      Uint8Array.of(0xee),
    ];
    for (const k of all.slice(0, 120))
      for (let n = 1; n <= k.length && n <= 3; n++) prefixes.push(k.subarray(0, n));
    prefixes.push(Uint8Array.of(0, 17, 34, 51, 68, 85)); // present only as a prefix of nothing

    for (const prefix of prefixes) {
      const expected = all.filter((k) => startsWith(k, prefix)).map(toHex);
      const got = [...trie.iterPrefix(prefix)];
      const label = toHex(prefix) || '(empty)';
      t.same(
        got.map(([k]) => toHex(k)),
        expected,
        `keys under ${label}`,
      );
      for (const [k, v] of got) t.same(v, trie.get(k), `value of ${toHex(k)}`);
      const withProof = trie.iterPrefixWithProof(prefix);
      t.same(
        withProof.entries.map(([k]) => toHex(k)),
        expected,
        `keys under ${label}, with proof`,
      );
      t.same(withProof.proof.map(toHex), oracleProof(storage, trie.root, prefix), `proof under ${label}`);
    }
  },
);

t.test('a consumer may stop early', async (t) => {
  const keys = Array.from({ length: 50 }, (_, i) => Uint8Array.of(1, i));
  const { trie } = buildTrie(keys);
  const firstThree: string[] = [];
  for (const [k] of trie.iterPrefix(Uint8Array.of(1))) {
    firstThree.push(toHex(k));
    if (firstThree.length === 3) break;
  }
  t.same(firstThree, ['0100', '0101', '0102']);
});

t.test('with a lower bound, iteration returns the entries above it, as the full scan filtered', async (t) => {
  const rand = rng(7);
  const keys = new Map<string, Uint8Array>();
  for (let i = 0; i < 300; i++) {
    const len = 1 + Math.floor(rand() * 5);
    const k = Uint8Array.from({ length: len }, () => Math.floor(rand() * 4) * 17);
    keys.set(toHex(k), k);
  }
  const all = [...keys.values()].sort(compareBytes);
  const { trie } = buildTrie(all);
  // Bounds that are keys, prefixes of keys, keys extended by a byte, between keys, and outside all.
  const afters: Uint8Array[] = [new Uint8Array(0), Uint8Array.of(255), Uint8Array.of(0, 0, 0, 0, 0, 0, 0)];
  for (const k of all.filter((_, i) => i % 7 === 0)) {
    afters.push(k, k.subarray(0, Math.max(1, k.length - 1)), Uint8Array.of(...k, 0), Uint8Array.of(...k, 1));
    afters.push(Uint8Array.of(...k.subarray(0, k.length - 1), k[k.length - 1]! + 1));
  }
  const prefixes = [new Uint8Array(0), Uint8Array.of(17), Uint8Array.of(34, 0), Uint8Array.of(51, 51)];
  let checked = 0;
  for (const prefix of prefixes)
    for (const after of afters) {
      const expected = all.filter((k) => startsWith(k, prefix) && compareBytes(k, after) > 0).map(toHex);
      const got = [...trie.iterPrefix(prefix, after)].map(([k]) => toHex(k));
      if (got.join() !== expected.join())
        t.same(got, expected, `keys under ${toHex(prefix)} after ${toHex(after)}`);
      checked++;
    }
  t.ok(checked > 400, `${checked} bounds checked against the filtered scan`);
  t.same([...trie.iterPrefix(new Uint8Array(0), all[all.length - 1])], [], 'nothing after the last key');
});

t.test('a bounded scan reads the nodes of its page, not those of every key before it', async (t) => {
  const keys = Array.from({ length: 4096 }, (_, i) => Uint8Array.of(9, i >> 8, i & 255));
  const { trie, storage } = buildTrie(keys);
  let reads = 0;
  const counted = new Trie(
    {
      get: (h) => {
        reads++;
        return storage.get(h);
      },
    },
    trie.root,
  );
  const page = (after?: Uint8Array) => {
    reads = 0;
    const out: string[] = [];
    for (const [k] of counted.iterPrefix(Uint8Array.of(9), after)) {
      out.push(toHex(k));
      if (out.length === 3) break;
    }
    return { out, reads };
  };
  // Decoded nodes may come from the thread's cache, but a value is read from storage for every key a
  // walk yields: a scan that filtered the 4,000 keys before the bound would read thousands.
  const tail = page(Uint8Array.of(9, 15, 200));
  t.same(tail.out, ['090fc9', '090fca', '090fcb']);
  t.ok(tail.reads < 20, `the page after 0x090fc8 read ${tail.reads} nodes and values`);
  const beyond = page(Uint8Array.of(9, 16, 0));
  t.same(beyond.out, [], 'past the last key');
  t.ok(beyond.reads < 10, `an empty page read ${beyond.reads}`);
});
