// Old-height reads of a key changed since: a history seek the first time a span of heights is met,
// the remembered answer after, and the right value at every height as the history grows above.
import {
  encodeFlatRow,
  encodeHistoryValue,
  FLAT_KEY,
  HistoryStore,
  historyKey,
  SeekCache,
} from '@nearlite/follower';
import { DBCol, Store, StoreUpdate } from '@nearlite/store';
import t from 'tap';
import { followedTo } from './followed_to.js';

/** Counts the history seeks a store makes from now on. */
function countSeeks(store: Store): { n: number } {
  const count = { n: 0 };
  const first = store.first.bind(store);
  store.first = (...args) => {
    count.n++;
    return first(...args);
  };
  return count;
}

t.test('spans answer the heights a seek proved, nothing else', async (t) => {
  const c = new SeekCache();
  const v = Uint8Array.of(7);
  t.equal(c.get('k', 15), undefined, 'unknown before any seek');
  c.add('k', 10, 15, v);
  v[0] = 9; // the cache holds its own copy
  for (const h of [10, 12, 15]) t.same(c.get('k', h), Uint8Array.of(7), `#${h}`);
  for (const h of [9, 16]) t.equal(c.get('k', h), undefined, `#${h} is not proved`);
  c.add('k', 10, 30, Uint8Array.of(7));
  t.same(c.get('k', 25), Uint8Array.of(7), 'a later seek that finds the same row extends the span');
  c.add('k', -1, 5, null);
  t.equal(c.get('k', 0), null, 'absent below the first row');
  t.equal(c.get('k', 7), undefined);
  for (let i = 0; i < 40; i++) c.add('many', 100 + 10 * i, 105 + 10 * i, Uint8Array.of(i));
  t.same(c.get('many', 495), Uint8Array.of(39), 'the newest spans are kept');
  t.equal(c.get('many', 100), undefined, 'past 32 spans a key drops its oldest');
});

t.test('a follower answers old heights from its seeks, and stays right as rows come', async (t) => {
  const store = await Store.memory();
  t.teardown(() => store.close());
  const history = new HistoryStore(store);
  await followedTo(store, 1_000_000);
  const key = Uint8Array.of(9, 1, 2);
  const write = async (height: number, value: Uint8Array | null) => {
    const stored = encodeHistoryValue(value);
    const u = new StoreUpdate()
      .put(DBCol.StateHistory, historyKey(key, height), stored)
      .put(DBCol.StateHistoryFlat, key, encodeFlatRow(height, stored));
    await store.commit(u, { cacheRows: false });
  };
  const seeks = countSeeks(store);
  // A history with flat rows: the newest row of each key is one read away.
  await store.commit(new StoreUpdate().put(DBCol.FollowerMisc, FLAT_KEY, Uint8Array.of(1)));
  await write(10, Uint8Array.of(1));
  await write(20, Uint8Array.of(2));
  t.same(await history.valueAt(key, 15), Uint8Array.of(1));
  t.equal(seeks.n, 1, 'the first read at an old height seeks');
  t.same(await history.valueAt(key, 15), Uint8Array.of(1));
  t.same(await history.valueAt(key, 12), Uint8Array.of(1));
  t.equal(seeks.n, 1, 'heights the seek proved (10 to 15) do not seek again');
  t.same(await history.valueAt(key, 18), Uint8Array.of(1));
  t.equal(seeks.n, 2, 'one outside them does');
  t.same(await history.valueAt(key, 17), Uint8Array.of(1));
  t.equal(seeks.n, 2, 'and the span now reaches it');
  t.equal(await history.valueAt(key, 5), null, 'absent before its first row');
  t.same(await history.valueAt(key, 20), Uint8Array.of(2), 'the newest row is read from the flat row');
  t.equal(seeks.n, 3);
  await write(30, null);
  await write(40, Uint8Array.of(4));
  const expected: [number, number[] | null][] = [
    [5, null],
    [10, [1]],
    [19, [1]],
    [20, [2]],
    [29, [2]],
    [30, null],
    [39, null],
    [40, [4]],
    [45, [4]],
  ];
  for (let round = 0; round < 2; round++)
    for (const [h, v] of expected)
      t.same(await history.valueAt(key, h), v && Uint8Array.from(v), `round ${round}: #${h}`);
});

t.test('identical reads that arrive together share one seek', async (t) => {
  const store = await Store.memory();
  t.teardown(() => store.close());
  const history = new HistoryStore(store);
  await followedTo(store, 1_000_000);
  const key = Uint8Array.of(9, 1, 3);
  const other = Uint8Array.of(9, 1, 4);
  const u = new StoreUpdate().put(DBCol.FollowerMisc, FLAT_KEY, Uint8Array.of(1));
  for (const [k, height, v] of [
    [key, 10, 1],
    [key, 20, 2],
    [other, 10, 3],
    [other, 20, 4],
  ] as const) {
    const stored = encodeHistoryValue(Uint8Array.of(v));
    u.put(DBCol.StateHistory, historyKey(k, height), stored).put(
      DBCol.StateHistoryFlat,
      k,
      encodeFlatRow(height, stored),
    );
  }
  await store.commit(u, { cacheRows: false });
  const seeks = countSeeks(store);
  const reads = [
    ...Array.from({ length: 50 }, () => history.valueAt(key, 15)),
    ...Array.from({ length: 50 }, () => history.valueAt(other, 15)),
    history.valueAt(key, 12),
  ];
  const values = await Promise.all(reads);
  t.same(values.slice(0, 50), Array(50).fill(Uint8Array.of(1)), 'every read of the key has its value');
  t.same(values.slice(50, 100), Array(50).fill(Uint8Array.of(3)), 'and of the other key');
  t.same(values[100], Uint8Array.of(1));
  t.equal(seeks.n, 3, 'one seek per key and height in flight, not one per read');
  t.same(await history.valueAt(key, 15), Uint8Array.of(1));
  t.equal(seeks.n, 3, 'and none once it is known');
});
