import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { base58Encode, fromHex, parsePublicKey, sha256, toHex, utf8 } from '@nearlite/primitives';
import {
  applyChanges,
  decodeRawNode,
  EMPTY_ROOT,
  encodeNibblePath,
  encodeRawNode,
  genesisStateFromRecords,
  MemoryTrieStorage,
  parseTrieKey,
  rootMemoryUsage,
  Trie,
  TrieAccounting,
  type TrieChanges,
  TrieKeyCol,
  TrieKeyParseError,
  TrieRecorder,
  TrieUpdate,
  trieKeyAccessKey,
  trieKeyAccessKeyPrefix,
  trieKeyAccount,
  trieKeyContractCode,
  trieKeyContractData,
  trieKeyContractDataPrefix,
  trieKeyDataIdToYieldId,
  trieKeyDelayedReceipt,
  trieKeyDelayedReceiptIndices,
  trieKeyGlobalContractCode,
  trieKeyGlobalContractNonce,
  trieKeyPromiseYieldStatus,
  trieKeyReceivedData,
  trieKeyYieldIdToDataId,
} from '@nearlite/trie';
import t from 'tap';

function store(storage: MemoryTrieStorage, ch: TrieChanges): void {
  for (const i of ch.insertions) storage.put(i.hash, i.bytes);
}

t.test("nearcore's Leaf([1,2,3]) vector and nibble paths", async (t) => {
  const value = Uint8Array.of(123, 245, 255);
  const bytes = encodeRawNode(
    { kind: 'leaf', key: Uint8Array.of(0, 1, 0, 2, 0, 3), value: { length: 3, hash: sha256(value) } },
    42n,
  );
  // nearcore's unit vector encodes the key bytes [1,2,3] as given; with our nibble form the leaf key
  // [0,1,0,2,0,3] has the even-length encoding 0x20 ‖ 01 02 03.
  t.equal(toHex(bytes).slice(0, 2 + 8), '0004000000');
  const manual = fromHex(
    `00${'03000000'}010203${'03000000'}c228081840db458456346eaf39c6a5c853edd30bc253fb21918aeae207f2ba49${'2a00000000000000'}`,
  );
  t.equal(toHex(sha256(value)), 'c228081840db458456346eaf39c6a5c853edd30bc253fb21918aeae207f2ba49');
  t.same(decodeRawNode(manual).memoryUsage, 42n, "nearcore's vector decodes");
  t.equal(toHex(encodeNibblePath(Uint8Array.of(0), false)), '10');
  t.equal(toHex(encodeNibblePath(Uint8Array.of(0, 0, 6, 2, 6, 15), false)), '0000626f');
  t.equal(toHex(encodeNibblePath(Uint8Array.of(0xe, 6, 0xe, 6, 5, 6, 1, 7, 2), true)), '3e6e656172');
  t.equal(toHex(encodeNibblePath(new Uint8Array(0), true)), '20');
});

const account182 = (amount: bigint) => {
  const v = new Uint8Array(72);
  const dv = new DataView(v.buffer);
  dv.setBigUint64(0, amount & ((1n << 64n) - 1n), true);
  dv.setBigUint64(8, amount >> 64n, true);
  dv.setBigUint64(64, 182n, true);
  return v;
};

t.test('trie.md worked examples', async (t) => {
  const s = new MemoryTrieStorage();
  const one = applyChanges(s, EMPTY_ROOT, [
    { key: trieKeyAccount('treasury.near'), value: account182(10n ** 25n) },
  ]);
  t.equal(
    toHex(one.newRoot),
    '1a30dc2224837edc1afde3613b080a4fef93e92296fb45de6395ef31c254493a',
    '§6.1 one leaf',
  );
  t.equal(base58Encode(sha256(one.newRoot)), 'Hx6f2mA2UFC58gPKQiRoaqTGeVSzgMoKhVEuiaNVM7UJ');

  const pk = parsePublicKey('ed25519:9C6hybhQ6Aycep9jaUnP6uL9ZYvDjUp1aSkFWPUFJtpj');
  const two = applyChanges(new MemoryTrieStorage(), EMPTY_ROOT, [
    { key: trieKeyAccount('bo.near'), value: account182(10n ** 24n) },
    { key: trieKeyAccessKey('bo.near', pk), value: fromHex('000000000000000001') },
  ]);
  t.equal(two.insertions.length, 2 + 4, 'two values, two leaves, a branch and an extension');
});

