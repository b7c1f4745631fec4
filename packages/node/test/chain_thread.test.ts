// The chain on a thread of its own: what the RPC thread reads follows each block the chain thread
// commits (rows cached as absent included; a block's outcomes come with its announcement), admitted
// transactions reach the chain and are settled by their block, and a chain thread that dies is
// started again with the pool whole.
import { createPrivateKey, sign } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  type ChainHandle,
  decodeStoredOutcome,
  flatStateKey,
  loadGenesis,
  type NewBlockEvent,
  type NewChunksEvent,
  stateRecordsToWrites,
} from '@nearlite/chain';
import {
  base58Decode,
  concatBytes,
  encodeSignedTransaction,
  KeyType,
  receiptPredecessorId,
  type Transaction,
  toHex,
  transactionHash,
} from '@nearlite/primitives';
import { decodeOutcome } from '@nearlite/runtime';
import { DBCol, Store } from '@nearlite/store';
import { trieKeyAccount } from '@nearlite/trie';
import t from 'tap';
import { tempDir } from '../../../test/helpers/tmp.js';
import type { ChainWorkerData } from '../dist/chain_messages.js';
import { ChainThread } from '../dist/chain_thread.js';
import { homePaths, initHome } from '../dist/home.js';

/**
 * The chain thread's script as the CLI starts it, from the bundle `npm test` makes beside dist/:
 * linking dist's modules one by one took about a second of each thread's start.
 */
const CHAIN_WORKER = new URL('../bundle/chain_worker.js', import.meta.url);

const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');

/** A transfer from the validator account, signed with its key file. */
function transfer(keyFile: Record<string, string>, receiverId: string, nonce: bigint, blockHash: Uint8Array) {
  const secret = base58Decode(keyFile.secret_key!.slice('ed25519:'.length));
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519, secret.subarray(0, 32)]),
    format: 'der',
    type: 'pkcs8',
  });
  const publicKey = { keyType: KeyType.ED25519, data: secret.subarray(32, 64) };
  const tx: Transaction = {
    signerId: keyFile.account_id!,
    publicKey,
    nonce,
    receiverId,
    blockHash,
    actions: [{ type: 'Transfer', deposit: 10n ** 24n }],
  };
  const hash = transactionHash(tx);
  const signature = { keyType: KeyType.ED25519, data: new Uint8Array(sign(null, hash, privateKey)) };
  return {
    hash,
    bytes: encodeSignedTransaction(tx, signature),
    shardId: 0,
    accessKeyId: `${keyFile.account_id}:${keyFile.public_key}`,
    nonce,
  };
}

/** The first block announced from now on for which `until` holds. */
function nextBlock(chain: ChainHandle, until: (e: NewBlockEvent) => boolean = () => true) {
  return new Promise<NewBlockEvent>((resolve) => {
    const on = (e: NewBlockEvent) => {
      if (!until(e)) return;
      chain.events.off('block', on);
      resolve(e);
    };
    chain.events.on('block', on);
  });
}

/** The chain thread's start data for the home's validator. */
function chainData(home: string, o: { blockTimeMs: number; archive: boolean }): ChainWorkerData {
  const p = homePaths(home);
  return {
    dataPath: p.data,
    compression: false,
    genesisPath: p.genesis,
    validatorKey: JSON.parse(readFileSync(p.validatorKey, 'utf8')) as ChainWorkerData['validatorKey'],
    blockTimeMs: o.blockTimeMs,
    archive: o.archive,
    saveTrieChanges: !o.archive,
    gcNumEpochsToKeep: 3,
    sandboxHostFunctions: false,
    sandboxDebugLog: false,
  };
}

async function open(t: { teardown(fn: () => unknown): void }, workerUrl?: URL, again?: string) {
  const home = again ?? tempDir(t);
  if (!again) initHome({ home });
  const p = homePaths(home);
  const keyFile = JSON.parse(readFileSync(p.validatorKey, 'utf8')) as Record<string, string>;
  const store = await Store.open(p.data);
  const logs: string[] = [];
  const log = {
    info: (m: string) => logs.push(m),
    warn: (m: string) => logs.push(m),
    error: (m: string) => logs.push(m),
  };
  const chain = await ChainThread.open({
    store,
    genesis: loadGenesis(p.genesis),
    data: chainData(home, { blockTimeMs: 20, archive: true }),
    log,
    workerUrl: workerUrl ?? CHAIN_WORKER,
  });
  const close = async () => {
    await chain.stop();
    await store.close();
  };
  t.teardown(close);
  return { chain, store, keyFile, logs, home, close };
}

