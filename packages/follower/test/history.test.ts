import {
  decodeHistoryKey,
  encodeFlatRow,
  encodeHistoryValue,
  escapeKey,
  HistoryStore,
  historyKey,
  historyKeyPrefix,
  PrefetchedState,
} from '@nearlite/follower';
import { compareBytes, utf8 } from '@nearlite/primitives';
import { DBCol, Store, StoreUpdate } from '@nearlite/store';
import t from 'tap';
import { tempDir } from '../../../test/helpers/tmp.js';
import { followedTo } from './followed_to.js';

const keys = [
  Uint8Array.of(),
  Uint8Array.of(0),
  Uint8Array.of(0, 0),
  Uint8Array.of(0, 1),
  Uint8Array.of(0, 255),
  Uint8Array.of(1),
  Uint8Array.of(1, 0),
  Uint8Array.of(255, 0, 0),
  utf8('\u0009alice.near,k'),
  utf8('\u0009alice.near,k2'),
];

t.test('escaped keys keep the trie keys order and are prefix-free', async (t) => {
  for (const a of keys) {
    for (const b of keys) {
      const ea = historyKeyPrefix(a);
      const eb = historyKeyPrefix(b);
      t.equal(Math.sign(compareBytes(ea, eb)), Math.sign(compareBytes(a, b)), 'order');
      if (compareBytes(a, b) !== 0) {
        const prefix = ea.length <= eb.length && ea.every((x, i) => eb[i] === x);
        t.notOk(prefix, 'no escaped key is a prefix of another');
      }
    }
    for (const h of [0, 1, 9820210, 2 ** 40]) {
      const d = decodeHistoryKey(historyKey(a, h));
      t.same([...d.trieKey], [...a]);
      t.equal(d.height, h);
    }
  }
  t.same([...escapeKey(Uint8Array.of(7, 0, 7))], [7, 0, 1, 7]);
});

t.test('the value of a key as of a height, and prefix scans at a height', async (t) => {
  const store = await Store.open(tempDir(t));
  const history = new HistoryStore(store);
  await followedTo(store, 1_000_000);
  const k = utf8('\u0009app.near,a');
  const k2 = utf8('\u0009app.near,ab');
  const other = utf8('\u0009app.nearx,a');
  const u = new StoreUpdate();
  u.put(DBCol.StateHistory, historyKey(k, 10), encodeHistoryValue(utf8('v10')));
  u.put(DBCol.StateHistory, historyKey(k, 20), encodeHistoryValue(null));
  u.put(DBCol.StateHistory, historyKey(k, 30), encodeHistoryValue(utf8('v30')));
  u.put(DBCol.StateHistory, historyKey(k2, 15), encodeHistoryValue(utf8('w15')));
  u.put(DBCol.StateHistory, historyKey(other, 5), encodeHistoryValue(utf8('x')));
  await store.commit(u);
  const at = async (h: number) => {
    const v = await history.valueAt(k, h);
    return v === null ? null : new TextDecoder().decode(v);
  };
  t.equal(await at(9), null, 'before it was written');
  t.equal(await at(10), 'v10');
  t.equal(await at(19), 'v10');
  t.equal(await at(20), null, 'deleted');
  t.equal(await at(29), null);
  t.equal(await at(30), 'v30');
  t.equal(await at(1000), 'v30');
  const scan = async (h: number) =>
    (await history.scanAt(utf8('\u0009app.near,'), h)).map(([key, v]) => [
      new TextDecoder().decode(key),
      new TextDecoder().decode(v),
    ]);
  t.same(await scan(12), [['\u0009app.near,a', 'v10']]);
  t.same(await scan(25), [['\u0009app.near,ab', 'w15']], 'a deleted key is left out');
  t.same(await scan(30), [
    ['\u0009app.near,a', 'v30'],
    ['\u0009app.near,ab', 'w15'],
  ]);
  await store.close();
});

t.test('a bounded prefix scan: the keys above a bound, at most a limit of them', async (t) => {
  const store = await Store.open(tempDir(t));
  const history = new HistoryStore(store);
  await followedTo(store, 1_000_000);
  // Keys with zero bytes (escaped as 0x00 0x01), keys that are prefixes of others, and a deletion.
  const base = utf8('\u0009app.near,');
  const tails = [[], [0], [0, 0], [0, 1], [0, 255], [1], [1, 0], [1, 0, 0], [2], [255], [255, 0]];
  const all = tails.map((tail) => Uint8Array.of(...base, ...tail));
  const u = new StoreUpdate();
  for (const [i, k] of all.entries())
    u.put(DBCol.StateHistory, historyKey(k, 10), encodeHistoryValue(Uint8Array.of(i)));
  u.put(DBCol.StateHistory, historyKey(all[3]!, 20), encodeHistoryValue(null));
  u.put(DBCol.StateHistory, historyKey(utf8('\u0009app.nearx'), 10), encodeHistoryValue(utf8('x')));
  await store.commit(u);
  const hex = (rows: [Uint8Array, Uint8Array][]) => rows.map(([k]) => Buffer.from(k).toString('hex'));
  const afters = [
    ...all,
    Uint8Array.of(...base, 0, 0, 0),
    Uint8Array.of(...base, 3),
    Uint8Array.of(9),
    utf8('\u0009app.nearz'),
  ];
  for (const h of [15, 25]) {
    const whole = await history.scanAt(base, h);
    t.equal(whole.length, h === 15 ? all.length : all.length - 1);
    for (const after of afters)
      for (const limit of [undefined, 1, 3]) {
        const want = whole.filter(([k]) => compareBytes(k, after) > 0).slice(0, limit ?? Infinity);
        const got = await history.scanAt(base, h, { after, ...(limit ? { limit } : {}) });
        t.same(hex(got), hex(want), `at ${h} after ${Buffer.from(after).toString('hex')} limit ${limit}`);
      }
  }
  await store.close();
});

