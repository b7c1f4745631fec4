// The chain thread: block production, chunk application, trie commits, each block's LevelDB batch and
// GC run here, off the thread that serves RPC (chain_thread.ts is the other side). It opens the
// node's database through its own handle (classic-level's `multithreading`) and is its only writer;
// after each batch it tells the RPC thread which rows it wrote, so that thread's read cache forgets
// them before anything reads the block.
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import {
  Chain,
  type CommittedBlock,
  type GcPins,
  gcStep,
  loadGenesis,
  type PooledTransaction,
  PRODUCER_CACHES,
  signerFromKeyFile,
} from '@nearlite/chain';
import { forwardThreadWarnings, type LongTimer, longTimeout, toHex } from '@nearlite/primitives';
import { DBCol, Store, WrittenRows } from '@nearlite/store';
import { offerSandboxHostFunctions } from '@nearlite/vm';
import { createApplier, STORAGE_USAGE_CONFIG } from './applier.js';
import {
  type ChainWorkerData,
  crossedError,
  type FromChain,
  type ThreadHeap,
  type ToChain,
} from './chain_messages.js';
import { chainThreadStoreOptions } from './chain_store_options.js';
import { CompactionSchedule } from './compaction_schedule.js';
import { dataBytes } from './data_size.js';
import { threadTaskId } from './thread_cpu.js';

forwardThreadWarnings();
const port = parentPort!;
const data = workerData as ChainWorkerData;
const post = (m: FromChain, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);
const log = (level: 'info' | 'warn' | 'error', msg: string) => post({ t: 'log', level, msg });
const describe = (err: unknown) => (err instanceof Error ? (err.stack ?? err.message) : String(err));

// The thread is started as early as the node starts, to boot while the node checks its store; it
// opens the store once the RPC thread says the store may be extended ('open'), and what is asked of
// it before it is ready waits here.
const inbox: ToChain[] = [];
let deliver: ((m: ToChain) => void) | null = null;
let letOpen = () => {};
const mayOpen = new Promise<void>((resolve) => {
  letOpen = resolve;
});
port.on('message', (m: ToChain) => {
  if (m.t === 'open') letOpen();
  else if (deliver) deliver(m);
  else inbox.push(m);
});

if (data.sandboxHostFunctions)
  offerSandboxHostFunctions(data.sandboxDebugLog ? (msg) => post({ t: 'sandboxLog', msg }) : () => {});

const genesis = loadGenesis(data.genesisPath, data.genesisRecordsPath ?? undefined);
const applier = createApplier(genesis);
await mayOpen;
const store = await Store.open(
  data.dataPath,
  chainThreadStoreOptions(data.compression, (m) => log('warn', m)),
);
const chain = await Chain.open({
  store,
  genesis,
  signer: signerFromKeyFile(data.validatorKey),
  applier,
  storageUsageConfig: STORAGE_USAGE_CONFIG,
  saveTrieChanges: data.saveTrieChanges,
  // The RPC thread serves the reads: this thread reads back the blocks near its head.
  caches: PRODUCER_CACHES,
});

// Trie nodes are content-addressed: a node's row never changes, so the RPC thread need not hear of them.
// What the RPC thread reads of a block as soon as it hears of it comes with its bytes: the block's
// header, and the outcomes and their blocks, which every client waiting on a transaction the block
// touched reads at once (from LevelDB, before).
const written = new WrittenRows(
  new Set([DBCol.State.id]),
  new Set(
    [DBCol.BlockHeader, DBCol.TransactionResultForBlock, DBCol.TransactionBlock, DBCol.ReceiptBlock].map(
      (c) => c.id,
    ),
  ),
);
store.onCommitted = (update) => written.add(update);

let heap: ThreadHeap = { used: 0, total: 0 };
let heapAt = 0;
/** This thread's heap, for the node's metrics: read at most once a second. */
function heapNow(): ThreadHeap {
  const now = Date.now();
  if (now - heapAt >= 1000) {
    const h = getHeapStatistics();
    heap = { used: h.used_heap_size, total: h.total_heap_size };
    heapAt = now;
  }
  return heap;
}

