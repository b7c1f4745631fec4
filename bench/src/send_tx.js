// send_tx throughput: transfers from many senders, to EXECUTED_OPTIMISTIC, with blocks every 100 ms.
// Each sender (an account and one of its access keys) keeps one transfer in flight for the whole
// run, signing the next as the last returns.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { actions as A, baseDecode, baseEncode, KeyPair } from 'near-api-js';
import { rpcClient } from './http_client.js';
import { cpuSeconds, memoryMb, rssMb, startNode } from './node_process.js';
import { RawHttpConnection } from './raw_http.js';
import { sendBatch } from './sender.js';
import { fastTransferSigner } from './signer.js';

const pick = (a) => a[Math.floor(Math.random() * a.length)];
const RESULT_START = '{"jsonrpc":"2.0","result":';
/** Transfers a second the pre-signed pool is sized for, above what the node reaches here. */
const POOL_RATE = 3000;
/** The most seconds of the run the pool covers. */
const POOL_SECONDS = 12;
/** How old the pool's block may be when a pooled transaction is sent. */
const POOL_BLOCKS = 70;

/** The node's `/metrics` as read now: a value by its metric's name (NaN when absent). */
async function readMetrics(url) {
  const text = await (await fetch(`${url}/metrics`)).text();
  return (name) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
}

function percentile(values, q) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
}

/** The k-th extra key of the bench's send_tx senders (the same for every run and account). */
const extraKey = (k) =>
  KeyPair.fromString(
    `ed25519:${baseEncode(createHash('sha256').update(`nearlite-bench-send-tx-${k}`).digest())}`,
  );

/** Stops the read probe and returns its latencies (ms). */
async function stopProbe(probe) {
  if (!probe) return [];
  let out = '';
  probe.stdout.on('data', (d) => {
    out += d;
  });
  const done = new Promise((resolve) => probe.on('exit', resolve));
  probe.kill('SIGTERM');
  await done;
  const json = out.slice(out.indexOf('['));
  return json ? JSON.parse(json) : [];
}

