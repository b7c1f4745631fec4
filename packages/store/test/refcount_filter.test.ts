import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { DBCol, Store, StoreUpdate } from '@nearlite/store';
import t from 'tap';
import { tempDir } from '../../../test/helpers/tmp.js';
import { PresenceFilter } from '../src/presence_filter.js';

const hash = () => new Uint8Array(randomBytes(32));

/** A database at `dir` holding `keys` as trie nodes of count `rc`, written without a filter. */
async function storeWithNodes(dir: string, keys: readonly Uint8Array[], value: Uint8Array, rc = 1) {
  const plain = await Store.open(dir);
  const u = new StoreUpdate();
  for (const k of keys) u.incRef(DBCol.State, k, value, rc);
  await plain.commit(u);
  await plain.close();
}

t.test('a presence filter admits every key added and few others', async (t) => {
  const f = new PresenceFilter(50_000);
  const keys = Array.from({ length: 50_000 }, hash);
  for (const k of keys) f.add(k);
  t.ok(
    keys.every((k) => f.mayContain(k)),
    'no key added is denied',
  );
  let admitted = 0;
  for (let i = 0; i < 50_000; i++) if (f.mayContain(hash())) admitted++;
  // At capacity, twelve bits a key and five probes admit about 0.5 % of absent keys.
  t.ok(admitted < 50_000 * 0.02, `absent keys admitted: ${admitted} of 50000`);
  const short = new PresenceFilter(10);
  for (const k of [Uint8Array.of(1), Uint8Array.of(2, 3), new Uint8Array(0)]) short.add(k);
  t.ok(short.mayContain(Uint8Array.of(1)) && short.mayContain(Uint8Array.of(2, 3)));
  t.ok(short.mayContain(new Uint8Array(0)));
});

t.test('with a refcount filter, counts of stored rows are read and new ones are not', async (t) => {
  const dir = join(tempDir(t), 'data');
  const old = Array.from({ length: 200 }, hash);
  await storeWithNodes(dir, old, Uint8Array.of(1, 2, 3), 2);

  const store = await Store.open(dir, { refcountFilter: true });
  await store.refcountFilterSettled();
  t.equal(store.stats.refcountFilterBuilds, 1);
  const fresh = Array.from({ length: 200 }, hash);
  const v = new StoreUpdate();
  for (const k of old) v.incRef(DBCol.State, k, Uint8Array.of(1, 2, 3));
  for (const k of fresh) v.incRef(DBCol.State, k, Uint8Array.of(4));
  await store.commit(v);
  t.ok(
    old.every((k) => store.refcount(DBCol.State, k) === 3),
    'a stored row keeps its count and gains the new one',
  );
  t.ok(fresh.every((k) => store.refcount(DBCol.State, k) === 1));
  t.equal(store.stats.refcountsFiltered, 200, 'only the new keys were folded without a read');

  // A row deleted stays admitted: its next count is read, found absent, and starts again.
  const gone = fresh[0]!;
  await store.commit(new StoreUpdate().decRef(DBCol.State, gone, 1));
  t.equal(store.get(DBCol.State, gone), undefined);
  await store.commit(new StoreUpdate().incRef(DBCol.State, gone, Uint8Array.of(5)));
  t.equal(store.refcount(DBCol.State, gone), 1);
  t.same(store.get(DBCol.State, gone), Uint8Array.of(5));
  await store.close();

  // A second open builds its filter from what the first wrote.
  const again = await Store.open(dir, { refcountFilter: true });
  await again.refcountFilterSettled();
  await again.commit(new StoreUpdate().incRef(DBCol.State, fresh[1]!, Uint8Array.of(4)));
  t.equal(again.refcount(DBCol.State, fresh[1]!), 2);
  await again.close();
});

/**
 * Rounds of batches as a chain writes them, until `more(round)` says stop: three batches of new keys
 * in flight at once, beside one counting the keys of two rounds before again (no two batches touch
 * the same key, as a chain's do not). Returns the number of rounds and the keys whose counts differ
 * from the sum of their increments.
 */