t.test('a page read from history brings the entry past its caps, whichever batch holds it', async (t) => {
  const store = await Store.open(tempDir(t));
  const history = new HistoryStore(store);
  await followedTo(store, 1_000_000);
  // 300 entries of 195 bytes of full key and value: the 50,000-byte cap is reached by the 257th,
  // the last of the first batch (256 + 1), so the entry past it is the next batch's first.
  const base = utf8('\u0009app.near,');
  const keyOf = (i: number) => Uint8Array.of(...base, i >> 8, i & 255);
  const value = new Uint8Array(195 - keyOf(0).length).fill(7);
  const u = new StoreUpdate();
  for (let i = 0; i < 300; i++) u.put(DBCol.StateHistory, historyKey(keyOf(i), 5), encodeHistoryValue(value));
  await store.commit(u);
  const taken = async (after: Uint8Array | undefined, limit: number | null) => {
    const state = await new PrefetchedState(history, 10).page(base, after, { afterKey: null, limit });
    return [...state.iterPrefix(base, after)].map(([k]) => (k[k.length - 2]! << 8) | k[k.length - 1]!);
  };
  const whole = await taken(undefined, null);
  t.equal(whole.length, 258, 'the 257 entries the caps take, and the next');
  t.same(whole.slice(-2), [256, 257]);
  t.same(await taken(keyOf(290), null), [291, 292, 293, 294, 295, 296, 297, 298, 299], 'the prefix ends');
  t.same(await taken(keyOf(9), 3), [10, 11, 12, 13], 'three items and the next');
  await store.close();
});

t.test('prefix scans from the flat rows answer as the history rows do, one row a key', async (t) => {
  const store = await Store.open(tempDir(t));
  const history = new HistoryStore(store);
  await followedTo(store, 1_000_000);
  const base = utf8('\u0009app.near,');
  const keyOf = (tail: number[]) => Uint8Array.of(...base, ...tail);
  const tails = [[], [0], [0, 0], [1], [1, 0], [2], [3], [255]];
  await history.writeGenesis(
    0,
    tails.slice(0, 4).map((tail) => ({ key: keyOf(tail), value: Uint8Array.of(tail.length) })),
  );
  // Later blocks as the writer records them: each history row with the key's flat row beside it.
  const put = async (tail: number[], height: number, value: Uint8Array | null) => {
    const u = new StoreUpdate();
    const stored = encodeHistoryValue(value);
    u.put(DBCol.StateHistory, historyKey(keyOf(tail), height), stored);
    u.put(DBCol.StateHistoryFlat, keyOf(tail), encodeFlatRow(height, stored));
    await store.commit(u);
  };
  await put([1, 0], 10, utf8('new at 10'));
  await put([0], 20, null);
  await put([2], 30, utf8('new at 30'));
  await put([0], 40, utf8('back at 40'));
  await put([255], 50, utf8('x'));
  // A hot key, changed at every height from 100 to 2,099.
  for (let h = 100; h < 2100; h += 100) {
    const u = new StoreUpdate();
    for (let i = h; i < h + 100; i++)
      u.put(DBCol.StateHistory, historyKey(keyOf([3]), i), encodeHistoryValue(utf8(`hot ${i}`)));
    u.put(
      DBCol.StateHistoryFlat,
      keyOf([3]),
      encodeFlatRow(h + 99, encodeHistoryValue(utf8(`hot ${h + 99}`))),
    );
    await store.commit(u);
  }
  t.ok(history.hasFlatState());
  const hex = (rows: [Uint8Array, Uint8Array][]) =>
    rows.map(([k, v]) => `${Buffer.from(k).toString('hex')}=${Buffer.from(v).toString()}`);
  let checked = 0;
  for (const h of [0, 5, 10, 25, 35, 45, 99, 100, 1234, 2099, 5000])
    for (const after of [undefined, keyOf([]), keyOf([0]), keyOf([0, 0, 0]), keyOf([3]), utf8('\u0009')])
      for (const limit of [undefined, 1, 2]) {
        const b = { ...(after ? { after } : {}), ...(limit ? { limit } : {}) };
        const want = await history.scanHistoryAt(base, h, b);
        const got = await history.scanAt(base, h, b);
        if (hex(got).join() !== hex(want).join()) t.same(hex(got), hex(want), `at ${h} ${JSON.stringify(b)}`);
        checked++;
      }
  t.equal(checked, 198, 'every height, bound and limit answered alike');
  t.same(hex(await history.scanAt(keyOf([3]), 1234)), [
    `${Buffer.from(keyOf([3])).toString('hex')}=hot 1234`,
  ]);

  // What each reads of the hot key: its one flat row, against every history row above the height.
  const rows = { n: 0 };
  const iter = store.iter.bind(store);
  store.iter = async function* (...a: Parameters<Store['iter']>) {
    for await (const r of iter(...a)) {
      rows.n++;
      yield r;
    }
  } as Store['iter'];
  await history.scanAt(keyOf([3]), 200);
  t.equal(rows.n, 1, 'the flat scan read one row (and the key’s value at 200 by a seek)');
  rows.n = 0;
  await history.scanHistoryAt(keyOf([3]), 200);
  t.ok(rows.n > 1800, `the history walk read ${rows.n} rows`);
  await store.close();
});

