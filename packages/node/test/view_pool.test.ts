// View calls on worker threads read state through the main thread: values of any size arrive whole,
// and a read that fails fails the view instead of reading as an absent key.
import { join } from 'node:path';
import { sha256, utf8 } from '@nearlite/primitives';
import { DBCol, Store, StoreUpdate } from '@nearlite/store';
import { trieKeyContractCode, trieKeyContractData } from '@nearlite/trie';
import t from 'tap';
import { compileContract } from '../../../test/helpers/asc.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { ViewCallPool } from '../dist/view_pool.js';

const code = await compileContract('counter');
const request = {
  accountId: 'c.near',
  account: { amount: 10n ** 24n, locked: 0n, codeHash: sha256(code), storageUsage: 100n },
  methodName: 'get',
  args: new Uint8Array(0),
  blockHeight: 7,
  blockHash: '11111111111111111111111111111111',
  blockTimestamp: 1n,
  epochHeight: 1,
  chainId: 'test',
  stateRoot: new Uint8Array(32),
  validators: [] as [string, bigint][],
};

/** A view's answer as the contract's returned text. */
const result = (r: object) => Buffer.from((r as { result: number[] }).result).toString();

/** The counter contract's stored value `n` (i32 little-endian). */
function counter(n: number): Uint8Array {
  const v = new Uint8Array(4);
  new DataView(v.buffer).setInt32(0, n, true);
  return v;
}

function state(value: Uint8Array | undefined, fail = false) {
  const codeKey = Buffer.from(trieKeyContractCode('c.near')).toString('hex');
  const counterKey = Buffer.from(trieKeyContractData('c.near', utf8('n'))).toString('hex');
  return (key: Uint8Array) => {
    const k = Buffer.from(key).toString('hex');
    if (k === codeKey) return code;
    if (k === counterKey) {
      if (fail) throw new Error('disk read failed');
      return value;
    }
    return undefined;
  };
}

t.test('values larger than the shared buffer arrive whole; failed reads fail the view', async (t) => {
  const pool = new ViewCallPool(1);
  t.teardown(() => pool.close());
  const small = new Uint8Array(4);
  new DataView(small.buffer).setInt32(0, 41, true);
  t.equal(result(await pool.call(request, state(small))), '41');
  t.equal(result(await pool.call(request, state(undefined))), '0', 'absent reads as absent');
  // 20 MiB: crosses in three pieces; the counter reads its first four bytes.
  const big = new Uint8Array(20 * 1024 * 1024);
  new DataView(big.buffer).setInt32(0, 42, true);
  t.equal(result(await pool.call(request, state(big))), '42', 'a 20 MiB value is not absent');
  await t.rejects(pool.call(request, state(small, true)), {
    name: 'InternalError',
    message: /a state read failed during the view call: disk read failed/,
  });
  t.equal(result(await pool.call(request, state(small))), '41', 'the worker serves on after a failure');
});

/** A LevelDB store on disk and a one-worker pool, both closed when the test ends. */
async function storeAndPool(t: { teardown(fn: () => unknown): void }) {
  const store = await Store.open(join(tempDir(t), 'data'));
  const pool = new ViewCallPool(1);
  t.teardown(async () => {
    await pool.close();
    await store.close();
  });
  return { store, pool };
}

t.test('a worker reads the trie from the store on disk itself; a failed read fails the view', async (t) => {
  const { applyChanges, EMPTY_ROOT } = await import('@nearlite/trie');
  const { store, pool } = await storeAndPool(t);
  const write = async (root: Uint8Array, n: number) => {
    const changes = applyChanges({ get: (h) => store.get(DBCol.State, h) }, root, [
      { key: trieKeyContractCode('c.near'), value: code },
      { key: trieKeyContractData('c.near', utf8('n')), value: counter(n) },
    ]);
    const u = new StoreUpdate();
    for (const ins of changes.insertions) u.incRef(DBCol.State, ins.hash, ins.bytes, ins.rc);
    await store.commit(u);
    return changes.newRoot;
  };
  const path = store.sharedPath()!;
  const first = await write(EMPTY_ROOT, 41);
  t.equal(result(await pool.callAt(request, { path, root: first })), '41');
  const second = await write(first, 42);
  t.equal(result(await pool.callAt(request, { path, root: second })), '42', 'a later commit is seen');
  t.equal(
    result(await pool.callAt(request, { path, root: first })),
    '41',
    'the older root still reads its own value',
  );
  // A root whose nodes are not in the store: the read fails, and so does the view, as an internal error.
  await t.rejects(pool.callAt(request, { path, root: new Uint8Array(32).fill(7) }), {
    name: 'InternalError',
    message: /a state read failed during the view call: trie node .* is missing/,
  });
  await t.rejects(pool.callAt(request, { path: join(tempDir(t), 'none'), root: first }), {
    name: 'InternalError',
    message: /a state read failed during the view call: cannot open the database/,
  });
  t.equal(result(await pool.callAt(request, { path, root: second })), '42', 'the worker serves on');
  t.equal(result(await pool.call(request, state(counter(5)))), '5', 'the main-thread bridge still works');
});