t.test('the RPC thread reads what the chain thread commits, rows it had seen absent included', async (t) => {
  const { chain, store, keyFile } = await open(t);
  const genesisHeight = chain.head().height;
  // Read before the chain thread writes them: the read cache now holds them as absent.
  t.equal(chain.chainStore.blockHashByHeight(genesisHeight + 1), undefined);
  const patched = flatStateKey(
    chain.layout.accountIdToShardId('patched.test.near'),
    trieKeyAccount('patched.test.near'),
  );
  t.equal(store.get(DBCol.FlatState, patched), undefined);

  const produced: number[] = [];
  chain.run({ onProduced: (s) => produced.push(s) });
  const first = await nextBlock(chain);
  t.equal(first.header.lite.height, genesisHeight + 1);
  t.ok(
    chain.chainStore.blockHashByHeight(genesisHeight + 1),
    'the new height is read, not the cached absence',
  );
  t.same(chain.head().hash, first.header.hash, 'the head moves with the announcement');
  t.ok(produced.length > 0 && produced.every((s) => s >= 0), 'production times are reported');

  const account = {
    amount: '5000000000000000000000000',
    locked: '0',
    code_hash: '11111111111111111111111111111111',
    storage_usage: 182,
  };
  await chain.patchState(stateRecordsToWrites([{ Account: { account_id: 'patched.test.near', account } }]));
  t.ok(store.get(DBCol.FlatState, patched), 'a patch is read once its block is announced');

  const tx = transfer(keyFile, 'patched.test.near', 1n, chain.headHeader().hash);
  t.equal(store.get(DBCol.TransactionBlock, tx.hash), undefined);
  const settles = (e: NewBlockEvent) => e.outcomeIds.has(toHex(tx.hash)) || e.rejected.has(toHex(tx.hash));
  const carried = nextBlock(chain, settles);
  t.ok(chain.pool.add(tx));
  t.notOk(chain.pool.add(tx), 'known until its block settles it');
  const including = await carried;
  t.same([...including.rejected], [], 'included, not refused');
  t.notOk(chain.pool.has(tx.hash), 'settled by the block that included it');
  // The outcome rows came with the announcement: the RPC thread reads them without asking LevelDB.
  const hits = store.stats.cacheHits;
  t.same(store.get(DBCol.TransactionBlock, tx.hash), including.header.hash, 'its block is found');
  const outcome = store.get(DBCol.TransactionResultForBlock, concatBytes(tx.hash, including.header.hash));
  t.ok(outcome && outcome.length > 0, 'and its outcome');
  t.equal(store.stats.cacheHits, hits + 2, 'both from the read cache, which held its absence before');
  t.equal(outcome!.buffer.byteLength, outcome!.byteLength, 'a row of its own, not a view of the message');

  // The receipt the transfer sent has not run: the announcement names it absent, so the clients
  // waiting on the transfer do not search LevelDB for it.
  const sent = decodeOutcome(decodeStoredOutcome(outcome!).outcomeBytes).receiptIds;
  t.equal(sent.length, 1, 'the transfer sent one receipt');
  const receiptId = sent[0]!;
  const ran = nextBlock(chain, (e) => e.outcomeIds.has(toHex(receiptId)));
  const before = store.stats.cacheHits;
  t.equal(store.get(DBCol.ReceiptBlock, receiptId), undefined, 'the receipt has not run');
  t.equal(store.stats.cacheHits, before + 1, 'its absence came with the announcement');
  const running = await ran;
  t.same(store.get(DBCol.ReceiptBlock, receiptId), running.header.hash, 'then the block that ran it is read');

  // The receipt sent a gas refund, which has not run: the announcement names it a refund, so the
  // clients waiting on the transfer skip it without reading its row.
  const receiptOutcome = store.get(
    DBCol.TransactionResultForBlock,
    concatBytes(receiptId, running.header.hash),
  );
  const refunds = decodeOutcome(decodeStoredOutcome(receiptOutcome!).outcomeBytes).receiptIds;
  t.equal(refunds.length, 1, 'the transfer receipt sent one refund');
  const refundId = refunds[0]!;
  t.equal(receiptPredecessorId(store.get(DBCol.Receipts, refundId)!), 'system', 'made by system');
  t.ok(chain.sentRefund(toHex(refundId)), 'named a refund by the block that sent it');
  t.notOk(chain.sentRefund(toHex(receiptId)), 'the transfer receipt is not one');
  t.notOk(chain.sentRefund(toHex(tx.hash)), 'nor is anything else');
  // Remembered for a few blocks only; older ones are read from the store.
  for (let i = 0; i < 5; i++) await nextBlock(chain);
  t.notOk(chain.sentRefund(toHex(refundId)), 'forgotten once older than a few blocks');
});

