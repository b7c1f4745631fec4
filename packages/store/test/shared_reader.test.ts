// The store is opened for several threads: a view worker reads it through its own handle, while a
// second process (or a second Store in this process) is still refused.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { sha256 } from '@nearlite/primitives';
import { DBCol, SharedStoreReader, Store, StoreError, StoreUpdate } from '@nearlite/store';
import t from 'tap';
import { tempDir } from '../../../test/helpers/tmp.js';

const b = (...xs: number[]) => Uint8Array.from(xs);

t.test('a second process opening the store is refused while this one has it open', async (t) => {
  const path = join(tempDir(t), 'data');
  const store = await Store.open(path);
  const script = `
    import { Store } from '@nearlite/store';
    try { await Store.open(${JSON.stringify(path)}); console.log('opened'); }
    catch (e) { console.log(e.name + ' ' + e.code + ' ' + e.message); }
  `;
  const run = () =>
    spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: import.meta.dirname,
      encoding: 'utf8',
    });
  const second = run();
  t.match(second.stdout, /^StoreError LOCKED .*already in use/, second.stderr);
  // A reader on another thread does not change that.
  const reader = await SharedStoreReader.open(path);
  t.match(run().stdout, /^StoreError LOCKED/);
  await reader.close();
  await store.close();
  t.match(run().stdout, /^opened/, 'once closed here, another process may open it');
});

t.test('a second Store on the same path in this process is refused too', async (t) => {
  const path = join(tempDir(t), 'data');
  const store = await Store.open(path);
  const err = await Store.open(`${path}/../data`).catch((e: unknown) => e);
  t.ok(err instanceof StoreError);
  t.equal((err as StoreError).code, 'LOCKED', 'the same directory spelt differently');
  await store.close();
});

t.test(
  'a reader on a worker thread sees every committed batch, refcounted rows without their count',
  async (t) => {
    const path = join(tempDir(t), 'data');
    const store = await Store.open(path);
    t.teardown(() => store.close());
    t.equal(store.sharedPath(), path);
    // Keyed by the hash of its bytes, as a trie node is: a row read from LevelDB is checked against it.
    const key = sha256(b(9, 9));
    await store.commit(
      new StoreUpdate().incRef(DBCol.State, key, b(9, 9), 2).put(DBCol.BlockMisc, b(7), b(8)),
    );
    const worker = new Worker(
      `
    const { parentPort, workerData } = require('node:worker_threads');
    import('@nearlite/store').then(async ({ DBCol, SharedStoreReader }) => {
      const r = await SharedStoreReader.open(workerData.path);
      parentPort.on('message', (m) => {
        if (m === 'close') return r.close().then(() => parentPort.postMessage('closed'));
        parentPort.postMessage([r.get(DBCol.State, m), r.get(DBCol.BlockMisc, Uint8Array.of(7))]);
      });
      parentPort.postMessage('ready');
    });
  `,
      { eval: true, workerData: { path } },
    );
    const next = () => new Promise<unknown>((resolve) => worker.once('message', resolve));
    t.equal(await next(), 'ready');
    worker.postMessage(key);
    t.same(await next(), [b(9, 9), b(8)]);
    await store.commit(new StoreUpdate().decRef(DBCol.State, key, 2).put(DBCol.BlockMisc, b(7), b(6)));
    worker.postMessage(key);
    t.same(await next(), [undefined, b(6)], 'a row deleted by the writer is gone for the reader');
    worker.postMessage('close');
    t.equal(await next(), 'closed');
    await worker.terminate();
    t.equal(store.get(DBCol.BlockMisc, b(7))?.[0], 6, 'the writer is unaffected by the reader closing');
  },
);

t.test('a reader on a path with no database fails with a clear error', async (t) => {
  const err = await SharedStoreReader.open(join(tempDir(t), 'none')).catch((e: unknown) => e);
  t.ok(err instanceof StoreError);
  t.equal((err as StoreError).code, 'IO');
  t.match((err as Error).message, /cannot open the database/);
});