t.test('the mainnet genesis records give the mainnet state root', async (t) => {
  const g = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'mainnet_genesis.json'), 'utf8'));
  const kvs = genesisStateFromRecords(g.records, {
    numBytesAccount: 100n,
    numExtraBytesRecord: 40n,
    validators: g.validators.map((v: { account_id: string; amount: string }) => ({
      accountId: v.account_id,
      amount: BigInt(v.amount),
    })),
  });
  t.equal(kvs.length, 64, '26 accounts, 2 codes, 35 keys, 1 data');
  const s = new MemoryTrieStorage();
  const ch = applyChanges(s, EMPTY_ROOT, kvs);
  store(s, ch);
  t.equal(base58Encode(ch.newRoot), '8EhZRfDTYujfZoUZtZ3eSMB9gJyFo5zjscR12dEcaxGU');
  t.equal(base58Encode(sha256(ch.newRoot)), '5o1trt9N9YgDL4xeY33z9adS5Ub3jMmuyQpWM7UHowrq');
  t.equal(rootMemoryUsage(s, ch.newRoot), 238135n);
  const valueHashes = new Set(kvs.map((kv) => toHex(sha256(kv.value))));
  const nodes = ch.insertions.filter((i) => !valueHashes.has(toHex(i.hash)));
  t.equal(nodes.length, 106, '106 distinct trie nodes');
  t.ok(nodes.every((n) => n.rc >= 1));
  const trie = new Trie(s, ch.newRoot);
  for (const { key, value } of kvs) t.same(trie.get(key), value);
  const near = trie.get(trieKeyAccount('near'))!;
  t.equal(
    new DataView(near.buffer, near.byteOffset).getBigUint64(64, true),
    197872n,
    'storage usage recomputed',
  );
  const keys = [...trie.iterPrefix(Uint8Array.of(2))].map(([k]) => k);
  t.equal(keys.length, 35, 'prefix scan over access keys');
  t.same(
    keys.map((k) => toHex(k)),
    [...keys.map((k) => toHex(k))].sort(),
    'ascending order',
  );
});

t.test('a genesis account that could not be read back stops the genesis, naming it', async (t) => {
  const account = {
    amount: ((1n << 128n) - 1n).toString(),
    locked: '0',
    code_hash: '11111111111111111111111111111111',
  };
  const opts = { numBytesAccount: 100n, numExtraBytesRecord: 40n, validators: [] };
  t.throws(() => genesisStateFromRecords([{ Account: { account_id: 'max.near', account } }], opts), {
    name: 'GenesisStateError',
    message: /^genesis account max\.near: an account of version V1 cannot hold u128::MAX/,
  });
});