async function rounds(store: Store, more: (round: number) => boolean): Promise<[number, number]> {
  const expected = new Map<string, { key: Uint8Array; rc: number }>();
  const made: Uint8Array[][] = [];
  let r = 0;
  for (; more(r); r++) {
    const commits: Promise<void>[] = [];
    const keys: Uint8Array[] = [];
    for (let c = 0; c < 3; c++) {
      const u = new StoreUpdate();
      for (let i = 0; i < 12; i++) {
        const k = hash();
        keys.push(k);
        u.incRef(DBCol.State, k, k.subarray(0, 4));
        expected.set(Buffer.from(k).toString('hex'), { key: k, rc: 1 });
      }
      commits.push(store.commit(u));
    }
    const older = made[r - 2];
    if (older) {
      const u = new StoreUpdate();
      for (const k of older) {
        u.incRef(DBCol.State, k, k.subarray(0, 4));
        expected.get(Buffer.from(k).toString('hex'))!.rc++;
      }
      commits.push(store.commit(u));
    }
    made.push(keys);
    await Promise.all(commits);
  }
  await store.refcountFilterSettled();
  const wrong = [...expected.values()].filter(({ key, rc }) => store.refcount(DBCol.State, key) !== rc);
  return [r, wrong.length];
}

t.test('counts stay exact for keys written while the filter is built', async (t) => {
  const dir = join(tempDir(t), 'data');
  // Enough rows that the build reads them over many turns of the event loop.
  await storeWithNodes(dir, Array.from({ length: 150_000 }, hash), Uint8Array.of(1));
  const store = await Store.open(dir, { refcountFilter: true, refcountFilterKeys: 400_000 });
  // Batches start at once, before the build has read anything, and go on for three rounds after it
  // answers: the keys of the rounds written meanwhile are counted again through the filter.
  let builtAt = -1;
  const [n, wrong] = await rounds(store, (r) => {
    if (builtAt < 0 && store.stats.refcountFilterBuilds > 0) builtAt = r;
    return r < 5000 && (builtAt < 0 || r < builtAt + 3);
  });
  t.ok(builtAt > 2, `rounds written while the filter was built: ${builtAt} of ${n}`);
  t.equal(store.stats.refcountFilterBuilds, 1);
  t.ok(store.stats.refcountsFiltered > 0, 'new keys were folded without a read');
  t.equal(wrong, 0, 'every count is the sum of its increments');
  await store.close();
});

t.test('counts stay exact while a filter is outgrown and built anew', async (t) => {
  const dir = join(tempDir(t), 'data');
  // A tiny first capacity: the filter is built anew, larger, again and again as keys arrive.
  const store = await Store.open(dir, { refcountFilter: true, refcountFilterKeys: 8 });
  const [, wrong] = await rounds(store, (r) => r < 60);
  t.ok(store.stats.refcountFilterBuilds > 2, `filters built: ${store.stats.refcountFilterBuilds}`);
  t.ok(store.stats.refcountsFiltered > 0, 'new keys were folded without a read');
  t.equal(wrong, 0, 'every count is the sum of its increments');
  await store.close();
});

t.test('a batch still being written when a build starts is in the filter built', async (t) => {
  const dir = join(tempDir(t), 'data');
  const store = await Store.open(dir, { refcountFilter: true, refcountFilterKeys: 1000 });
  await store.refcountFilterSettled();
  // Its 1,001st new key outgrows the filter: the build starts while the batch is made, reads the
  // database before this large batch is written, and must take its keys from the batch itself.
  const keys = Array.from({ length: 50_000 }, hash);
  const u = new StoreUpdate();
  for (const k of keys) u.incRef(DBCol.State, k, Uint8Array.of(1));
  await store.commit(u);
  await store.refcountFilterSettled();
  t.equal(store.stats.refcountFilterBuilds, 2);
  const again = new StoreUpdate();
  for (const k of keys) again.incRef(DBCol.State, k, Uint8Array.of(1));
  await store.commit(again);
  t.equal(keys.filter((k) => store.refcount(DBCol.State, k) !== 2).length, 0, 'every count is 2');
  await store.close();
});

t.test('a store closed while its filter is built closes cleanly', async (t) => {
  const dir = join(tempDir(t), 'data');
  await storeWithNodes(dir, Array.from({ length: 20_000 }, hash), Uint8Array.of(1));
  const store = await Store.open(dir, { refcountFilter: true });
  await store.close();
  await store.refcountFilterSettled();
  const reopened = await Store.open(dir, { refcountFilter: true });
  await reopened.refcountFilterSettled();
  t.equal(reopened.stats.refcountFilterBuilds, 1);
  await reopened.close();
});

