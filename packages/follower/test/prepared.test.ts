// Blocks prepared on worker threads (fetched, parsed, checked and encoded there) must land in the
// store exactly as the loop's own path writes them: the same rows for every real block, the same
// database after following a Lake directory, and the same refusals.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  blockUpdate,
  FollowLoop,
  type FollowLoopOptions,
  HistoryStore,
  ingestBlocks,
  ingestPrepared,
  type PreparedOrRefused,
  PrepareError,
  PreparePool,
  prepareBlock,
  RowPacker,
  storeRows,
  unpackRows,
} from '@nearlite/follower';
import { base58Encode, stringifyJson, toHex } from '@nearlite/primitives';
import { DBCol, type DBColumn, Store, StoreUpdate } from '@nearlite/store';
import {
  chunkViewReceipts,
  openSource,
  type RetryEvent,
  type StreamerMessage,
  VerifyCheck,
} from '@nearlite/stream';
import t from 'tap';
import { fixtureNames, freshMessage, loadFixture } from '../../../test/helpers/stream_fixtures.js';
import { syntheticChain, writeLake } from '../../../test/helpers/synthetic_chain.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { logs, until } from './helpers.js';

const rowsOf = (update: StoreUpdate) =>
  update.ops.map((op) => [op.col.id, toHex(op.key), op.type === 'put' ? toHex(op.value) : null]);

/** Every row of every column, as hex, in key order. */
async function dump(store: Store): Promise<string[]> {
  const out: string[] = [];
  for (const col of Object.values(DBCol)) {
    for await (const [k, v] of store.iter(col)) out.push(`${col.id} ${toHex(k)} ${toHex(v)}`);
  }
  return out;
}

t.test('every real block prepares to the rows the in-thread path writes', async (t) => {
  const names = fixtureNames({ verifiable: true, whole: true });
  t.ok(names.length > 10, `${names.length} real blocks`);
  for (const name of names) {
    const { message } = loadFixture(name);
    const prepared = prepareBlock(message);
    if ('refused' in prepared) {
      t.fail(`${name} refused: ${prepared.refused.detail}`);
      continue;
    }
    t.equal(prepared.height, message.block.header.height, `${name}: height`);
    t.equal(prepared.prevHash, message.block.header.prev_hash, `${name}: prev_hash`);
    const unpacked = new StoreUpdate();
    unpackRows(prepared.rows, unpacked);
    t.same(rowsOf(unpacked), rowsOf(blockUpdate(message)), `${name}: the same rows in the same order`);
  }
});

for (const initialBytes of [64, 64 * 1024]) {
  t.test(
    `packed rows hold any text in UTF-8, however large, with its prefix (from ${initialBytes} bytes)`,
    async (t) => {
      const texts = [
        '',
        'plain ascii',
        'é'.repeat(40_000), // two bytes a character: more than the room the packer guessed
        '😀 memo ✓'.repeat(9_000), // four- and three-byte characters past the first buffer
        'x'.repeat(200_000),
      ];
      const packer = new RowPacker(initialBytes);
      const direct = new StoreUpdate();
      const sink = storeRows(direct);
      texts.forEach((text, i) => {
        const key = Uint8Array.of(i, 7);
        const prefix = i % 2 === 0 ? Uint8Array.of(0, 0, 0, 0, 0, 0, 1, i) : undefined;
        for (const s of [packer, sink]) {
          s.putText(DBCol.StreamChunk, key, text, prefix);
          s.put(DBCol.StreamBlockHeight, key, Uint8Array.of(i));
        }
      });
      // The same texts as the parts of one value, after them.
      for (const s of [packer, sink]) s.putTexts(DBCol.StreamStateChanges, Uint8Array.of(9), [...texts, '✓']);
      const unpacked = new StoreUpdate();
      unpackRows(packer.finish(), unpacked);
      t.same(rowsOf(unpacked), rowsOf(direct));
      const parts = unpacked.ops.at(-1)!;
      t.equal(
        new TextDecoder().decode(parts.type === 'put' ? parts.value : undefined),
        `${texts.join('')}✓`,
        'parts read back as one text',
      );
      const decoder = new TextDecoder();
      texts.forEach((text, i) => {
        const value = unpacked.ops[2 * i]!;
        t.equal(
          decoder.decode(value.type === 'put' ? value.value.subarray(i % 2 === 0 ? 8 : 0) : undefined),
          text,
          `text ${i} reads back`,
        );
      });
    },
  );
}

