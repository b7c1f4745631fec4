// send_tx throughput: transfers from many senders, to EXECUTED_OPTIMISTIC, with blocks every 100 ms.
// Each sender keeps one transfer in flight for the whole run, signing the next as the last returns.
import { baseDecode } from 'near-api-js';
import { rpcClient } from './http_client.js';
import { cpuSeconds, memoryMb, rssMb, startNode } from './node_process.js';
import { fastTransferSigner } from './signer.js';

const pick = (a) => a[Math.floor(Math.random() * a.length)];

function percentile(values, q) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
}

export async function measureSendTx(home, meta, key, o) {
  const { log } = o;
  const pk = key.getPublicKey().toString();
  const txNode = await startNode(home, ['--block-time', '100', '--archive']);
  const senders = meta.accounts.slice(0, o.senders);
  const sign = fastTransferSigner(key);
  const call = rpcClient(txNode.url);
  const nonces = new Map();
  // Every sender reads its nonce at once, which also opens the connection it keeps for the run.
  await Promise.all(
    senders.map(async (id) => {
      const ak = await call('query', {
        request_type: 'view_access_key',
        account_id: id,
        public_key: pk,
        finality: 'optimistic',
      });
      nonces.set(id, BigInt(ak.nonce));
    }),
  );
  // A recent block hash, refreshed well inside the transaction validity period.
  const finalHash = async () => baseDecode((await call('block', { finality: 'final' })).header.hash);
  let blockHash = await finalHash();
  const refresh = setInterval(async () => {
    blockHash = await finalHash();
  }, 2000);
  const latencies = [];
  let sent = 0;
  let failed = 0;
  const pid = txNode.proc.pid;
  // The same load, unmeasured, first (as the read cases do): the node starts cold for this case, and
  // its first second carries JIT compilation and first-touched memory, which a run of a few seconds
  // would otherwise count as its throughput.
  const warmup = o.warmup ?? 1;
  let measuring = warmup <= 0;
  let cpu0 = null;
  let t0 = performance.now();
  const startMeasuring = async () => {
    // The main thread's id is the process id.
    cpu0 = { main: await cpuSeconds(pid, pid), all: await cpuSeconds(pid), gen: process.cpuUsage() };
    t0 = performance.now();
    measuring = true;
  };
  if (measuring) await startMeasuring();
  const warm = measuring ? null : setTimeout(startMeasuring, warmup * 1000);
  const until = performance.now() + (measuring ? 0 : warmup * 1000) + o.duration * 1000;
  await Promise.all(
    senders.map(async (id) => {
      while (performance.now() < until) {
        const nonce = nonces.get(id) + 1n;
        nonces.set(id, nonce);
        const b64 = sign(id, pick(meta.accounts), nonce, blockHash, 1n);
        const started = performance.now();
        const counted = measuring;
        try {
          await call('send_tx', { signed_tx_base64: b64, wait_until: 'EXECUTED_OPTIMISTIC' });
          if (measuring) sent++;
          if (counted) latencies.push(performance.now() - started);
        } catch (e) {
          if (failed++ === 0)
            log(`send_tx failed: ${e.message} ${e.cause?.code ?? ''} ${e.cause?.message ?? ''}`);
        }
      }
    }),
  );
  clearTimeout(warm);
  clearInterval(refresh);
  const txSeconds = (performance.now() - t0) / 1000;
  const cpuUs = async (tid) =>
    Math.round(
      (((await cpuSeconds(pid, tid)) - cpu0[tid === null ? 'all' : 'main']) * 1e6) / Math.max(1, sent),
    );
  const gen = process.cpuUsage(cpu0.gen);
  const cpuPerTransferUs = {
    main: await cpuUs(pid),
    all: await cpuUs(null),
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
  };
  log(
    `send_tx: ${Math.round(sent / txSeconds)} tx/s p50 ${row.p50} ms p99 ${row.p99} ms (${failed} failed, ${senders.length} senders); node CPU per transfer: main thread ${cpuPerTransferUs.main} µs, all threads ${cpuPerTransferUs.all} µs; generator ${cpuPerTransferUs.generator} µs`,
  );
  const rss = await rssMb(txNode.proc.pid);
  const memory = (await memoryMb(txNode.proc.pid)) ?? {};
  // What the node's own heaps hold of it (the main thread's; the workers' are in RSS only).
  const metrics = await (await fetch(`${txNode.url}/metrics`)).text();
  const gauge = (name) =>
    Math.round(Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(metrics)?.[1]) / 2 ** 20);
  memory.heapUsed = gauge('nodejs_heap_size_used_bytes');
  memory.heapTotal = gauge('nodejs_heap_size_total_bytes');
  memory.external = gauge('nodejs_external_memory_bytes');
  row.nodeMemoryMb = memory;
  log(
    `send_tx node memory: peak RSS ${rss} MB, now ${memory.rss} MB (${memory.anon} MB private); main heap ${memory.heapUsed} MB used of ${memory.heapTotal} MB, external ${memory.external} MB`,
  );
  await txNode.stop();
  return { row, rss, memory };
}