export async function measureSendTx(home, meta, key, o) {
  const { log } = o;
  const txNode = await startNode(home, ['--block-time', '100', '--archive']);
  const accounts = meta.accounts.slice(0, o.accounts);
  const keysPerAccount = o.keysPerAccount ?? 1;
  const call = rpcClient(txNode.url);
  // More senders than accounts: each account gets keysPerAccount - 1 more full-access keys (one
  // transaction each, before anything is measured). With one transfer in flight per sender, a few
  // hundred senders measure the latency of three blocks rather than what the node can take.
  const keys = [key, ...Array.from({ length: keysPerAccount - 1 }, (_, k) => extraKey(k + 1))];
  if (keys.length > 1) {
    const added = keys.slice(1).map((k) => A.addFullAccessKey(k.getPublicKey()));
    await Promise.all(
      accounts.map((id) => sendBatch(txNode.url, key, id, [{ receiverId: id, actions: added }], 'FINAL')),
    );
  }
  const signers = keys.map((k) => ({ sign: fastTransferSigner(k), pk: k.getPublicKey().toString() }));
  const senders = accounts.flatMap((id) => signers.map((s) => ({ id, ...s, nonce: 0n })));
  // Every sender reads its nonce at once.
  await Promise.all(
    senders.map(async (s) => {
      const ak = await call('query', {
        request_type: 'view_access_key',
        account_id: s.id,
        public_key: s.pk,
        finality: 'optimistic',
      });
      s.nonce = BigInt(ak.nonce);
    }),
  );
  // Each sender on a connection of its own (raw_http.js says why not node:http's client).
  for (const s of senders) s.conn = await RawHttpConnection.open(txNode.url);
  // A recent block hash, refreshed well inside the transaction validity period.
  const finalBlock = async () => (await call('block', { finality: 'final' })).header;
  let final = await finalBlock();
  let blockHash = baseDecode(final.hash);
  const refresh = setInterval(async () => {
    final = await finalBlock();
    blockHash = baseDecode(final.hash);
  }, 2000);
  // Every sender's first transactions are signed before the run, against one final block, as the
  // read cases' bodies are built before theirs: signing was most of the generator's CPU, on the
  // cores the node is measured on. The pool covers the warm-up and the run at up to POOL_RATE
  // transfers a second and at most POOL_SECONDS. A sender whose pool runs out, or any sender once
  // the pool's block is POOL_BLOCKS old (inside the 100-block validity period), signs as it goes,
  // against the block read every two seconds.
  const warmup = o.warmup ?? 1;
  const poolSeconds = Math.min(POOL_SECONDS, warmup + o.duration);
  const perSender = Math.ceil((POOL_RATE * poolSeconds) / senders.length);
  const poolBlock = final;
  const poolHash = blockHash;
  // The sender's next transfer, to a random account, against `hash`.
  const signNext = (s, hash) => {
    s.nonce += 1n;
    return s.sign(s.id, pick(meta.accounts), s.nonce, hash, 1n);
  };
  for (const s of senders) {
    s.pool = Array.from({ length: perSender }, () => signNext(s, poolHash));
    s.pool.reverse();
  }
  const pooled = (s) => (final.height - poolBlock.height < POOL_BLOCKS ? s.pool.pop() : undefined);
  const latencies = [];
  let sent = 0;
  let failed = 0;
  const pid = txNode.proc.pid;
  // The same load, unmeasured, first (as the read cases do): the node starts cold for this case, and
  // its first second carries JIT compilation and first-touched memory, which a run of a few seconds
  // would otherwise count as its throughput.
  let measuring = warmup <= 0;
  let cpu0 = null;
  let t0 = performance.now();
  // A light read load beside the transfers while they are measured (read_probe.js): how long a read
  // waits while the node takes transactions and makes blocks.
  let probe = null;
  // From the node's metrics: the chain thread's CPU time and both threads' store reads (the chain
  // thread's as of its last block), and how many of those reads the stores' caches answered.
  const counters = async () => {
    const value = await readMetrics(txNode.url);
    return {
      chainCpu: value('nearlite_chain_thread_cpu_seconds_total'),
      reads: value('nearlite_store_reads_total'),
      cacheHits: value('nearlite_store_cache_hits_total'),
    };
  };
  const startMeasuring = async () => {
    // The main thread's id is the process id.
    cpu0 = {
      main: await cpuSeconds(pid, pid),
      all: await cpuSeconds(pid),
      node: await counters(),
      gen: process.cpuUsage(),
    };
    t0 = performance.now();
    measuring = true;
    probe = spawn(
      process.execPath,
      [join(import.meta.dirname, 'read_probe.js'), txNode.url, JSON.stringify(accounts)],
      // Its stdin is a pipe from this process: if this process dies, the probe sees it close and
      // stops, rather than loading the machine for every run after.
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
  };
  if (measuring) await startMeasuring();
  const warm = measuring ? null : setTimeout(startMeasuring, warmup * 1000);
  const until = performance.now() + (measuring ? 0 : warmup * 1000) + o.duration * 1000;
  await Promise.all(
    senders.map(async (s) => {
      while (performance.now() < until) {
        const b64 = pooled(s) ?? signNext(s, blockHash);
        const started = performance.now();
        const counted = measuring;
        try {
          const { status, text } = await s.conn.post(
            `{"jsonrpc":"2.0","id":"bench","method":"send_tx","params":{"signed_tx_base64":"${b64}","wait_until":"EXECUTED_OPTIMISTIC"}}`,
          );
          // The node's answers start so when they are results; anything else is read in full.
          if (status !== 200 || !text.startsWith(RESULT_START)) throw new Error(`HTTP ${status}: ${text}`);
          if (measuring) sent++;
          if (counted) latencies.push(performance.now() - started);
        } catch (e) {
          if (failed++ === 0)
            log(`send_tx failed: ${e.message} ${e.cause?.code ?? ''} ${e.cause?.message ?? ''}`);
          if (!s.conn.usable) s.conn = await RawHttpConnection.open(txNode.url);
        }
      }
    }),
  );
  for (const s of senders) s.conn.close();
  clearTimeout(warm);
  clearInterval(refresh);
  const readLatencies = await stopProbe(probe);
  const txSeconds = (performance.now() - t0) / 1000;
  const cpuUs = async (tid) =>
    Math.round(
      (((await cpuSeconds(pid, tid)) - cpu0[tid === null ? 'all' : 'main']) * 1e6) / Math.max(1, sent),
    );
  const gen = process.cpuUsage(cpu0.gen);
  const node1 = await counters();
  const perTransfer = (v) => Math.round(v / Math.max(1, sent));
  const chainUs = perTransfer((node1.chainCpu - cpu0.node.chainCpu) * 1e6);
  const reads = node1.reads - cpu0.node.reads;
  const storeReadsPerTransfer = perTransfer(reads);
  const leveldbReadsPerTransfer = perTransfer(reads - (node1.cacheHits - cpu0.node.cacheHits));
  // What all has beyond main and chain: V8's collector threads, LevelDB's compaction, signature
  // checks, libuv's pool.
  const cpuPerTransferUs = {
    main: await cpuUs(pid),
    all: await cpuUs(null),
    chain: Number.isFinite(chainUs) ? chainUs : null,
    generator: Math.round((gen.user + gen.system) / Math.max(1, sent)),
  };
  const row = {
    name: 'send_tx transfers (EXECUTED_OPTIMISTIC)',
    rps: Math.round(sent / txSeconds),
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    errors: failed,
    ratio: null,
    cpuPerTransferUs,
    storeReadsPerTransfer,
    leveldbReadsPerTransfer,
    readsDuring: {
      count: readLatencies.length,
      p50: percentile(readLatencies, 0.5),
      p99: percentile(readLatencies, 0.99),
      max: percentile(readLatencies, 1),
    },
  };
  log(
    `send_tx: ${Math.round(sent / txSeconds)} tx/s p50 ${row.p50} ms p99 ${row.p99} ms (${failed} failed, ${senders.length} senders); node CPU per transfer: main thread ${cpuPerTransferUs.main} µs, chain thread ${cpuPerTransferUs.chain} µs, all threads ${cpuPerTransferUs.all} µs; generator ${cpuPerTransferUs.generator} µs; ${storeReadsPerTransfer} store reads a transfer, ${leveldbReadsPerTransfer} of them from LevelDB; view_account beside it: p50 ${row.readsDuring.p50} ms, p99 ${row.readsDuring.p99} ms (${readLatencies.length} reads)`,
  );
  const rss = await rssMb(txNode.proc.pid);
  const memory = (await memoryMb(txNode.proc.pid)) ?? {};
  // What the node's own heaps hold of it (the main thread's; the workers' are in RSS only).
  const metric = await readMetrics(txNode.url);
  const gauge = (name) => Math.round(metric(name) / 2 ** 20);
  memory.heapUsed = gauge('nodejs_heap_size_used_bytes');
  memory.heapTotal = gauge('nodejs_heap_size_total_bytes');
  memory.external = gauge('nodejs_external_memory_bytes');
  memory.chainHeapUsed = gauge('nearlite_chain_thread_heap_used_bytes');
  memory.chainHeapTotal = gauge('nearlite_chain_thread_heap_total_bytes');
  row.nodeMemoryMb = memory;
  log(
    `send_tx node memory: peak RSS ${rss} MB, now ${memory.rss} MB (${memory.anon} MB private); main heap ${memory.heapUsed} MB used of ${memory.heapTotal} MB, chain thread's ${memory.chainHeapUsed} of ${memory.chainHeapTotal} MB, external ${memory.external} MB`,
  );
  await txNode.stop();
  return { row, rss, memory };
}