// Each transaction and receipt is serialized once and reused inside its chunk's row, and large values
// are written in parts; a receipt held several times in a block (in several chunks, and as
// executed) is one row. What is stored must still be each view's own JSON, as the views were sent.
t.test('a block writes each chunk, transaction and receipt as its own JSON, a receipt once', async (t) => {
  const text = (v: Uint8Array) => new TextDecoder().decode(v);
  let shared = 0;
  let transactions = 0;
  for (const name of fixtureNames({ verifiable: true, whole: true })) {
    const { message } = loadFixture(name);
    const rows = blockUpdate(message).ops.flatMap((op) => (op.type === 'put' ? [op] : []));
    const of = (col: DBColumn) => rows.filter((r) => r.col === col);
    const chunks = of(DBCol.StreamChunk);
    const withChunk = message.shards.filter((s) => s.chunk);
    t.equal(chunks.length, withChunk.length, `${name}: a row per chunk`);
    withChunk.forEach((shard, i) => {
      const { author, header, transactions: txs } = shard.chunk!;
      // The chunk's own view: without the local receipts older indexers listed among its receipts.
      const receipts = chunkViewReceipts(shard.chunk!);
      const whole = stringifyJson({ author, header, transactions: txs.map((x) => x.transaction), receipts });
      t.equal(text(chunks[i]!.value), whole, `${name}: chunk ${header.shard_id} is its whole JSON`);
    });
    const txRows = new Map(of(DBCol.StreamTransaction).map((r) => [base58Encode(r.key), text(r.value)]));
    for (const shard of withChunk) {
      for (const x of shard.chunk!.transactions) {
        t.equal(txRows.get(x.transaction.hash), stringifyJson(x.transaction));
        transactions++;
      }
    }
    // Every receipt the block holds, by id: the last copy is what a put-twice batch would leave.
    const expected = new Map<string, string>();
    for (const shard of message.shards) {
      for (const r of [
        ...(shard.chunk?.receipts ?? []),
        ...shard.receipt_execution_outcomes.map((o) => o.receipt),
      ]) {
        if (expected.has(r.receipt_id)) shared++;
        expected.set(r.receipt_id, stringifyJson(r));
      }
    }
    const [changes] = of(DBCol.StreamStateChanges);
    t.equal(
      text(changes!.value),
      stringifyJson(message.shards.flatMap((s) => s.state_changes)),
      `${name}: state changes`,
    );
    const receiptRows = of(DBCol.StreamReceipt).map((r) => [base58Encode(r.key), text(r.value)] as const);
    t.same(new Map(receiptRows), expected, `${name}: every receipt's JSON`);
    t.equal(receiptRows.length, expected.size, `${name}: a row per receipt`);
  }
  t.ok(shared > 0, `${shared} receipts held more than once in their block`);
  t.ok(transactions > 0, `${transactions} transactions`);
});

t.test('a tampered block is refused with the check that caught it', async (t) => {
  const m = freshMessage('mainnet-93085141');
  m.shards[3]!.receipt_execution_outcomes[0]!.execution_outcome.block_hash =
    '3UGi8N6uikSd9ZgoUyz8FjhZhxErjhiqQ24AGDfq4DSf';
  const prepared = prepareBlock(m);
  t.same(prepared, {
    height: 93085141,
    refused: {
      check: VerifyCheck.OutcomeBlockHash,
      detail: (prepared as { refused: { detail: string } }).refused.detail,
    },
  });
  t.match((prepared as { refused: { detail: string } }).refused.detail, /names block 3UGi8N6u/);
});