/** When the block being produced was asked for (the block time's tick, or a request). */
let producingSince = performance.now();

chain.committed.on('block', (b: CommittedBlock) => {
  // The receipts the block sent have not run: the clients waiting on their transactions look them
  // up at once, and an absence would otherwise be searched for through every level of LevelDB.
  written.absent(DBCol.ReceiptBlock, b.sentReceiptIds);
  const rows = written.take();
  const settle = (txs: readonly PooledTransaction[]) => txs.map((t) => toHex(t.hash));
  post(
    {
      t: 'block',
      height: b.header.lite.height,
      hash: b.header.hash,
      written: rows,
      outcomeIds: b.outcomeIds,
      rejected: b.rejected,
      gasUsed: b.gasUsed,
      sentRefundIds: b.sentRefundIds,
      settled: [...settle(b.included), ...settle(b.rejectedTxs)],
      seconds: (performance.now() - producingSince) / 1000,
      stats: { ...store.stats },
      heap: heapNow(),
    },
    [rows.buffer as ArrayBuffer],
  );
  // nearcore makes the chunks of height H+1 as soon as it accepts block H, from its pool as it is
  // then, and stores their transactions: a transaction that reaches the node after that waits for
  // the chunks of H+2, and one they took answers INCLUDED (with no outcome) until H+1 runs it.
  chain.prepareNextChunks().then(
    (r) => {
      if (r.included.length === 0 && r.rejectedTxs.length === 0) return;
      // The chunks' batch alone: this runs before the chain's next write starts (its queue moves on
      // one step after the promise settles).
      const rows = written.take();
      post(
        {
          t: 'chunks',
          written: rows,
          txIds: new Set(r.included.map((t) => toHex(t.hash))),
          rejected: r.rejected,
          settled: settle(r.rejectedTxs),
        },
        [rows.buffer as ArrayBuffer],
      );
    },
    // The next block makes its chunks itself.
    (err) => log('error', `making the next block's chunks failed: ${describe(err)}`),
  );
});

// Questions to the RPC thread, whose view calls pin the heights GC must keep.
let nextAsk = 1;
const asked = new Map<number, (value: unknown) => void>();
function ask(q: { what: 'lowestPin' } | { what: 'beginCollect'; newTail: number }): Promise<unknown> {
  const id = nextAsk++;
  return new Promise((resolve) => {
    asked.set(id, resolve);
    post({ t: 'ask', id, ...q });
  });
}

let collecting = false;
const pins: GcPins = {
  async gcStop(stop) {
    const low = (await ask({ what: 'lowestPin' })) as number | null;
    return low === null ? stop : Math.min(stop, low);
  },
  async beginCollect(newTail) {
    collecting = (await ask({ what: 'beginCollect', newTail })) as boolean;
    return collecting;
  },
  // The RPC thread ends the collection when it has forgotten the rows (the 'collected' message).
  endCollect() {},
};

const compaction = new CompactionSchedule(
  genesis.config.epochLength,
  () => store.compact(),
  (err) => log('warn', `compacting the store after GC failed: ${describe(err)}`),
  () => dataBytes(data.dataPath),
);
async function collectGarbage(): Promise<void> {
  let blocks = 0;
  try {
    // nearcore's gc_blocks_limit: a bounded amount of collection per block keeps each block's work flat.
    blocks = await chain.exclusive(() =>
      gcStep(chain, { numEpochsToKeep: data.gcNumEpochsToKeep, blocksPerStep: 2 }, pins),
    );
  } finally {
    if (collecting) {
      collecting = false;
      const rows = written.take();
      post({ t: 'collected', written: rows, blocks }, [rows.buffer as ArrayBuffer]);
    }
  }
  compaction.collected(blocks);
}

