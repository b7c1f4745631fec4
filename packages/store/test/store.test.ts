import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { sha256 } from '@nearlite/primitives';
import {
  DB_VERSION,
  DBCol,
  ensureMetadata,
  joinKey,
  readMetadata,
  recordDbVersion,
  Store,
  StoreError,
  StoreUpdate,
  u64be,
  writeMetadata,
} from '@nearlite/store';
import t from 'tap';
import { MIB, tableBytesOfZeros } from '../../../test/helpers/table_bytes.js';
import { tempDir } from '../../../test/helpers/tmp.js';

const b = (...xs: number[]) => Uint8Array.from(xs);

t.test('column ids are unique', async (t) => {
  const ids = Object.values(DBCol).map((c) => c.id);
  t.equal(new Set(ids).size, ids.length);
  t.ok(ids.every((id) => id >= 0 && id < 256));
});

t.test('u64be keys sort numerically', async (t) => {
  const keys = [5, 256, 1, 70000, 2 ** 40].map((n) => u64be(n));
  const sorted = [...keys].sort((x, y) => Buffer.compare(x, y));
  t.same(
    sorted.map((k) => new DataView(k.buffer).getBigUint64(0)),
    [1n, 5n, 256n, 70000n, 2n ** 40n],
  );
});

t.test('put, get, delete and prefix iteration in one batch', async (t) => {
  const store = await Store.memory();
  const u = new StoreUpdate();
  u.put(DBCol.BlockHeight, u64be(1), b(1));
  u.put(DBCol.BlockHeight, u64be(2), b(2));
  u.put(DBCol.BlockHeight, u64be(3), b(3));
  u.put(DBCol.Chunks, b(9), b(9));
  await store.commit(u);
  t.same(store.get(DBCol.BlockHeight, u64be(2)), b(2));
  t.equal(store.get(DBCol.BlockHeight, u64be(4)), undefined);
  const rows: number[] = [];
  for await (const [, v] of store.iter(DBCol.BlockHeight)) rows.push(v[0]!);
  t.same(rows, [1, 2, 3], 'iteration stays inside its column');
  const rev: number[] = [];
  for await (const [, v] of store.iter(DBCol.BlockHeight, new Uint8Array(0), { reverse: true, limit: 2 }))
    rev.push(v[0]!);
  t.same(rev, [3, 2]);
  const below = async (opts: { gte?: Uint8Array; lt?: Uint8Array; reverse?: boolean }) => {
    const out: number[] = [];
    for await (const [, v] of store.iter(DBCol.BlockHeight, new Uint8Array(0), opts)) out.push(v[0]!);
    return out;
  };
  t.same(await below({ lt: u64be(3), reverse: true }), [2, 1], 'lt bounds a reverse walk');
  t.same(await below({ gte: u64be(2), lt: u64be(3) }), [2], 'between gte and lt');
  t.same(await below({ lt: u64be(1) }), [], 'nothing below the lowest');
  t.same(await below({ lt: u64be(99) }), [1, 2, 3], 'an lt past the column stays inside it');
  await store.commit(new StoreUpdate().delete(DBCol.BlockHeight, u64be(2)));
  t.equal(store.get(DBCol.BlockHeight, u64be(2)), undefined);
  await store.close();
});

t.test('refcounts fold within an update and across commits', async (t) => {
  const store = await Store.memory();
  const key = b(0xaa);
  const u = new StoreUpdate();
  u.incRef(DBCol.State, key, b(7, 7));
  u.incRef(DBCol.State, key, b(7, 7));
  await store.commit(u);
  t.equal(store.refcount(DBCol.State, key), 2);
  t.same(store.get(DBCol.State, key), b(7, 7), 'value is returned without the count');
  await store.commit(new StoreUpdate().decRef(DBCol.State, key));
  t.equal(store.refcount(DBCol.State, key), 1);
  const u2 = new StoreUpdate()
    .decRef(DBCol.State, key)
    .incRef(DBCol.State, key, b(7, 7))
    .decRef(DBCol.State, key);
  await store.commit(u2);
  t.equal(store.get(DBCol.State, key), undefined, 'row is removed when its count reaches zero');
  t.throws(() => new StoreUpdate().incRef(DBCol.Chunks, key, b(1)), TypeError);
  await store.close();
});