function rng(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

type Change = { key: Uint8Array; value: Uint8Array | null };

/**
 * Applies one batch (one change per key, keyed by hex) to the stored trie at `root` and to `model`,
 * and returns the new root with the root of a trie built from scratch of the model's keys.
 */
function applyBoth(
  s: MemoryTrieStorage,
  root: Uint8Array,
  model: Map<string, Uint8Array>,
  batch: Map<string, Change>,
): { root: Uint8Array; fresh: Uint8Array } {
  for (const [hex, c] of batch) {
    if (c.value) model.set(hex, c.value);
    else model.delete(hex);
  }
  const ch = applyChanges(s, root, [...batch.values()]);
  store(s, ch);
  const fresh = applyChanges(
    new MemoryTrieStorage(),
    EMPTY_ROOT,
    [...model].map(([k, v]) => ({ key: fromHex(k), value: v })),
  );
  return { root: ch.newRoot, fresh: fresh.newRoot };
}

t.test('the root depends only on the final key set (random inserts and deletes)', async (t) => {
  const rand = rng(7);
  const s = new MemoryTrieStorage();
  let root = EMPTY_ROOT;
  const model = new Map<string, Uint8Array>();
  for (let round = 0; round < 40; round++) {
    const batch = new Map<string, Change>();
    for (let i = 0; i < 12; i++) {
      const key = utf8(`k${Math.floor(rand() * 60)}${rand() < 0.3 ? 'x' : ''}`);
      const del = rand() < 0.35;
      batch.set(toHex(key), { key, value: del ? null : utf8(`v${Math.floor(rand() * 5)}`) });
    }
    const r = applyBoth(s, root, model, batch);
    root = r.root;
    t.same(root, r.fresh, `round ${round}: same root as building from scratch`);
  }
  const trie = new Trie(s, root);
  t.equal([...trie.iterPrefix(new Uint8Array(0))].length, model.size);
});

t.test(
  'memory usage follows every kind of edit (batches of byte keys with shared prefixes, values of any length)',
  async (t) => {
    // The editor counts an untouched child's memory usage from its parent's, never by reading the
    // child: splits, merges and deletions down to one child must all keep the recorded sums right,
    // and the root hash covers them.
    const rand = rng(11);
    const s = new MemoryTrieStorage();
    let root = EMPTY_ROOT;
    const model = new Map<string, Uint8Array>();
    const key = () => {
      const len = 1 + Math.floor(rand() * 4);
      return Uint8Array.from({ length: len }, () => (rand() < 0.6 ? 0x11 : Math.floor(rand() * 256)));
    };
    for (let round = 0; round < 80; round++) {
      const batch = new Map<string, Change>();
      const size = 1 + Math.floor(rand() * 30);
      for (let i = 0; i < size; i++) {
        const k = key();
        const del = rand() < 0.4;
        batch.set(toHex(k), {
          key: k,
          value: del ? null : new Uint8Array(Math.floor(rand() * 300)).fill(round),
        });
      }
      const r = applyBoth(s, root, model, batch);
      root = r.root;
      if (toHex(root) !== toHex(r.fresh)) t.fail(`round ${round}: root differs from a fresh build`);
    }
    t.ok(model.size > 20, `${model.size} keys at the end`);
    t.pass('80 rounds, each root as a fresh build of the same keys');
  },
);

t.test('the nodes an edit remembers decoded are what their bytes decode to', async (t) => {
  // The editor caches each node it writes in decoded form (the next edit starts from them): every
  // node of every new trie must read back exactly as decoding its stored bytes gives it.
  const rand = rng(23);
  const s = new MemoryTrieStorage();
  let root = EMPTY_ROOT;
  let checked = 0;
  for (let round = 0; round < 30; round++) {
    const changes: Change[] = [];
    for (let i = 0; i < 20; i++) {
      const key = Uint8Array.from({ length: 1 + Math.floor(rand() * 3) }, () =>
        rand() < 0.5 ? 0x21 : Math.floor(rand() * 256),
      );
      changes.push({
        key,
        value: rand() < 0.3 ? null : new Uint8Array(1 + Math.floor(rand() * 40)).fill(round),
      });
    }
    const ch = applyChanges(s, root, changes);
    store(s, ch);
    root = ch.newRoot;
    const trie = new Trie(s, root);
    const visit = (hash: Uint8Array): void => {
      const got = trie.decoded(hash);
      const want = decodeRawNode(s.get(hash)!);
      checked++;
      if (got.memoryUsage !== want.memoryUsage) t.fail(`memory usage of ${toHex(hash)}`);
      const a = got.node;
      const b = want.node;
      if (a.kind !== b.kind) return void t.fail(`kind of ${toHex(hash)}`);
      if (a.kind === 'branch' && b.kind === 'branch') {
        if (toHex(a.value?.hash ?? new Uint8Array(0)) !== toHex(b.value?.hash ?? new Uint8Array(0)))
          t.fail(`branch value of ${toHex(hash)}`);
        for (let i = 0; i < 16; i++) {
          const x = a.children.get(i);
          const y = b.children.get(i);
          if (toHex(x ?? new Uint8Array(0)) !== toHex(y ?? new Uint8Array(0)))
            t.fail(`slot ${i} of ${toHex(hash)}`);
          if (x) visit(x);
        }
      } else if (a.kind === 'extension' && b.kind === 'extension') {
        if (toHex(a.key) !== toHex(b.key) || toHex(a.child) !== toHex(b.child))
          t.fail(`extension ${toHex(hash)}`);
        visit(a.child);
      } else if (a.kind === 'leaf' && b.kind === 'leaf') {
        if (
          toHex(a.key) !== toHex(b.key) ||
          toHex(a.value.hash) !== toHex(b.value.hash) ||
          a.value.length !== b.value.length
        )
          t.fail(`leaf ${toHex(hash)}`);
      }
    };
    if (toHex(root) !== toHex(EMPTY_ROOT)) visit(root);
  }
  t.ok(checked > 300, `${checked} nodes compared`);
});

t.test('refcounts: deleting everything releases every node and value', async (t) => {
  const counts = new Map<string, number>();
  const s = new MemoryTrieStorage();
  const apply = (root: Uint8Array, changes: { key: Uint8Array; value: Uint8Array | null }[]) => {
    const ch = applyChanges(s, root, changes);
    for (const i of ch.insertions) {
      s.put(i.hash, i.bytes);
      counts.set(toHex(i.hash), (counts.get(toHex(i.hash)) ?? 0) + i.rc);
    }
    for (const d of ch.deletions) counts.set(toHex(d.hash), (counts.get(toHex(d.hash)) ?? 0) - d.rc);
    return ch.newRoot;
  };
  const keys = Array.from({ length: 30 }, (_, i) => utf8(`account${i}.near`));
  let root = apply(
    EMPTY_ROOT,
    keys.map((key) => ({ key, value: utf8('same') })),
  );
  root = apply(
    root,
    keys.slice(0, 10).map((key) => ({ key, value: utf8('other') })),
  );
  root = apply(
    root,
    keys.map((key) => ({ key, value: null })),
  );
  t.same(root, EMPTY_ROOT);
  t.ok(
    [...counts.values()].every((c) => c === 0),
    'every inserted node and value was released once',
  );
});

t.test('TrieUpdate overlays, commits with causes, rolls back, iterates merged', async (t) => {
  const s = new MemoryTrieStorage();
  const base = applyChanges(s, EMPTY_ROOT, [
    { key: trieKeyContractData('a.near', utf8('k1')), value: utf8('1') },
    { key: trieKeyContractData('a.near', utf8('k3')), value: utf8('3') },
  ]);
  store(s, base);
  const u = new TrieUpdate(new Trie(s, base.newRoot));
  const tx = { type: 'transaction_processing' as const, txHash: new Uint8Array(32) };
  u.set(trieKeyContractData('a.near', utf8('k2')), utf8('2'));
  u.remove(trieKeyContractData('a.near', utf8('k1')));
  t.same(u.get(trieKeyContractData('a.near', utf8('k2'))), utf8('2'), 'reads see prospective writes');
  u.rollback();
  t.equal(u.get(trieKeyContractData('a.near', utf8('k2'))), undefined);
  t.same(u.get(trieKeyContractData('a.near', utf8('k1'))), utf8('1'));
  u.set(trieKeyContractData('a.near', utf8('k2')), utf8('2'));
  u.remove(trieKeyContractData('a.near', utf8('k1')));
  u.commit(tx);
  u.set(trieKeyContractData('a.near', utf8('k2')), utf8('22'));
  u.commit({ type: 'receipt_processing', receiptHash: new Uint8Array(32) });
  const listed = [...u.iterPrefix(trieKeyContractData('a.near', new Uint8Array(0)))].map(([k, v]) => [
    parseTrieKey(k),
    Buffer.from(v).toString(),
  ]);
  t.same(
    listed.map(([, v]) => v),
    ['22', '3'],
  );
  const r = u.finalize();
  t.equal(r.changes.length, 2);
  const k2 = r.stateChanges.find((c) => Buffer.from(c.key).toString().endsWith('k2'))!;
  t.same(
    k2.changes.map((c) => c.cause.type),
    ['transaction_processing', 'receipt_processing'],
  );
  const ch = applyChanges(s, base.newRoot, r.changes);
  store(s, ch);
  const after = new Trie(s, ch.newRoot);
  t.equal(after.get(trieKeyContractData('a.near', utf8('k1'))), undefined);
  t.same(after.get(trieKeyContractData('a.near', utf8('k2'))), utf8('22'));
});

t.test('trie keys parse back', async (t) => {
  const pk = parsePublicKey('ed25519:9C6hybhQ6Aycep9jaUnP6uL9ZYvDjUp1aSkFWPUFJtpj');
  t.same(parseTrieKey(trieKeyAccount('alice.near')), { col: 'account', accountId: 'alice.near' });
  const ak = parseTrieKey(trieKeyAccessKey('alice.near', pk));
  t.equal(ak.col, 'access_key');
  t.same(parseTrieKey(trieKeyContractData('alice.near', utf8('a,b'))), {
    col: 'contract_data',
    accountId: 'alice.near',
    key: utf8('a,b'),
  });
  t.equal(toHex(trieKeyAccount('treasury.near')), '0074726561737572792e6e656172');
  t.same(parseTrieKey(trieKeyDelayedReceiptIndices()), { col: 'delayed_receipt_indices' });
  t.same(parseTrieKey(trieKeyDelayedReceipt(258n)), { col: 'delayed_receipt', index: 258n });
  t.throws(() => parseTrieKey(Uint8Array.of(7, 1, 2)), TrieKeyParseError, 'neither length');
});

t.test("trie keys are nearcore's bytes (reference/trie.md's examples)", async (t) => {
  const pk = {
    keyType: 0,
    data: fromHex('a4a8186ce9a4f50a2b7e9b367d9842ef3464bbcfb48cc29fb90968adf391098a'),
  } as const;
  t.equal(toHex(trieKeyAccount('treasury.near')), '0074726561737572792e6e656172');
  t.equal(toHex(trieKeyContractCode('near')), '016e656172');
  t.equal(toHex(trieKeyContractData('near', utf8('STATE'))), '096e6561722c5354415445');
  t.equal(toHex(trieKeyContractDataPrefix('near')), '096e6561722c');
  const ak = trieKeyAccessKey('bo.near', pk);
  t.equal(toHex(ak), `02626f2e6e65617202${'00'}${toHex(pk.data)}`);
  t.equal(ak.length, 42);
  t.equal(toHex(trieKeyAccessKeyPrefix('bo.near')), '02626f2e6e65617202');
  t.equal(toHex(trieKeyReceivedData('a', new Uint8Array(32).fill(7))), `03612c${'07'.repeat(32)}`);
  // trie_key.rs: DelayedReceiptIndices is col::DELAYED_RECEIPT_OR_INDICES alone, DelayedReceipt the
  // same byte then its index as u64 LE.
  t.equal(toHex(trieKeyDelayedReceiptIndices()), '07');
  t.equal(toHex(trieKeyDelayedReceipt(258n)), '070201000000000000');
  // Not a valid account id, but a key of it is still its UTF-8 bytes, as nearcore's would be.
  t.equal(toHex(trieKeyContractData('é', utf8('k'))), '09c3a92c6b');
  t.equal(toHex(trieKeyAccessKey('é', pk)), `02c3a90200${toHex(pk.data)}`);
});

t.test('TrieUpdate.finalize lists keys in byte order, a prefix before its extensions', async (t) => {
  const u = new TrieUpdate({ get: () => undefined });
  const keys = ['ff', '80', '7f', '0001', '00', '00ff', '0080', '7fff'].map(fromHex);
  for (const k of keys) u.set(k, utf8('v'));
  u.commit({ type: 'transaction_processing', txHash: new Uint8Array(32) });
  t.same(
    u.finalize().changes.map((c) => toHex(c.key)),
    ['00', '0001', '0080', '00ff', '7f', '7fff', '80', 'ff'],
  );
  t.same(
    [...u.iterPrefix(fromHex('00'))].map(([k]) => toHex(k)),
    ['00', '0001', '0080', '00ff'],
  );
});

/**
 * Keys 0x01 0x23, 0x01 0x24 and 0x01: an extension [0,1], a branch holding 0x01's value ("z"), a
 * branch at nibble 2 with children 3 and 4, and two leaves with empty keys ("x", "y").
 */
function smallTrie(storage: MemoryTrieStorage): Trie {
  const ch = applyChanges(storage, EMPTY_ROOT, [
    { key: fromHex('0123'), value: utf8('x') },
    { key: fromHex('0124'), value: utf8('y') },
    { key: fromHex('01'), value: utf8('z') },
  ]);
  store(storage, ch);
  return new Trie(storage, ch.newRoot);
}

t.test('touchedNodes counts what nearcore’s lookup_from_state_column visits', async (t) => {
  const storage = new MemoryTrieStorage();
  t.same(
    new Trie(storage, EMPTY_ROOT).touchedNodes(utf8('a')),
    { nodes: 0, found: false, cached: 0, valueHash: null },
    'empty trie',
  );
  const trie = smallTrie(storage);
  const [x, z] = [sha256(utf8('x')), sha256(utf8('z'))];
  const lookups: [string, number, Uint8Array | null, string][] = [
    ['0123', 4, x, 'ext, branch, branch, leaf, and the value’s hash'],
    ['01', 2, z, 'a value on a branch'],
    ['0125', 3, null, 'no child 5: the last node counts'],
    ['02', 1, null, 'leaves the extension'],
  ];
  for (const [key, nodes, valueHash, what] of lookups)
    t.same(trie.touchedNodes(fromHex(key)), { nodes, found: valueHash !== null, cached: 0, valueHash }, what);
  const update = new TrieUpdate({ get: (k) => trie.get(k), touchedNodes: (k, a) => trie.touchedNodes(k, a) });
  t.same(
    update.touchedNodes(fromHex('0123')),
    { touched: 4, cached: 0, valueHash: x },
    'the path, and the value',
  );
  update.set(fromHex('0123'), utf8('w'));
  t.same(
    update.touchedNodes(fromHex('0123')),
    { touched: 0, cached: 0, valueHash: null },
    'written in this update: from memory',
  );
  t.same(
    new TrieUpdate({ get: () => undefined }).touchedNodes(fromHex('0123')),
    { touched: 0, cached: 0, valueHash: null },
    'no trie, no nodes',
  );
});

// nearcore's AccountingState (runtime/src/ext.rs) keeps the nodes and values a chunk's contract
// storage lookups fetched, by hash: track_mem_lookup finds one there (read_cached_trie_node),
// track_disk_lookup counts any other (touching_trie_node) and keeps it. A value is dereferenced
// through it too: by a write or remove once the old value's bytes are paid, and by a read (uncharged).
t.test('a lookup counts the nodes and values met before, by hash, as cached', async (t) => {
  const storage = new MemoryTrieStorage();
  const trie = smallTrie(storage);
  const accounting = new TrieAccounting();
  const cachedOf = (key: string) => trie.touchedNodes(fromHex(key), accounting).cached;
  t.equal(cachedOf('0123'), 0, 'all new');
  t.equal(cachedOf('0124'), 3, 'the extension and both branches again; the leaf new');
  t.equal(cachedOf('01'), 2, 'the path again');
  t.equal(cachedOf('0125'), 3, 'absent: its path again');
  t.equal(trie.touchedNodes(fromHex('01')).cached, 0, 'no accounting, none cached');

  // Two leaves of the same suffix and value are the same node: met again at another place of the
  // trie, it is cached, and so is the value, the same value.
  const twin = applyChanges(storage, EMPTY_ROOT, [
    { key: fromHex('10'), value: utf8('v') },
    { key: fromHex('20'), value: utf8('v') },
  ]);
  store(storage, twin);
  const twins = new Trie(storage, twin.newRoot);
  const a = new TrieAccounting();
  t.equal(twins.touchedNodes(fromHex('10'), a).cached, 0);
  t.equal(a.cached(sha256(utf8('v'))), false, 'the first value dereferenced');
  t.equal(twins.touchedNodes(fromHex('20'), a).cached, 2, 'branch, twin leaf');
  t.equal(a.cached(sha256(utf8('v'))), true, 'the same value again');

  // A recorder's lookups count the same way.
  const recorded = new TrieAccounting();
  const recorder = new TrieRecorder(trie);
  const plain = new TrieAccounting();
  for (const key of ['0123', '0124', '01', '0125', '02'])
    t.same(
      recorder.recordLookup(fromHex(key), false, recorded),
      trie.touchedNodes(fromHex(key), plain),
      `recorded lookup of ${key}`,
    );

  // An update keeps one accounting for all its lookups, and its reads' values warm it.
  const update = new TrieUpdate({
    get: (k) => trie.get(k),
    touchedNodes: (k, acc) => trie.touchedNodes(k, acc),
  });
  const y = sha256(utf8('y'));
  update.readValue(fromHex('0124'), utf8('y'));
  t.same(update.touchedNodes(fromHex('0123')), { touched: 4, cached: 0, valueHash: sha256(utf8('x')) });
  t.equal(update.touchValue(sha256(utf8('x'))), false, 'x dereferenced for the first time');
  t.same(update.touchedNodes(fromHex('0124')), { touched: 1, cached: 3, valueHash: y }, 'its own accounting');
  t.equal(update.touchValue(y), true, 'y was read before: cached');
  update.set(fromHex('01'), utf8('w'));
  update.readValue(fromHex('01'), utf8('w'));
  t.equal(
    update.touchValue(sha256(utf8('w'))),
    false,
    'a value this update wrote is not the trie’s: not kept',
  );
});

t.test("column ids are nearcore's (core/primitives/src/trie_key.rs col), one per key kind", async (t) => {
  t.same(
    { ...TrieKeyCol },
    {
      Account: 0,
      ContractCode: 1,
      AccessKey: 2,
      ReceivedData: 3,
      PostponedReceiptId: 4,
      PendingDataCount: 5,
      PostponedReceipt: 6,
      DelayedReceiptOrIndices: 7,
      ContractData: 9,
      PromiseYieldIndices: 10,
      PromiseYieldTimeout: 11,
      PromiseYieldReceipt: 12,
      BufferedReceiptIndices: 13,
      BufferedReceipt: 14,
      BandwidthSchedulerState: 15,
      BufferedReceiptGroupsQueueData: 16,
      BufferedReceiptGroupsQueueItem: 17,
      GlobalContractCode: 18,
      GlobalContractNonce: 19,
      PromiseYieldStatus: 20,
      YieldIdToDataId: 22,
      DataIdToYieldId: 23,
    },
  );
  const ids = Object.values(TrieKeyCol);
  t.equal(
    new Set(ids).size,
    ids.length,
    'no column named twice (the delayed queue shares one, as in nearcore)',
  );
  const hash = new Uint8Array(32).fill(7);
  const byHash = { kind: 'CodeHash', hash } as const;
  t.same(
    [
      trieKeyGlobalContractCode(byHash)[0],
      trieKeyGlobalContractNonce(byHash)[0],
      trieKeyPromiseYieldStatus('a.near', hash)[0],
      trieKeyYieldIdToDataId('a.near', hash)[0],
      trieKeyDataIdToYieldId('a.near', hash)[0],
    ],
    [18, 19, 20, 22, 23],
  );
});

t.test(
  'genesis gas keys: the key and its GasKeyNonce records, counted as nearcore counts them',
  async (t) => {
    const pk = 'ed25519:6E8sCci9badyRkXb3JoRpBj5p8C6Tw41ELDZoiihKEtp';
    const kvs = genesisStateFromRecords(
      [
        {
          Account: {
            account_id: 'g.near',
            account: {
              amount: '1',
              locked: '0',
              code_hash: '11111111111111111111111111111111',
              storage_usage: 0,
            },
          },
        },
        {
          AccessKey: {
            account_id: 'g.near',
            public_key: pk,
            access_key: { nonce: 0, permission: { GasKeyFullAccess: { balance: '9', num_nonces: 2 } } },
          },
        },
        { GasKeyNonce: { account_id: 'g.near', public_key: pk, index: 0, nonce: 5 } },
        { GasKeyNonce: { account_id: 'g.near', public_key: pk, index: 1, nonce: 6 } },
      ],
      { numBytesAccount: 100n, numExtraBytesRecord: 40n, validators: [] },
    );
    t.equal(kvs.length, 4);
    const account = kvs.find((kv) => kv.key[0] === 0)!.value;
    // StorageComputer: the account's 100; the key's 40 + 33 + 27 (nonce, tag 3, balance, count); each
    // nonce's 40 + 33 + 2 (index) + 8 (value).
    t.equal(new DataView(account.buffer, account.byteOffset).getBigUint64(64, true), 100n + 100n + 2n * 83n);
    const nonceRow = kvs.find(
      (kv) => kv.key.length === 1 + 6 + 1 + 33 + 2 && kv.key[kv.key.length - 2] === 1,
    )!;
    t.same([...nonceRow.value], [6, 0, 0, 0, 0, 0, 0, 0]);
  },
);