t.test(
  'lazy reads: each key is read asynchronously as the contract asks; a rejected read fails the view',
  async (t) => {
    const pool = new ViewCallPool(1);
    t.teardown(() => pool.close());
    const small = new Uint8Array(4);
    new DataView(small.buffer).setInt32(0, 43, true);
    const asked: string[] = [];
    const read = (fail: boolean) => async (key: Uint8Array) => {
      asked.push(Buffer.from(key).toString('hex'));
      await new Promise((r) => setTimeout(r, 1));
      const get = state(small, fail);
      return get(key);
    };
    t.equal(result(await pool.callLazy(request, read(false))), '43');
    t.same(
      asked,
      [trieKeyContractCode('c.near'), trieKeyContractData('c.near', utf8('n'))].map((k) =>
        Buffer.from(k).toString('hex'),
      ),
      'the code and the one key the contract reads, nothing else',
    );
    await t.rejects(pool.callLazy(request, read(true)), {
      name: 'InternalError',
      message: /a state read failed during the view call: disk read failed/,
    });
    t.equal(result(await pool.callLazy(request, read(false))), '43', 'the worker serves on after a failure');
  },
);

t.test(
  "a worker reads a follower history's flat rows itself; a key changed after the view's height is read here",
  async (t) => {
    const { CURSOR_KEY, encodeCursor, encodeFlatRow, encodeHistoryValue, HistoryStore, historyKey } =
      await import('@nearlite/follower');
    const { store, pool } = await storeAndPool(t);
    const counterKey = trieKeyContractData('c.near', utf8('n'));
    const history = new HistoryStore(store);
    await history.writeGenesis(10, [
      { key: trieKeyContractCode('c.near'), value: code },
      { key: counterKey, value: counter(41) },
    ]);
    // Block 20 sets the counter to 42: its history row and flat row in one batch, as ingest writes them.
    const u = new StoreUpdate();
    const stored = encodeHistoryValue(counter(42));
    u.put(DBCol.StateHistory, historyKey(counterKey, 20), stored);
    u.put(DBCol.StateHistoryFlat, counterKey, encodeFlatRow(20, stored));
    // Followed to 25: the history answers state reads up to its cursor.
    u.put(DBCol.FollowerMisc, CURSOR_KEY, encodeCursor({ height: 25, hash: new Uint8Array(32) }));
    await store.commit(u);

    const asked: string[] = [];
    const read = async (key: Uint8Array) => {
      asked.push(Buffer.from(key).toString('hex'));
      return (await history.valueAt(key, 15)) ?? undefined;
    };
    const path = store.sharedPath()!;
    t.equal(result(await pool.callHistory(request, { path, height: 25 }, read)), '42');
    t.same(asked, [], 'every key answered by its flat row in the worker');
    t.equal(result(await pool.callHistory(request, { path, height: 15 }, read)), '41');
    t.same(asked, [Buffer.from(counterKey).toString('hex')], 'only the key changed after 15 was read here');
    await t.rejects(pool.callHistory(request, { path: join(tempDir(t), 'none'), height: 25 }, read), {
      name: 'InternalError',
      message: /a state read failed during the view call: cannot open the database/,
    });
  },
);

t.test('a wake-up without an answer does not hand the worker the previous one', async (t) => {
  // The main thread stores the answer's flag, then notifies. A worker that sees the flag first runs
  // on and sleeps for its next read, which that late notify wakes. Here the wake-up is sent on purpose
  // while the worker waits for the counter: it must sleep on, not take the code (the previous answer)
  // for the counter's value.
  const pool = new ViewCallPool(1);
  t.teardown(() => pool.close());
  const get = state(counter(44));
  let settled = false;
  let wakeUps = 0;
  const read = async (key: Uint8Array) => {
    const value = get(key);
    if (value === code) return value;
    const { ctrl } = (pool as unknown as { slots: { ctrl: Int32Array }[] }).slots[0]!;
    // notify says how many it woke: the first wakes the waiting worker, a second one finds it asleep
    // again, unless it ran on with what the buffer held and the call has ended.
    for (const _ of [1, 2]) {
      while (Atomics.notify(ctrl, 0) === 0 && !settled) await new Promise((r) => setImmediate(r));
      if (!settled) wakeUps++;
    }
    return value;
  };
  const call = pool.callLazy(request, read);
  call.then(
    () => (settled = true),
    () => (settled = true),
  );
  t.equal(result(await call), '44', 'the counter, read once its answer was in');
  t.equal(wakeUps, 2, 'woken without an answer, the worker slept on');
});