t.test('a second open of the same LevelDB is refused with a clear error', async (t) => {
  const dir = tempDir(t);
  const path = joinPath(dir, 'data');
  const first = await Store.open(path);
  const err = await Store.open(path).then(
    () => null,
    (e: unknown) => e,
  );
  t.ok(err instanceof StoreError, 'a StoreError');
  t.equal((err as StoreError).code, 'LOCKED');
  t.match((err as Error).message, /already in use/);
  await first.close();
  const again = await Store.open(path);
  await again.close();
});

t.test('data survives reopen; an archival store is refused to a GC node unless converting', async (t) => {
  const path = joinPath(tempDir(t), 'data');
  let store = await Store.open(path);
  t.same(await ensureMetadata(store, 'archival'), { version: DB_VERSION, kind: 'archival' });
  await store.commit(new StoreUpdate().put(DBCol.BlockMisc, b(1), joinKey(b(1), b(2))));
  await store.close();
  store = await Store.open(path);
  t.same(store.get(DBCol.BlockMisc, b(1)), b(1, 2));
  await t.rejects(ensureMetadata(store, 'gc'), /archival store .* without --archive/);
  t.same(await ensureMetadata(store, 'gc', { convert: true }), { version: DB_VERSION, kind: 'gc' });
  t.same(await ensureMetadata(store, 'gc'), { version: DB_VERSION, kind: 'gc' });
  // As nearcore's opener takes an RPC store with archive set: it stays a GC store.
  t.same(
    await ensureMetadata(store, 'archival'),
    { version: DB_VERSION, kind: 'gc' },
    'archive on a GC store',
  );
  t.same(await ensureMetadata(store, 'archival', { convert: true }), {
    version: DB_VERSION,
    kind: 'archival',
  });
  await store.close();
});

t.test(
  'a store of an older version opens, and is recorded as this version when asked; a newer one is refused',
  async (t) => {
    const path = joinPath(tempDir(t), 'data');
    const store = await Store.open(path);
    t.teardown(() => store.close());
    const old = new StoreUpdate();
    writeMetadata(old, { version: 1, kind: 'archival' });
    await store.commit(old);
    t.equal(DB_VERSION, 2);
    await t.rejects(ensureMetadata(store, 'gc'), { code: 'KIND' });
    const gc = new StoreUpdate();
    writeMetadata(gc, { version: 1, kind: 'gc' });
    await store.commit(gc);
    t.same(await ensureMetadata(store, 'gc'), { version: 1, kind: 'gc' }, 'read as it is');
    t.same(readMetadata(store), { version: 1, kind: 'gc' }, 'a refused or checked start records nothing');
    await recordDbVersion(store);
    t.same(
      readMetadata(store),
      { version: 2, kind: 'gc' },
      'recorded once a start goes on: an older node refuses it',
    );
    const u = new StoreUpdate();
    writeMetadata(u, { version: 3, kind: 'gc' });
    await store.commit(u);
    await t.rejects(ensureMetadata(store, 'gc'), { name: 'StoreError', code: 'VERSION' });
  },
);

/** A store like a chain thread's: only the columns it reads back (here one) are written through. */
async function chainThreadStore(t: Parameters<typeof tempDir>[0]): Promise<Store> {
  const store = await Store.open(joinPath(tempDir(t), 'data'), {
    writeThrough: new Set([DBCol.BlockMisc.id]),
  });
  t.teardown(() => store.close());
  return store;
}

function joinPath(a: string, b: string): string {
  return `${a}/${b}`;
}

t.test('the LRU keeps recently used entries and stays bounded', async (t) => {
  const { LruCache } = await import('@nearlite/store');
  const c = new LruCache<number, number>(10);
  for (let i = 0; i < 5; i++) c.set(i, i);
  for (let round = 0; round < 5; round++) {
    for (let i = 100 + round * 5; i < 105 + round * 5; i++) c.set(i, i);
    t.equal(c.get(0), 0, 'a key read every round survives');
  }
  t.ok(c.size <= 10, `bounded (${c.size})`);
  t.equal(c.get(1), undefined, 'an unread old key was evicted');
  c.delete(0);
  t.equal(c.get(0), undefined);
  // Weighed: the bound is in bytes, not entries.
  const w = new LruCache<number, Uint8Array>(1000, (v) => v.length);
  for (let i = 0; i < 100; i++) w.set(i, new Uint8Array(100));
  let held = 0;
  for (let i = 0; i < 100; i++) if (w.get(i)) held += 100;
  t.ok(held <= 1000 + 100, `held ${held} bytes`);
  t.ok(w.get(99), 'the newest entry is kept');
});

