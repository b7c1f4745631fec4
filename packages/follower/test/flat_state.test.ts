// StateHistoryFlat (each key's newest history row) answers reads at heights the key has not changed
// since, and those answers are the history's: checked height by height against a plain seek of
// StateHistory, across multi-block batches, a key written twice in one block, deletions, GC, and a
// history written before the column existed.
import {
  decodeHistoryValue,
  FLAT_MISS,
  HistoryStore,
  historyKeyPrefix,
  invertedHeight,
} from '@nearlite/follower';
import { concatBytes, toBase64, toHex, utf8 } from '@nearlite/primitives';
import { DBCol, type Store, Store as StoreClass, StoreUpdate } from '@nearlite/store';
import type { StreamerMessage } from '@nearlite/stream';
import { trieKeyContractData } from '@nearlite/trie';
import t, { type Test } from 'tap';
import { flatMismatches } from '../../../test/helpers/flat_check.js';
import { syntheticChain } from '../../../test/helpers/synthetic_chain.js';
import { tempDir } from '../../../test/helpers/tmp.js';

const ACCOUNT = 'app.near';
const KEYS = ['hot', 'sometimes', 'late', 'genesis-only'];
const trieKey = (k: string) => trieKeyContractData(ACCOUNT, utf8(k));

function dataChange(
  key: string,
  value: string | null,
): StreamerMessage['shards'][number]['state_changes'][number] {
  const cause = { type: 'transaction_processing', tx_hash: '11111111111111111111111111111111' };
  return value === null
    ? { cause, type: 'data_deletion', change: { account_id: ACCOUNT, key_base64: toBase64(utf8(key)) } }
    : ({
        cause,
        type: 'data_update',
        change: { account_id: ACCOUNT, key_base64: toBase64(utf8(key)), value_base64: toBase64(utf8(value)) },
      } as never);
}

/** A chain whose blocks change the test keys, each block in its own way. */
function chainWithChanges(count: number): StreamerMessage[] {
  const chain = syntheticChain(count, { from: 500, skip: [507, 530] });
  for (const m of chain) {
    const h = m.block.header.height;
    const changes = [dataChange('hot', `hot@${h}-first`), dataChange('hot', `hot@${h}`)];
    if (h % 7 === 0) changes.push(dataChange('sometimes', h % 3 === 0 ? null : `sometimes@${h}`));
    if (h >= 540 && h % 11 === 0) changes.push(dataChange('late', `late@${h}`));
    for (const s of m.shards) s.state_changes = [];
    m.shards[0]!.state_changes = changes as never;
  }
  return chain;
}

/** The history's answer without the flat rows: the first row at or after the key's height. */
async function seek(store: Store, key: Uint8Array, height: number): Promise<string | null> {
  const prefix = historyKeyPrefix(key);
  const gte = concatBytes(prefix, invertedHeight(height));
  for await (const [, v] of store.iter(DBCol.StateHistory, prefix, { gte, limit: 1 })) {
    const value = decodeHistoryValue(v);
    return value === null ? null : new TextDecoder().decode(value);
  }
  return null;
}

async function follow(store: Store, chain: readonly StreamerMessage[], batch: number): Promise<HistoryStore> {
  const history = new HistoryStore(store);
  await history.writeGenesis(499, [
    { key: trieKey('genesis-only'), value: utf8('g') },
    { key: trieKey('sometimes'), value: utf8('sometimes@genesis') },
  ]);
  for (let i = 0; i < chain.length; i += batch) await history.writeBlocks(chain.slice(i, i + batch), i === 0);
  return history;
}

async function checkEveryHeight(t: Test, history: HistoryStore, top: number): Promise<number> {
  let flatAnswers = 0;
  for (const k of KEYS) {
    const key = trieKey(k);
    for (let h = 495; h <= top; h++) {
      const want = await seek(history.store, key, h);
      const got = await history.valueAt(key, h);
      t.equal(got === null ? null : new TextDecoder().decode(got), want, `${k} at ${h}`);
      const sync = history.valueAtSync(key, h);
      if (sync !== FLAT_MISS) {
        flatAnswers++;
        t.equal(
          sync === null ? null : new TextDecoder().decode(sync),
          want,
          `${k} at ${h} from the flat row`,
        );
      }
    }
  }
  return flatAnswers;
}

t.test('flat rows answer as the history does, at every height', async (t) => {
  const chain = chainWithChanges(60);
  const top = chain.at(-1)!.block.header.height;
  const store = await StoreClass.open(tempDir(t));
  t.teardown(() => store.close());
  const history = await follow(store, chain, 8);
  t.ok(history.hasFlatState());
  const check = await flatMismatches(store);
  t.same(check.mismatches, [], 'each flat row is its key’s newest history row');
  t.equal(check.keys, 4);
  const flatAnswers = await checkEveryHeight(t, history, top);
  t.ok(flatAnswers > 50, `${flatAnswers} reads answered by a flat row`);
  t.equal(history.valueAtSync(trieKey('hot'), top - 1), FLAT_MISS, 'a key changed since needs the seek');
  t.equal(history.valueAtSync(trieKey('never'), 400), null, 'a key without history is absent everywhere');
  t.equal(
    new TextDecoder().decode(history.valueAtSync(trieKey('hot'), top) as Uint8Array),
    `hot@${top}`,
    'the last write of a key in one block wins',
  );
});

t.test('GC of blocks keeps the flat rows exact', async (t) => {
  const chain = chainWithChanges(60);
  const top = chain.at(-1)!.block.header.height;
  const store = await StoreClass.open(tempDir(t));
  t.teardown(() => store.close());
  const history = await follow(store, chain, 5);
  let collected = 0;
  for (let i = 0; i < 40; i++)
    collected += await history.collectGarbage({ keepBlocks: 10, heightsPerStep: 4 });
  t.ok(collected > 30, `${collected} blocks collected`);
  t.ok((history.firstHeight() ?? 0) >= top - 10, 'the tail moved up');
  t.same((await flatMismatches(store)).mismatches, []);
  await checkEveryHeight(t, history, top);
});

t.test('a history written before the flat column is read by seeks until the column is built', async (t) => {
  const chain = chainWithChanges(20);
  const top = chain.at(-1)!.block.header.height;
  const store = await StoreClass.open(tempDir(t));
  t.teardown(() => store.close());
  await follow(store, chain, 4);
  // As an older version left it: no marker, and no flat rows of the genesis state.
  const u = new StoreUpdate();
  u.delete(DBCol.FollowerMisc, utf8('flat'));
  u.delete(DBCol.StateHistoryFlat, trieKey('genesis-only'));
  await store.commit(u);
  const old = new HistoryStore(store);
  t.notOk(old.hasFlatState());
  t.equal(old.valueAtSync(trieKey('genesis-only'), top), FLAT_MISS);
  t.equal(new TextDecoder().decode((await old.valueAt(trieKey('genesis-only'), top))!), 'g');
  t.equal(toHex((await old.valueAt(trieKey('hot'), 510))!), toHex(utf8('hot@510')));

  // Built from the history rows (in batches of two keys here), the column is trusted again.
  t.equal(await old.buildFlatState(2), 3, 'one flat row per key with history (`late` has none yet)');
  t.ok(old.hasFlatState());
  t.same((await flatMismatches(store)).mismatches, []);
  await checkEveryHeight(t, old, top);
  t.equal(await old.buildFlatState(), 0, 'built once');
});