let stopping = false;
/** The height production ends at (`expected_shutdown`): the node stops once its head is there. */
let stopAt: number | null = null;
let timer: LongTimer | null = null;
// The tick under way: a stop waits for it (and for a compaction GC started), since its collection
// runs between the chain's exclusive sections and would otherwise reach a closed store.
let ticking: Promise<void> = Promise.resolve();
function scheduleBlocks(): void {
  const tick = async () => {
    if (stopping) return;
    const started = Date.now();
    try {
      // At the height the node stops at, nothing more is made; the cadence goes on, so a reload that
      // moves the height lets production go on.
      if (stopAt === null || chain.head().height < stopAt) {
        producingSince = performance.now();
        await chain.produceBlock();
        if (!data.archive && !stopping) await collectGarbage();
      }
    } catch (err) {
      const failure = store.writeFailure;
      if (failure !== null) {
        // Every later block would fail the same way (the store takes no more writes), so production
        // stops here, said once, where nearcore would stop the process.
        log(
          'error',
          `block production stopped: ${failure.message}. The blocks announced so far are kept; ` +
            'restart the node once the cause (a full disk, or too many open files?) is fixed',
        );
        return;
      }
      log('error', `block production failed: ${describe(err)}`);
    }
    // Like nearcore's min_block_production_delay, the block time runs from the start of the last
    // block, so a busy block does not stretch the cadence by its own production time.
    const wait = Math.max(0, data.blockTimeMs - (Date.now() - started));
    if (!stopping) timer = longTimeout(run, wait);
  };
  const run = () => {
    ticking = tick();
  };
  // As nearcore's start_client (wait_until_genesis): no block before the genesis time, said every
  // 10 s at most; a block made earlier would carry a time before its genesis' wall clock.
  const untilGenesis = () => {
    const left = GENESIS_MS - Date.now();
    if (left <= 0) {
      timer = longTimeout(run, data.blockTimeMs);
      return;
    }
    log('info', `Waiting until genesis: ${dayClock(left)}`);
    timer = longTimeout(untilGenesis, Math.min(left, 10_000));
  };
  untilGenesis();
}

const GENESIS_MS = Number(genesis.config.genesisTimeNs / 1_000_000n);

/**
 * A block asked for (a sandbox's produce or fast-forward) before the genesis time is made once it
 * has passed, as the timed blocks are: nearcore's node serves nothing before then.
 */
function afterGenesis<T>(work: () => Promise<T>): Promise<T> {
  const left = GENESIS_MS - Date.now();
  return left <= 0 ? work() : new Promise((r) => setTimeout(r, left)).then(work);
}

/** A span as nearcore's wait says it: `0d 0h 0m 40s`. */
function dayClock(ms: number): string {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 86_400)}d ${Math.floor(s / 3600) % 24}h ${Math.floor(s / 60) % 60}m ${s % 60}s`;
}

function answer(id: number, work: Promise<unknown>): void {
  work.then(
    (value) => post({ t: 'reply', id, value }),
    (err) => post({ t: 'reply', id, error: crossedError(err) }),
  );
}

async function stop(): Promise<void> {
  stopping = true;
  chain.halt();
  timer?.clear();
  await ticking;
  await chain.exclusive(async () => undefined);
  await compaction.settled();
  await store.close();
}

function handle(m: ToChain): void {
  switch (m.t) {
    case 'open':
      return;
    case 'run':
      stopAt = m.stopAt;
      if (!timer && !stopping) scheduleBlocks();
      return;
    case 'txs':
      for (const tx of m.txs) chain.pool.add(tx);
      return;
    case 'produce':
      answer(
        m.id,
        afterGenesis(() => {
          producingSince = performance.now();
          return chain.produceBlock().then((h) => ({ height: h.lite.height, hash: h.hash }));
        }),
      );
      return;
    case 'patch':
      // Carried by the next block, which comes after the genesis time however it is asked for.
      answer(m.id, chain.patchState(m.writes));
      return;
    case 'fastForward':
      answer(
        m.id,
        afterGenesis(() => chain.fastForward(m.deltaHeight, m.stepNs)),
      );
      return;
    case 'answer':
      asked.get(m.id)?.(m.value);
      asked.delete(m.id);
      return;
    case 'stop':
      return void stop().then(
        () => {
          post({ t: 'reply', id: m.id, value: null });
          port.close();
        },
        (err) => post({ t: 'reply', id: m.id, error: crossedError(err) }),
      );
  }
}

deliver = handle;
for (const m of inbox.splice(0)) handle(m);
post({ t: 'ready', tid: threadTaskId() });