t.test('the read cache follows every commit, including rows read while absent', async (t) => {
  const store = await Store.open(joinPath(tempDir(t), 'data'));
  t.teardown(() => store.close());
  const key = b(1, 2, 3);
  t.equal(store.get(DBCol.FlatState, key), undefined, 'absent, and now cached as absent');
  await store.commit(new StoreUpdate().put(DBCol.FlatState, key, b(9)));
  t.same(store.get(DBCol.FlatState, key), b(9), 'a put replaces the cached absence');
  await store.commit(new StoreUpdate().put(DBCol.FlatState, key, b(8)));
  t.same(store.get(DBCol.FlatState, key), b(8), 'a rewrite of a mutable row is seen');
  await store.commit(new StoreUpdate().delete(DBCol.FlatState, key));
  t.equal(store.get(DBCol.FlatState, key), undefined, 'a delete is seen');
  t.equal(store.has(DBCol.FlatState, key), false);
  const node = b(0xbb);
  t.equal(store.refcount(DBCol.State, node), 0);
  await store.commit(new StoreUpdate().incRef(DBCol.State, node, b(5)));
  t.equal(store.refcount(DBCol.State, node), 1);
  t.same(store.get(DBCol.State, node), b(5));
  await store.commit(new StoreUpdate().decRef(DBCol.State, node));
  t.equal(store.get(DBCol.State, node), undefined);
});

t.test('a row cached from a commit holds bytes of its own, not a view of a larger buffer', async (t) => {
  const store = await Store.open(joinPath(tempDir(t), 'data'));
  t.teardown(() => store.close());
  // An encoder's slab, say: the row is a view of part of it, which caching it as is would keep alive.
  const slab = new Uint8Array(4096);
  const small = slab.subarray(8, 12);
  small.set([1, 2, 3, 4]);
  const large = slab.subarray(100, 300);
  large.fill(7);
  const whole = Uint8Array.of(5, 6);
  await store.commit(
    new StoreUpdate()
      .put(DBCol.Block, b(1), small)
      .put(DBCol.Block, b(2), large)
      .put(DBCol.Block, b(3), whole),
  );
  slab.fill(0);
  const r1 = store.get(DBCol.Block, b(1))!;
  const r2 = store.get(DBCol.Block, b(2))!;
  t.same([...r1], [1, 2, 3, 4], 'the small row kept its bytes');
  t.same([...r2], new Array(200).fill(7), 'the large row kept its bytes');
  t.not(r2.buffer, slab.buffer, 'the large row is not a view of the slab');
  t.equal(store.get(DBCol.Block, b(3)), whole, 'an array of its own is cached as given');
  t.equal(store.stats.reads - store.stats.cacheHits, 0, 'all three came from the cache');
});

t.test('a commit that does not cache its rows still makes the cache forget them', async (t) => {
  const store = await Store.open(joinPath(tempDir(t), 'data'));
  t.teardown(() => store.close());
  const absent = b(1);
  const held = b(2);
  t.equal(store.get(DBCol.FlatState, absent), undefined, 'cached as absent');
  await store.commit(new StoreUpdate().put(DBCol.FlatState, held, b(7)));
  t.same(store.get(DBCol.FlatState, held), b(7), 'cached with its value');
  // A view of a larger buffer, as a follower's prepared rows are.
  const rows = Uint8Array.from([10, 11, 12, 13]);
  const bulk = new StoreUpdate()
    .put(DBCol.FlatState, absent, rows.subarray(0, 1))
    .put(DBCol.FlatState, held, rows.subarray(1, 2));
  await store.commit(bulk, { cacheRows: false });
  const hits = store.stats.cacheHits;
  const first = store.get(DBCol.FlatState, absent);
  const second = store.get(DBCol.FlatState, held);
  t.same(first, b(10), 'the cached absence is gone');
  t.same(second, b(11), 'the cached old value is gone');
  t.equal(store.stats.cacheHits, hits, 'both were read from LevelDB');
  t.not(first?.buffer, rows.buffer, 'the cache holds no view of the written buffer');
  t.same(store.get(DBCol.FlatState, held), b(11));
  t.equal(store.stats.cacheHits, hits + 1, 'the row read back is cached as usual');
});
t.test(
  'rows of columns the cache never held are forgotten if it comes to hold them mid-commit',
  async (t) => {
    const store = await chainThreadStore(t);
    const key = b(4);
    await store.commit(new StoreUpdate().put(DBCol.Receipts, key, b(1)));
    t.same(store.get(DBCol.Receipts, key), b(1), 'a row of a column not written through is read back');
    // The column is cached from here on: a later write makes the cache forget the row.
    await store.commit(new StoreUpdate().put(DBCol.Receipts, key, b(2)));
    t.same(store.get(DBCol.Receipts, key), b(2), 'and a rewrite is seen');
    // A column first read while a batch writing it is in flight: the read may cache the row as the
    // database held it before the batch; the commit forgets it once the batch is written.
    const late = b(5);
    const pending = store.commit(new StoreUpdate().put(DBCol.TransactionResultForBlock, late, b(3)));
    const during = store.get(DBCol.TransactionResultForBlock, late);
    await pending;
    t.ok(during === undefined || during[0] === 3, 'read during the batch: before or after it');
    t.same(store.get(DBCol.TransactionResultForBlock, late), b(3), 'read after it: the row as written');
  },
);