// A value the rows decode (a hash, a key, base64) that cannot be decoded refuses the block as to its
// shape, prepared on a thread or ingested on the loop's, and nothing of it is stored.
t.test('a block with a value that cannot be decoded is refused as to its shape, on both paths', async (t) => {
  const breakers: [string, (m: StreamerMessage) => void][] = [
    [
      'a state change',
      (m) => {
        const c = m.shards.flatMap((s) => s.state_changes).find((x) => x.type === 'account_update')!;
        (c.change as { code_hash: string }).code_hash = 'not base58: 0OIl';
      },
    ],
    [
      'an incoming receipt id',
      (m) => {
        m.shards.find((s) => (s.chunk?.receipts.length ?? 0) > 0)!.chunk!.receipts[0]!.receipt_id = '***';
      },
    ],
  ];
  for (const [what, breakIt] of breakers) {
    const m = freshMessage('mainnet-93085141');
    breakIt(m);
    const prepared = prepareBlock(m);
    t.equal(
      (prepared as { refused?: { check: string } }).refused?.check,
      VerifyCheck.Shape,
      `${what}: refused on a thread`,
    );
    for (const path of ['messages', 'prepared'] as const) {
      const store = await Store.open(join(tempDir(t), 'data'));
      t.teardown(() => store.close());
      const history = new HistoryStore(store);
      const run = path === 'messages' ? ingestBlocks(history, [m]) : ingestPrepared(history, [prepared]);
      await t.rejects(
        run,
        { name: 'BlockVerificationError', check: VerifyCheck.Shape },
        `${what}: ${path} path`,
      );
      t.equal(history.cursor(), null, `${what}: ${path} path stored nothing`);
    }
  }
});

t.test(
  'a batch with a refused or unlinked block keeps the blocks before it, like ingestBlocks',
  async (t) => {
    const chain = syntheticChain(6);
    const cases: [string, (c: StreamerMessage[]) => void, string][] = [
      [
        'edited outcome',
        (c) => {
          c[3]!.shards[0]!.chunk!.transactions[0]!.outcome.execution_outcome.block_hash =
            c[2]!.block.header.hash;
        },
        VerifyCheck.OutcomeBlockHash,
      ],
      ['broken link', (c) => c.splice(3, 1), VerifyCheck.PrevHash],
    ];
    for (const [what, edit, check] of cases) {
      const messages = syntheticChain(6);
      edit(messages);
      const results: Record<string, unknown> = {};
      for (const path of ['messages', 'prepared'] as const) {
        const store = await Store.open(join(tempDir(t), 'data'));
        const history = new HistoryStore(store);
        const run =
          path === 'messages'
            ? ingestBlocks(history, messages)
            : ingestPrepared(history, messages.map(prepareBlock) as PreparedOrRefused[]);
        const err = await run.then(
          () => null,
          (e: unknown) => e as { check: string; height: number },
        );
        results[path] = {
          check: err?.check,
          height: err?.height,
          cursor: history.cursor()?.height,
          rows: await dump(store),
        };
        await store.close();
      }
      t.same(results.prepared, results.messages, `${what}: the same refusal and the same rows`);
      t.equal((results.prepared as { check: string }).check, check, `${what}: ${check}`);
      t.equal(
        (results.prepared as { cursor: number }).cursor,
        chain[2]!.block.header.height,
        `${what}: cursor before it`,
      );
    }
  },
);

/** A Lake directory of `chain` on disk, its source, and a pool of two preparing threads over it. */
function lakeWithPool(t: Tap.Test, chain: readonly StreamerMessage[]) {
  const lake = tempDir(t);
  writeLake(lake, chain);
  const source = openSource(`file:${lake}`);
  const pool = new PreparePool(source.reopen!, 2);
  t.teardown(() => pool.close());
  return { source, pool, last: chain.at(-1)!.block.header.height };
}

/** Follows `source` into a fresh store until the cursor is at `last`; returns the store, still open. */
async function followToEnd(
  t: Tap.Test,
  o: { source: ReturnType<typeof openSource>; first: number; last: number },
  extra: (history: HistoryStore) => Partial<FollowLoopOptions>,
): Promise<Store> {
  const store = await Store.open(join(tempDir(t), 'data'));
  const history = new HistoryStore(store);
  const loop = new FollowLoop({
    history,
    source: o.source,
    startHeight: o.first,
    log: logs(),
    batchSize: 16,
    ...extra(history),
  });
  loop.start();
  await until(() => history.cursor()?.height === o.last, 'the last block');
  await loop.stop();
  return store;
}