t.test('a value given from elsewhere answers over the history, and is handed on', async (t) => {
  const store = await Store.open(tempDir(t));
  const history = new HistoryStore(store);
  await followedTo(store, 1_000_000);
  const held = utf8('\u0009app.near,held');
  const given = utf8('\u0012global');
  const gone = utf8('\u0012gone');
  await store.commit(
    new StoreUpdate().put(DBCol.StateHistory, historyKey(held, 5), encodeHistoryValue(utf8('h'))),
  );
  const state = new PrefetchedState(history, 10).set(given, utf8('code')).set(gone, null);
  t.same(state.get(given), utf8('code'));
  t.same(await state.read(given), utf8('code'), "a view's lazy read finds it");
  t.equal(state.get(gone), undefined, 'an absence given is an absence');
  t.equal(await state.read(gone), undefined);
  t.same(await state.read(held), utf8('h'), 'other keys are read from the history');
  t.same(state.givenRows(), [
    [given, utf8('code')],
    [gone, null],
  ]);
  await store.close();
});

t.test('state is read only at heights the history has followed', async (t) => {
  const store = await Store.open(tempDir(t));
  t.teardown(() => store.close());
  const history = new HistoryStore(store);
  const k = utf8('\u0009app.near,a');
  await history.writeGenesis(100, [{ key: k, value: utf8('g') }]);
  t.same(await history.valueAt(k, 100), utf8('g'), 'the genesis state, before any block');
  await t.rejects(history.valueAt(k, 101), RangeError, 'no block followed yet');
  await followedTo(store, 120);
  t.same(await history.valueAt(k, 120), utf8('g'), 'at the cursor');
  // Its rows would answer any height above with the newest state, as if it were that height's.
  for (const h of [121, 10_000]) {
    await t.rejects(history.valueAt(k, h), { name: 'RangeError', message: /reaches #120/ }, `at ${h}`);
    t.throws(() => history.valueAtSync(k, h), RangeError);
    await t.rejects(history.scanAt(utf8('\u0009app.near,'), h), RangeError);
  }
  for (const h of [-1, 1.5, Number.NaN]) {
    await t.rejects(history.valueAt(k, h), { name: 'RangeError', message: /non-negative integer/ }, `${h}`);
  }
  await followedTo(store, 130);
  t.same(await history.valueAt(k, 125), utf8('g'), 'the cursor moved on: so do the reads');
});

t.test("a tool's arguments of the wrong kind are refused, not read as keys no row has", async (t) => {
  const store = await Store.open(tempDir(t));
  t.teardown(() => store.close());
  const history = new HistoryStore(store);
  const prefix = '\u0009app.near,';
  await history.writeGenesis(100, [{ key: utf8(`${prefix}a`), value: utf8('g') }]);
  t.equal((await history.scanAt(utf8(prefix), 100)).length, 1, 'the key, under its prefix as bytes');
  // Text where bytes go would otherwise scan for its UTF-16 code units and find nothing.
  await t.rejects(history.scanAt(prefix as never, 100), {
    name: 'TypeError',
    message: /^a key prefix is a Uint8Array .*got string/,
  });
  await t.rejects(history.valueAt(`${prefix}a` as never, 100), {
    name: 'TypeError',
    message: /^a trie key is a Uint8Array/,
  });
  for (const h of [-1, 1.5, Number.NaN, 2 ** 60])
    t.throws(() => history.blockAtSync(h), { name: 'RangeError', message: /non-negative integer/ }, `${h}`);
  t.throws(() => history.blockAtSync('100' as never), {
    name: 'TypeError',
    message: 'a block height is a number, got string "100"',
  });
  t.equal(history.blockAtSync(100), undefined, 'a height with no block');
});