t.test(
  'refcounted rows of a column not written through are counted right and read from LevelDB',
  async (t) => {
    const store = await chainThreadStore(t);
    // Keyed by the hash of its bytes, as a trie node is: a row read from LevelDB is checked against it.
    const node = sha256(b(42));
    // Read first (absent), so the cache holds the column and the commit must forget that answer.
    t.equal(store.get(DBCol.State, node), undefined);
    await store.commit(new StoreUpdate().incRef(DBCol.State, node, b(42)));
    const hits = store.stats.cacheHits;
    t.same(store.get(DBCol.State, node), b(42), 'the new row is read back');
    t.equal(store.stats.cacheHits, hits, 'from LevelDB: the commit kept no copy');
    await store.commit(new StoreUpdate().incRef(DBCol.State, node, b(42), 2));
    t.equal(store.refcount(DBCol.State, node), 3, 'an increment adds to the stored count');
    await store.commit(new StoreUpdate().decRef(DBCol.State, node, 3));
    t.equal(store.get(DBCol.State, node), undefined, 'the last reference removes the row');
  },
);

t.test('first: one seek per call, never a row older than the last commit', async (t) => {
  for (const kind of ['leveldb', 'memory'] as const) {
    const store = kind === 'leveldb' ? await Store.open(tempDir(t)) : await Store.memory();
    const col = DBCol.StateHistory;
    const put = (key: Uint8Array, v: number) => store.commit(new StoreUpdate().put(col, key, b(v)));
    await put(b(1, 5), 15);
    await put(b(1, 9), 19);
    await put(b(2, 0), 20);
    t.same(await store.first(col, b(1), b(1, 0)), [b(1, 5), b(15)], `${kind}: first row at or after`);
    t.same(await store.first(col, b(1), b(1, 6)), [b(1, 9), b(19)], `${kind}: skips what is before`);
    t.equal(await store.first(col, b(1), b(1, 10)), undefined, `${kind}: the next row has another prefix`);
    t.equal(await store.first(col, b(2), b(2, 1)), undefined, `${kind}: the column's last row is passed`);
    // Iterators are pooled between calls; a commit must retire the ones that saw the store before it.
    await put(b(1, 7), 17);
    t.same(await store.first(col, b(1), b(1, 6)), [b(1, 7), b(17)], `${kind}: a row committed since is seen`);
    await store.commit(new StoreUpdate().delete(col, b(1, 7)));
    t.same(await store.first(col, b(1), b(1, 6)), [b(1, 9), b(19)], `${kind}: a row deleted since is gone`);
    // Many seeks in flight at once each get their own iterator and their own answer.
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => store.first(col, b(1), b(1, i % 2 === 0 ? 0 : 6))),
    );
    t.ok(
      answers.every((a, i) => a !== undefined && a[1][0] === (i % 2 === 0 ? 15 : 19)),
      `${kind}: 100 concurrent seeks`,
    );
    // Rows of another column are not rows of this one.
    await store.commit(new StoreUpdate().put(DBCol.StateHistoryFlat, b(0), b(1)));
    t.equal(await store.first(col, b(3), b(3)), undefined, `${kind}: nothing past the column's end`);
    await store.close();
    await t.rejects(store.first(col, b(1), b(1)), StoreError, `${kind}: a closed store refuses`);
  }
});

