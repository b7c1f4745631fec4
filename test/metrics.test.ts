// What an operator scrapes: GET /metrics in Prometheus' text format.
import { readdirSync, readFileSync } from 'node:fs';
import t from 'tap';
import { compileContract } from './helpers/asc.js';
import { deployedAccount, localChain } from './helpers/chain.js';
import { initHome, startNode, waitForHeight } from './helpers/node.js';
import { tempDir } from './helpers/tmp.js';

t.test('GET /metrics counts calls by method and outcome, blocks, transactions and store work', async (t) => {
  const home = tempDir(t);
  initHome(home);
  const node = await startNode(home, ['--block-time', '50']);
  t.teardown(() => node.stop());
  await waitForHeight(node, 3);
  await node.rpc('status', []);
  await node.rpc('query', { request_type: 'view_account', account_id: 'test.near', finality: 'final' });
  await node.rpc('query', { request_type: 'view_account', account_id: 'nobody.near', finality: 'final' });
  await node.rpc('send_tx', { signed_tx_base64: Buffer.from('not a transaction').toString('base64') });
  await node.rpc('no_such_method', []);
  const res = await fetch(`${node.url}/metrics`);
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type') ?? '', /^text\/plain/);
  const text = await res.text();
  const value = (line: string) => {
    const m = new RegExp(`^${line.replace(/[{}"[\]().]/g, '\\$&')} (\\S+)$`, 'm').exec(text);
    return m ? Number(m[1]) : null;
  };
  t.equal(value('nearlite_rpc_requests_total{method="status",outcome="ok"}'), 1);
  t.equal(value('nearlite_rpc_requests_total{method="query.view_account",outcome="ok"}'), 1);
  t.equal(value('nearlite_rpc_requests_total{method="query.view_account",outcome="UNKNOWN_ACCOUNT"}'), 1);
  t.equal(value('nearlite_rpc_requests_total{method="send_tx",outcome="PARSE_ERROR"}'), 1);
  t.equal(
    value('nearlite_rpc_requests_total{method="unknown",outcome="METHOD_NOT_FOUND"}'),
    1,
    'names never from the client',
  );
  t.ok((value('nearlite_block_height') ?? 0) >= 3, 'block height');
  t.ok((value('nearlite_block_production_seconds_count') ?? 0) >= 3, 'block production times');
  t.ok((value('nearlite_store_reads_total') ?? 0) > 0, 'store reads');
  t.ok((value('nearlite_store_cache_hits_total') ?? 0) > 0, 'cache hits');
  t.ok((value('nearlite_store_batches_total') ?? 0) >= 3, 'batches');
  const chainHeapUsed = value('nearlite_chain_thread_heap_used_bytes') ?? 0;
  t.ok(chainHeapUsed > 1e6, "the chain thread's heap");
  t.ok((value('nearlite_chain_thread_heap_total_bytes') ?? 0) >= chainHeapUsed);
  // The chain thread's CPU time is one thread's of the node's process as the kernel counts it, as of
  // the last block (blocks come every 50 ms here, so within a second of it).
  const chainCpu = value('nearlite_chain_thread_cpu_seconds_total') ?? 0;
  t.ok(chainCpu > 0, `the chain thread's CPU time (${chainCpu} s)`);
  const threadCpu = readdirSync(`/proc/${node.proc.pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${node.proc.pid}/task/${tid}/stat`, 'latin1');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  });
  t.ok(
    threadCpu.some((s) => s >= chainCpu && s - chainCpu < 1),
    `one of the process's threads has used it (${threadCpu.join(', ')})`,
  );
  t.equal(value('nearlite_gc_collected_blocks_total'), 0, 'GC progress (nothing old enough yet)');
  t.equal(value('nearlite_tail_height'), 0, 'the tail');
  t.ok(value('nearlite_rpc_request_duration_seconds_count{method="status"}') === 1, 'latency histogram');
  // The process's memory, against what the kernel says of the same process.
  const rss = value('process_resident_memory_bytes') ?? 0;
  const status = readFileSync(`/proc/${node.proc.pid}/status`, 'utf8');
  const kernelRss = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]) * 1024;
  t.ok(
    rss > 20e6 && Math.abs(rss - kernelRss) < 0.5 * kernelRss,
    `resident memory ${rss} (kernel ${kernelRss})`,
  );
  const heapUsed = value('nodejs_heap_size_used_bytes') ?? 0;
  t.ok(
    heapUsed > 1e6 && heapUsed <= (value('nodejs_heap_size_total_bytes') ?? 0),
    'heap used within reserved',
  );
  t.ok(
    (value('nodejs_external_memory_bytes') ?? 0) > 0 && (value('nodejs_array_buffers_bytes') ?? 0) > 0,
    'external and ArrayBuffer memory',
  );

  // Not a terminal: the log is structured, one JSON object per line with level, time and message.
  const lines = node
    .logs()
    .split('\n')
    .filter((l) => l.length > 0);
  t.ok(lines.length > 0, 'the node logged');
  for (const line of lines) {
    const o = JSON.parse(line) as { level: number; time: number; msg: string };
    t.ok(Number.isInteger(o.level) && Number.isInteger(o.time) && typeof o.msg === 'string', o.msg);
  }
});

t.test('GET /metrics adds up the gas view calls burn', async (t) => {
  const code = await compileContract('echo');
  const { node, provider, root } = await localChain(t);
  await deployedAccount({ provider, root }, 'echo.test.near', code, 10n ** 25n);
  const gas = async () => {
    const text = await (await fetch(`${node.url}/metrics`)).text();
    return Number(/^nearlite_view_call_gas_total (\S+)$/m.exec(text)?.[1]);
  };
  t.equal(await gas(), 0, 'nothing burnt before the first view call');
  const view = (s: string) =>
    node.rpc('query', {
      request_type: 'call_function',
      account_id: 'echo.test.near',
      method_name: 'say',
      args_base64: Buffer.from(s).toString('base64'),
      finality: 'optimistic',
    });
  await view('a');
  const one = await gas();
  t.ok(one > 0, `one call burnt ${one} gas`);
  await view('a');
  t.equal(await gas(), 2 * one, 'the same call again burns the same gas again');
  await view('a much longer argument that costs more to read and to log');
  t.ok((await gas()) > 3 * one, 'a longer argument burns more');
});