t.test(
  "a transaction that arrives after block H waits for H+2, as nearcore's chunk of H+1 is made at H",
  async (t) => {
    const { chain, store, keyFile } = await open(t);
    // Blocks only when asked for (the chain is not run), so the order of events is the test's.
    const accepted = await chain.produceBlock();
    const tx = transfer(keyFile, 'near', 1n, accepted.hash);
    t.ok(chain.pool.add(tx));
    // The RPC thread hands admitted transactions over on the next turn; this one is queued after it.
    await new Promise((resolve) => setImmediate(resolve));
    const made = new Promise<NewChunksEvent>((resolve) => chain.events.once('chunks', resolve));
    const next = await chain.produceBlock();
    t.equal(next.lite.height, accepted.lite.height + 1);
    t.equal(
      store.get(DBCol.TransactionBlock, tx.hash),
      undefined,
      'not in the block made just after it arrived',
    );
    t.ok(chain.pool.has(tx.hash), 'still pending');
    const chunks = await made;
    t.same([...chunks.txIds], [toHex(tx.hash)], 'taken by the chunks of H+2, made when H+1 was committed');
    const stored = store.get(DBCol.Transactions, tx.hash);
    t.ok(stored && Buffer.from(stored).equals(tx.bytes), 'stored with them, before any block has it');
    t.equal(store.get(DBCol.TransactionBlock, tx.hash), undefined);
    const after = await chain.produceBlock();
    t.same(store.get(DBCol.TransactionBlock, tx.hash), after.hash, 'in the block after that');
    t.notOk(chain.pool.has(tx.hash), 'settled by it');
  },
);

t.test(
  'transactions in chunks made ahead of a block that never came are pooled again at start',
  async (t) => {
    const first = await open(t);
    const accepted = await first.chain.produceBlock();
    const tx = transfer(first.keyFile, 'near', 1n, accepted.hash);
    first.chain.pool.add(tx);
    await new Promise((resolve) => setImmediate(resolve));
    const made = new Promise<NewChunksEvent>((resolve) => first.chain.events.once('chunks', resolve));
    const next = await first.chain.produceBlock();
    t.ok((await made).txIds.has(toHex(tx.hash)), 'taken by the chunks of the block after');
    // The node stops before that block: what it answered INCLUDED is only in the chunks.
    await first.close();
    const again = await open(t, undefined, first.home);
    t.equal(again.chain.head().height, next.lite.height, 'the head is where it was');
    t.notOk(again.chain.pool.has(tx.hash), 'the RPC thread of a new node has not seen it');
    const after = await again.chain.produceBlock();
    t.same(
      again.store.get(DBCol.TransactionBlock, tx.hash),
      after.hash,
      'in the first block after the start',
    );
    const outcome = again.store.get(DBCol.TransactionResultForBlock, concatBytes(tx.hash, after.hash));
    t.ok(outcome, 'run by it');
    const later = await again.chain.produceBlock();
    t.equal(
      again.store.get(DBCol.TransactionResultForBlock, concatBytes(tx.hash, later.hash)),
      undefined,
      'and only once',
    );
  },
);