t.test(
  'a clean close keeps the filters: the next open takes them instead of reading every key',
  async (t) => {
    const dir = join(tempDir(t), 'data');
    const old = Array.from({ length: 5_000 }, hash);
    await storeWithNodes(dir, old, Uint8Array.of(1));
    const first = await Store.open(dir, { refcountFilter: true });
    await first.refcountFilterSettled();
    t.equal(first.stats.refcountFilterBuilds, 1);
    const added = Array.from({ length: 300 }, hash);
    const u = new StoreUpdate();
    for (const k of added) u.incRef(DBCol.State, k, Uint8Array.of(2));
    await first.commit(u);
    await first.close();

    const second = await Store.open(dir, { refcountFilter: true });
    await second.refcountFilterSettled();
    t.equal(second.stats.refcountFilterBuilds, 0, 'nothing built: the kept filters answer');
    t.equal(
      second.get(DBCol.DbVersion, Buffer.from('refcount_filters')),
      undefined,
      'the open deleted the row',
    );
    const fresh = Array.from({ length: 100 }, hash);
    const v = new StoreUpdate();
    for (const k of [...old.slice(0, 100), ...added]) v.incRef(DBCol.State, k, Uint8Array.of(1));
    for (const k of fresh) v.incRef(DBCol.State, k, Uint8Array.of(3));
    await second.commit(v);
    t.equal(second.stats.refcountsFiltered, 100, 'only the new keys were denied');
    t.ok(
      [...old.slice(0, 100), ...added].every((k) => second.refcount(DBCol.State, k) === 2),
      'keys of both earlier opens are admitted, their counts read',
    );
    await second.close();
  },
);

t.test('kept filters are not taken after a crash or a write by a store without filters', async (t) => {
  const dir = join(tempDir(t), 'data');
  await storeWithNodes(dir, Array.from({ length: 1_000 }, hash), Uint8Array.of(1));
  const first = await Store.open(dir, { refcountFilter: true });
  await first.refcountFilterSettled();
  await first.close();

  // A store without filters (a tool, another thread's store) adds a trie node: the kept row goes.
  const plainKey = hash();
  const plain = await Store.open(dir);
  await plain.commit(new StoreUpdate().incRef(DBCol.State, plainKey, Uint8Array.of(7)));
  await plain.close();
  const afterPlain = await Store.open(dir, { refcountFilter: true });
  await afterPlain.refcountFilterSettled();
  t.equal(afterPlain.stats.refcountFilterBuilds, 1, 'built again');
  await afterPlain.commit(new StoreUpdate().incRef(DBCol.State, plainKey, Uint8Array.of(7)));
  t.equal(afterPlain.refcount(DBCol.State, plainKey), 2, 'the plain store’s node is counted');
  await afterPlain.close();

  // A process killed after its open took the row and wrote new nodes: no row is left to take.
  const crashKey = hash();
  const script = `
    import { DBCol, Store, StoreUpdate } from '@nearlite/store';
    const s = await Store.open(${JSON.stringify(dir)}, { refcountFilter: true });
    await s.refcountFilterSettled();
    await s.commit(new StoreUpdate().incRef(DBCol.State, Uint8Array.from(${JSON.stringify([...crashKey])}), Uint8Array.of(9)));
    process.kill(process.pid, 'SIGKILL');
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: process.cwd() });
  t.equal(r.signal, 'SIGKILL', `the writer was killed (${r.stderr})`);
  const afterCrash = await Store.open(dir, { refcountFilter: true });
  await afterCrash.refcountFilterSettled();
  t.equal(afterCrash.stats.refcountFilterBuilds, 1, 'built again after the crash');
  await afterCrash.commit(new StoreUpdate().incRef(DBCol.State, crashKey, Uint8Array.of(9)));
  t.equal(afterCrash.refcount(DBCol.State, crashKey), 2, 'the crashed writer’s node is counted');
  await afterCrash.close();

  // Kept bytes that are not a whole set of filters are left for a build.
  const broken = await Store.open(dir);
  const bad = new StoreUpdate();
  bad.put(DBCol.DbVersion, Buffer.from('refcount_filters'), Uint8Array.of(1, 1, 3));
  await broken.commit(bad);
  await broken.close();
  const afterBroken = await Store.open(dir, { refcountFilter: true });
  await afterBroken.refcountFilterSettled();
  t.equal(afterBroken.stats.refcountFilterBuilds, 1, 'built instead of taking broken bytes');
  t.equal(afterBroken.get(DBCol.DbVersion, Buffer.from('refcount_filters')), undefined, 'and they are gone');
  await afterBroken.close();
});