t.test('followed through worker threads, a Lake directory gives the same database', async (t) => {
  const chain = syntheticChain(120, { skip: [1_000_010, 1_000_011, 1_000_077] });
  const { source, pool, last } = lakeWithPool(t, chain);
  t.ok(source.reopen, 'openSource says how to open the source again');
  const first = chain[0]!.block.header.height;
  const dumps: string[][] = [];
  for (const threads of [false, true]) {
    const store = await followToEnd(t, { source, first, last }, (history) =>
      threads ? { prepared: { pool, writer: history } } : {},
    );
    dumps.push(await dump(store));
    await store.close();
  }
  t.ok(dumps[0]!.length > 500, `${dumps[0]!.length} rows`);
  t.same(dumps[1], dumps[0], 'every row of every column equal');

  t.equal(await pool.fetchPrepared(1_000_077), null, 'a skipped height has no block');
  const err = await pool.fetchPrepared(last + 5).catch((e: unknown) => e);
  t.type(err, PrepareError, 'a height not published yet fails in the thread and is reported');
  t.equal((err as PrepareError).errorName, 'StreamSourceError');
  t.match((err as Error).message, /not published yet/);
});

t.test('a catch-up batch ends at its byte budget as well as its block count', async (t) => {
  const chain = syntheticChain(40);
  const { source, pool, last } = lakeWithPool(t, chain);
  const first = chain[0]!.block.header.height;
  const batchesOf = async (batchBytes: number | undefined) => {
    const sizes: number[] = [];
    const store = await followToEnd(t, { source, first, last }, (history) => {
      const write = history.writePrepared.bind(history);
      history.writePrepared = (blocks, isFirst) => {
        sizes.push(blocks.length);
        return write(blocks, isFirst);
      };
      return { ...(batchBytes === undefined ? {} : { batchBytes }), prepared: { pool, writer: history } };
    });
    await store.close();
    return sizes;
  };
  const bySize = await batchesOf(1);
  t.equal(bySize.length, chain.length, 'a budget below one block: one block a batch');
  t.ok(
    bySize.every((n) => n === 1),
    'never more',
  );
  const byCount = await batchesOf(undefined);
  t.ok(byCount.includes(16), `small blocks fill the count first (${byCount.join(', ')})`);
  t.equal(
    byCount.reduce((a, b) => a + b, 0),
    chain.length,
    'every block once',
  );
});

t.test('a closed pool refuses requests', async (t) => {
  const lake = tempDir(t);
  writeLake(lake, syntheticChain(2));
  const pool = new PreparePool(openSource(`file:${lake}`).reopen!, 1);
  t.ok(await pool.fetchPrepared(1_000_000), 'answers while open');
  await pool.close();
  await t.rejects(pool.fetchPrepared(1_000_000), PrepareError);
});

t.test('a thread that cannot start fails the requests and is replaced at the pace of requests', async (t) => {
  const dir = tempDir(t);
  const starts = join(dir, 'starts');
  writeFileSync(starts, '');
  const script = join(dir, 'crash.mjs');
  writeFileSync(
    script,
    `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(starts)}, 'x');\nprocess.exit(3);\n`,
  );
  const lake = tempDir(t);
  writeLake(lake, syntheticChain(1));
  const pool = new PreparePool(openSource(`file:${lake}`).reopen!, 1, pathToFileURL(script));
  t.teardown(() => pool.close());
  for (let i = 0; i < 3; i++) {
    const err = await pool.fetchPrepared(1_000_000).catch((e: unknown) => e);
    t.type(err, PrepareError, `request ${i + 1} fails`);
    t.match((err as Error).message, /exited \(3\)/);
  }
  await new Promise((r) => setTimeout(r, 300));
  const n = readFileSync(starts, 'utf8').length;
  t.ok(n >= 3 && n <= 4, `started ${n} times: once, then once per request after a death`);
});

t.test("a thread's failed attempts are told to the main thread as they happen", async (t) => {
  const lake = tempDir(t);
  const [m] = syntheticChain(1);
  writeLake(lake, [m!]);
  const height = m!.block.header.height;
  const folder = join(lake, String(height).padStart(12, '0'));
  writeFileSync(join(folder, 'block.json'), readFileSync(join(folder, 'block.json'), 'utf8').slice(0, 40));
  const told: RetryEvent[] = [];
  const source = openSource(`file:${lake}`, { maxAttempts: 3, baseDelayMs: 1 });
  const pool = new PreparePool(source.reopen!, 1, undefined, (e) => told.push(e));
  t.teardown(() => pool.close());
  await t.rejects(pool.fetchPrepared(height), /still failing after 3 attempts/);
  t.same(
    told.map((e) => [e.height, e.attempt]),
    [
      [height, 1],
      [height, 2],
    ],
    'each attempt but the last, with its height',
  );
  t.match((told[0]!.error as Error).message, /JSON/, "with the thread's error");
});