t.test('a chain thread that dies is started again and gets the pool whole', async (t) => {
  const dir = tempDir(t);
  const marker = join(dir, 'crashed');
  const real = CHAIN_WORKER.href;
  // Dies once, as the first transactions reach it (the real thread has queued them by then).
  const script = join(dir, 'crash_once.mjs');
  writeFileSync(
    script,
    `import { existsSync, writeFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
await import(${JSON.stringify(real)});
if (!existsSync(${JSON.stringify(marker)}))
  parentPort.on('message', (m) => {
    if (m.t === 'txs') { writeFileSync(${JSON.stringify(marker)}, ''); process.exit(3); }
  });
`,
  );
  const { chain, keyFile, logs } = await open(t, pathToFileURL(script));
  chain.run();
  await nextBlock(chain);
  t.ok(isLiveThreadsCpu(chain.cpuSeconds), `the CPU time is a live thread's (${chain.cpuSeconds} s)`);
  const tx = transfer(keyFile, 'near', 1n, chain.headHeader().hash);
  const carried = nextBlock(chain, (e) => e.outcomeIds.has(toHex(tx.hash)) || e.rejected.has(toHex(tx.hash)));
  chain.pool.add(tx);
  t.same([...(await carried).rejected], [], 'included after the restart');
  t.ok(
    logs.some((l) => l.includes('exited (3); starting it again')),
    'the death is logged',
  );
  t.notOk(chain.pool.has(tx.hash));
  t.ok(isLiveThreadsCpu(chain.cpuSeconds), `and the new thread's after it (${chain.cpuSeconds} s)`);
});

/** Whether `seconds` is what one of this process's threads has used (read just after it). */
function isLiveThreadsCpu(seconds: number | null): boolean {
  if (seconds === null) return false;
  return readdirSync('/proc/self/task').some((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'latin1');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const used = (Number(f[11]) + Number(f[12])) / 100;
    return used >= seconds && used - seconds < 0.1;
  });
}

t.test('a stop while a block is made waits for its collection', async (t) => {
  // Blocks back to back on a node that collects: a stop that came while a block was made was let
  // through before the block's GC step, which then read a closed store ("block production failed:
  // the store is closed"). Stopped at staggered times, about a third of the stops did.
  const home = tempDir(t);
  initHome({ home, epochLength: 5 });
  const p = homePaths(home);
  const logs: string[] = [];
  const log = { info: () => {}, warn: (m: string) => logs.push(m), error: (m: string) => logs.push(m) };
  let height = 0;
  for (let i = 0; i < 12; i++) {
    const store = await Store.open(p.data);
    const chain = await ChainThread.open({
      store,
      genesis: loadGenesis(p.genesis),
      data: chainData(home, { blockTimeMs: 0, archive: false }),
      log,
      workerUrl: CHAIN_WORKER,
    });
    chain.run();
    for (let b = 0; b < 2; b++) height = (await nextBlock(chain)).header.lite.height;
    await new Promise((resolve) => setTimeout(resolve, 1 + i * 3));
    await chain.stop();
    await store.close();
  }
  t.ok(height > 20, `the chain went on across the stops (height ${height})`);
  t.same(logs, [], 'nothing failed');
});

t.test('no block is made above the height production is asked to end at, until it is moved', async (t) => {
  const { chain } = await open(t);
  const start = chain.head().height;
  chain.produceUpTo(start + 3);
  chain.run();
  await nextBlock(chain, (e) => e.header.lite.height === start + 3);
  // Blocks come every 20 ms: fifteen block times go by without one.
  await new Promise((r) => setTimeout(r, 300));
  t.equal(chain.head().height, start + 3, 'the head stays at the height');
  chain.produceUpTo(start + 5);
  await nextBlock(chain, (e) => e.header.lite.height === start + 5);
  await new Promise((r) => setTimeout(r, 300));
  t.equal(chain.head().height, start + 5, 'a height moved up is produced to, and no further');
  chain.produceUpTo(null);
  await nextBlock(chain, (e) => e.header.lite.height > start + 6);
  t.pass('without one, production goes on');
});
