import {
  decodeHistoryKey,
  encodeHistoryValue,
  escapeKey,
  HistoryStore,
  historyKey,
  historyKeyPrefix,
} from '@nearlite/follower';
import { compareBytes, utf8 } from '@nearlite/primitives';
import { DBCol, Store, StoreUpdate } from '@nearlite/store';
import t from 'tap';
import { tempDir } from '../../../test/helpers/tmp.js';

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