// The store's 32 MiB memtable keeps 12 MB of rows (and its log) until it fills, where LevelDB's own
// 4 MiB would already have written tables of them.
t.test('writeBufferBytes sets the size LevelDB writes tables at', async (t) => {
  const tables = async (opts: { writeBufferBytes?: number }) => {
    const path = joinPath(tempDir(t), 'data');
    const store = await Store.open(path, opts);
    for (let i = 0; i < 12; i++) {
      const u = new StoreUpdate();
      // Random bytes: compression cannot shrink them below the memtable's size.
      for (let j = 0; j < 16; j++) u.put(DBCol.Chunks, u64be(i * 16 + j), randomBytes(64 * 1024));
      await store.commit(u);
    }
    // Closing waits for LevelDB's background work: every table it started is written.
    await store.close();
    return readdirSync(path).filter((f) => f.endsWith('.ldb')).length;
  };
  t.ok((await tables({ writeBufferBytes: 4 * 1024 * 1024 })) > 0, "LevelDB's 4 MiB writes tables");
  t.equal(await tables({}), 0, "the store's default memtable holds them all");
});

t.test('tables are written uncompressed unless compression is asked for', async (t) => {
  const plain = await tableBytesOfZeros(t, {});
  const compressed = await tableBytesOfZeros(t, { compression: true });
  t.ok(plain >= MIB, `default: ${plain} bytes for 1 MiB of rows`);
  t.ok(compressed < plain / 4, `compression: true: ${compressed} bytes`);
});

t.test(
  'a batch LevelDB fails to write stops every later write until the store is opened again',
  async (t) => {
    // LevelDB's log writer counts a failed record as written, so records appended after one are out of
    // step with the log's blocks and lost when the log is replayed: a node that went on after a full
    // disk lost the blocks it announced after it.
    const dir = tempDir(t);
    const store = await Store.open(dir);
    const row = (k: number, v: number) => {
      const u = new StoreUpdate();
      u.put(DBCol.BlockMisc, b(k), b(v));
      return u;
    };
    await store.commit(row(1, 1));
    const db = (store as unknown as { db: { batch: () => { write: () => Promise<void> } } }).db;
    const realBatch = db.batch.bind(db);
    let batches = 0;
    db.batch = () => {
      batches++;
      const real = realBatch();
      return Object.assign(real, {
        write: () => Promise.reject(new Error('IO error: 000003.log: No space left on device')),
      });
    };
    await t.rejects(store.commit(row(2, 2)), {
      name: 'StoreError',
      code: 'IO',
      fatal: true,
      message: /failed a write and takes no more until it is opened again: IO error: .*No space left/,
    });
    db.batch = () => {
      batches++;
      return realBatch();
    };
    await t.rejects(store.commit(row(3, 3)), { fatal: true }, 'the next write is refused too');
    t.equal(batches, 1, 'without reaching LevelDB');
    t.ok(store.writeFailure);
    t.same(store.get(DBCol.BlockMisc, b(1)), b(1), 'reads go on');
    t.equal(store.get(DBCol.BlockMisc, b(2)), undefined);
    await store.close();

    const again = await Store.open(dir);
    t.teardown(() => again.close());
    t.equal(again.writeFailure, null);
    t.same(again.get(DBCol.BlockMisc, b(1)), b(1), 'what was written before the failure is kept');
    await again.commit(row(3, 3));
    t.same(again.get(DBCol.BlockMisc, b(3)), b(3), 'a store opened again writes');
  },
);

t.test("a scan on a closed store, or one the store's close ends, fails with StoreError CLOSED", async (t) => {
  const store = await Store.open(tempDir(t));
  const col = DBCol.StateHistory;
  const u = new StoreUpdate();
  for (let i = 0; i < 2000; i++) u.put(col, u64be(i), Uint8Array.of(i & 255));
  await store.commit(u);
  const scan = store.iter(col);
  t.ok(await scan.next(), 'a row before the close');
  await store.close();
  await t.rejects(
    (async () => {
      for await (const _ of scan);
    })(),
    { name: 'StoreError', code: 'CLOSED' },
    'the scan under way',
  );
  await t.rejects(store.iter(col).next(), { name: 'StoreError', code: 'CLOSED' }, 'a scan begun after');
});
