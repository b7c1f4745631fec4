// What an operator scrapes: GET /metrics in Prometheus' text format.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { compileContract } from './helpers/asc.js';
import { deployedAccount, localChain } from './helpers/chain.js';
import { editConfig, initHome, rawRpc, startFollower, startNode, waitForHeight } from './helpers/node.js';
import { tempDir } from './helpers/tmp.js';

/** The value of one sample line of a scrape, named with its labels as written; null when absent. */
function metricValue(text: string, line: string): number | null {
  const m = new RegExp(`^${line.replace(/[{}"[\]().]/g, '\\$&')} (\\S+)$`, 'm').exec(text);
  return m ? Number(m[1]) : null;
}

t.test('GET /metrics counts calls by method and outcome, blocks, transactions and store work', async (t) => {
  const home = tempDir(t);
  initHome(home);
  const started = performance.now();
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
  const value = (line: string) => metricValue(text, line);
  t.equal(value('nearlite_rpc_requests_total{method="status",outcome="ok"}'), 1);
  t.equal(value('nearlite_rpc_requests_total{method="query.view_account",outcome="ok"}'), 1);
  t.equal(value('nearlite_rpc_requests_total{method="query.view_account",outcome="UNKNOWN_ACCOUNT"}'), 1);
  t.equal(value('nearlite_rpc_requests_total{method="send_tx",outcome="PARSE_ERROR"}'), 1);
  t.equal(
    value('nearlite_rpc_requests_total{method="unknown",outcome="METHOD_NOT_FOUND"}'),
    1,
    'names never from the client',
  );
  // Prometheus' naming rules (promtool's lint): `_total` names a counter, and a counter's name ends so.
  const types = [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map(([, name, type]) => ({ name, type }));
  t.ok(types.length > 30, `${types.length} metrics`);
  t.same(
    types.filter((m) => m.name!.endsWith('_total') !== (m.type === 'counter')),
    [],
    'every _total is a counter and every counter a _total',
  );
  t.ok((value('nearlite_block_height') ?? 0) >= 3, 'block height');
  t.ok((value('nearlite_block_production_seconds_count') ?? 0) >= 3, 'block production times');
  t.ok((value('nearlite_store_reads_total') ?? 0) > 0, 'store reads');
  t.ok((value('nearlite_store_cache_hits_total') ?? 0) > 0, 'cache hits');
  t.ok((value('nearlite_store_batches_total') ?? 0) >= 3, 'batches');
  const chainHeapUsed = value('nearlite_chain_thread_heap_used_bytes') ?? 0;
  t.ok(chainHeapUsed > 1e6, "the chain thread's heap");
  t.ok((value('nearlite_chain_thread_heap_total_bytes') ?? 0) >= chainHeapUsed);
  // The chain thread's CPU time is one thread's of the node's process as the kernel counts it when
  // scraped (read just before the threads are, so a tick or so behind).
  const chainCpu = value('nearlite_chain_thread_cpu_seconds_total') ?? 0;
  t.ok(chainCpu > 0, `the chain thread's CPU time (${chainCpu} s)`);
  const threadCpu = readdirSync(`/proc/${node.proc.pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${node.proc.pid}/task/${tid}/stat`, 'latin1');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  });
  t.ok(
    threadCpu.some((s) => s >= chainCpu && s - chainCpu < 0.2),
    `one of the process's threads has used it (${threadCpu.join(', ')})`,
  );
  // How long each thread's event loop has been busy: some of the time since the node started, and
  // never less at a later scrape.
  const elapsed = (performance.now() - started) / 1000;
  const loopActive = (src: string) => ({
    rpc: metricValue(src, 'nearlite_event_loop_active_seconds_total{thread="rpc"}') ?? Number.NaN,
    chain: metricValue(src, 'nearlite_event_loop_active_seconds_total{thread="chain"}') ?? Number.NaN,
  });
  const active = loopActive(text);
  for (const [thread, s] of Object.entries(active))
    t.ok(s > 0 && s < elapsed, `the ${thread} thread's event loop was busy ${s} s of ${elapsed} s`);
  await waitForHeight(node, (value('nearlite_block_height') ?? 0) + 2);
  const later = loopActive(await (await fetch(`${node.url}/metrics`)).text());
  t.ok(later.rpc >= active.rpc && later.chain > active.chain, 'and more of it at a later scrape');
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

t.test("GET /metrics reads LevelDB's own figures: levels, compactions, memory", async (t) => {
  const home = tempDir(t);
  initHome(home);
  const first = await startNode(home, ['--block-time', '50']);
  await waitForHeight(first, 5);
  // A clean stop writes the memtable into a table, so the restarted node has files to count.
  await first.stop();
  const node = await startNode(home, ['--block-time', '600000']);
  t.teardown(() => node.stop());
  const tables = () => {
    const data = join(home, 'data');
    const files = readdirSync(data).filter((f) => f.endsWith('.ldb'));
    return { files: files.length, bytes: files.reduce((n, f) => n + statSync(join(data, f)).size, 0) };
  };
  const before = tables();
  const text = await (await fetch(`${node.url}/metrics`)).text();
  t.same(tables(), before, 'no compaction meanwhile');
  const perLevel = (name: string) =>
    Array.from({ length: 7 }, (_, level) => metricValue(text, `${name}{level="${level}"}`));
  const files = perLevel('nearlite_leveldb_files');
  const bytes = perLevel('nearlite_leveldb_level_bytes');
  t.notOk(files.includes(null) || bytes.includes(null), 'every level is listed');
  t.ok(before.files > 0, `the chain is in ${before.files} tables`);
  t.equal(
    files.reduce((n, v) => n! + v!, 0),
    before.files,
    "the levels' files are the table files on disk",
  );
  // LevelDB counts a level's bytes in whole MiB.
  t.ok(
    Math.abs(bytes.reduce((n, v) => n! + v!, 0)! - before.bytes) <= 2 ** 19,
    "the levels' bytes are the table files' sizes, to the MiB",
  );
  for (const name of ['seconds', 'read_bytes', 'written_bytes'])
    t.notOk(
      perLevel(`nearlite_leveldb_compaction_${name}_total`).some((v) => v === null || v < 0),
      `compaction ${name} for every level`,
    );
  const memory = metricValue(text, 'nearlite_leveldb_memory_bytes') ?? Number.NaN;
  t.ok(memory > 0, `memtable and block cache: ${memory} bytes`);
  const data = join(home, 'data');
  const onDisk = readdirSync(data).reduce((n, f) => n + statSync(join(data, f)).size, 0);
  t.equal(
    metricValue(text, 'nearlite_store_size_bytes'),
    onDisk,
    "the store's size is its files' bytes: tables, log and manifest",
  );
});

t.test('GET /metrics adds up the gas view calls burn', async (t) => {
  const code = await compileContract('echo');
  const { node, provider, root } = await localChain(t);
  await deployedAccount({ provider, root }, 'echo.test.near', code, 10n ** 25n);
  const gas = async () => {
    const text = await (await fetch(`${node.url}/metrics`)).text();
    return metricValue(text, 'nearlite_view_call_gas_total') ?? Number.NaN;
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

t.test("nearcore's chain metrics read as on neard, on a producer and on its follower", async (t) => {
  const started = Math.floor(Date.now() / 1000);
  const home = tempDir(t);
  initHome(home, ['--shards', '2', '--epoch-length', '10']);
  // No timer blocks: the head moves only by the fast-forward below, so every figure can be checked
  // against the RPC's own answers at the same head.
  const producer = await startNode(home, ['--block-time', '600000', '--sandbox']);
  t.teardown(() => producer.stop());
  const ff = await producer.rpc('sandbox_fast_forward', { delta_height: 25 });
  t.same(ff.body.result, {}, 'fast-forwarded');
  const metrics = async (url: string) => {
    const text = await (await fetch(`${url}/metrics`)).text();
    return (name: string) => metricValue(text, name);
  };
  const result = async <T>(url: string, method: string, params: unknown): Promise<T> =>
    (JSON.parse((await rawRpc(url, method, params)).body) as { result: T }).result;
  type Status = { sync_info: { latest_block_height: number; earliest_block_height: number } };
  const blocksIn = async (url: string, from: number, to: number) => {
    let n = 0;
    for (let h = from; h <= to; h++) if (await result<object | undefined>(url, 'block', { block_id: h })) n++;
    return n;
  };

  const status = await result<Status>(producer.url, 'status', []);
  const head = status.sync_info.latest_block_height;
  const final = await result<{ header: { height: number } }>(producer.url, 'block', { finality: 'final' });
  const validators = await result<{ epoch_height: number }>(producer.url, 'validators', [null]);
  const genesis = await result<{ shard_layout: Record<string, { version: number }> }>(
    producer.url,
    'EXPERIMENTAL_genesis_config',
    {},
  );
  const p = await metrics(producer.url);
  t.equal(p('near_block_height_head'), head, 'near_block_height_head is the head');
  t.equal(p('near_header_head_height'), head, 'the header head is the head');
  t.equal(p('near_largest_final_height'), final.header.height, 'the final height');
  t.equal(p('near_tail_height'), status.sync_info.earliest_block_height, 'the tail');
  // The first two epochs share the genesis' epoch height, 1: the third epoch (heights 21–30) is 2.
  t.ok(validators.epoch_height >= 2, `epoch ${validators.epoch_height} after 25 heights of 10-block epochs`);
  t.equal(p('near_epoch_height'), validators.epoch_height, "the head's epoch height, as validators says");
  // The fast-forward skips heights: the count is of blocks, every one this process made since genesis.
  const made = await blocksIn(producer.url, 1, head);
  t.ok(made < head, `${made} blocks at ${head} heights`);
  t.equal(p('near_block_processed_total'), made, 'blocks processed since start');
  t.equal(p('near_sync_status'), 0, 'NoSync');
  t.equal(p('near_shard_layout_num_shards'), 2);
  t.equal(p('near_shard_layout_version'), Object.values(genesis.shard_layout)[0]!.version);
  type Header = { header: { block_ordinal: number; timestamp_nanosec: string } };
  const seconds = (b: Header) => Number(BigInt(b.header.timestamp_nanosec) / 1_000_000n) / 1000;
  const headBlock = await result<Header>(producer.url, 'block', { block_id: head });
  t.equal(p('near_block_ordinal_head'), headBlock.header.block_ordinal, "the head's ordinal");
  t.equal(p('nearlite_head_block_timestamp_seconds'), seconds(headBlock), "the head block's timestamp");
  const boot = p('near_boot_time_seconds') ?? 0;
  t.ok(boot >= started - 1 && boot <= Math.ceil(Date.now() / 1000), `boot time ${boot}`);

  const follower = await startFollower(home, producer.url);
  t.teardown(() => follower.stop());
  await waitForHeight(follower, final.header.height);
  const fStatus = await result<Status>(follower.url, 'status', []);
  const cursor = fStatus.sync_info.latest_block_height;
  t.equal(cursor, final.header.height, "the follower holds the producer's final blocks");
  const f = await metrics(follower.url);
  t.ok((f('nearlite_event_loop_active_seconds_total{thread="rpc"}') ?? 0) > 0, "the RPC thread's busy time");
  t.ok((f('nearlite_leveldb_memory_bytes') ?? 0) > 0, "the history's LevelDB memtable");
  t.equal(f('near_block_height_head'), cursor, "a follower's head is its cursor");
  t.equal(f('near_largest_final_height'), cursor, 'every followed block is final');
  t.equal(f('near_tail_height'), fStatus.sync_info.earliest_block_height, 'the first followed block');
  t.equal(
    f('near_block_processed_total'),
    await blocksIn(producer.url, fStatus.sync_info.earliest_block_height, cursor),
    'blocks followed since start, from the first one the stream gave',
  );
  t.equal(f('near_sync_status'), 0, 'caught up: NoSync');
  t.equal(f('near_epoch_height'), null, 'no epoch height where the stream carries none');
  const cursorBlock = await result<Header>(producer.url, 'block', { block_id: cursor });
  t.equal(f('near_block_ordinal_head'), cursorBlock.header.block_ordinal, "the cursor block's ordinal");
  t.equal(
    f('nearlite_head_block_timestamp_seconds'),
    seconds(cursorBlock),
    "the cursor block's timestamp, from the block the stream gave",
  );
});

t.test("nearcore's GC gauges: the height below which query answers GARBAGE_COLLECTED_BLOCK", async (t) => {
  const home = tempDir(t);
  initHome(home, ['--epoch-length', '10']);
  editConfig(home, (c) => ({ ...c, gc_num_epochs_to_keep: 3 }));
  const node = await startNode(home, ['--block-time', '600000', '--sandbox']);
  t.teardown(() => node.stop());
  t.same((await node.rpc('sandbox_fast_forward', { delta_height: 45 })).body.result, {});
  const text = await (await fetch(`${node.url}/metrics`)).text();
  const stop = metricValue(text, 'near_gc_stop_height')!;
  t.ok(stop > 1, `GC collects up to #${stop}`);
  const query = (h: number) =>
    node.rpc<unknown>('query', { request_type: 'view_account', account_id: 'test.near', block_id: h });
  t.equal((await query(stop - 1)).body.error?.cause.name, 'GARBAGE_COLLECTED_BLOCK', 'below it: collected');
  t.ok((await query(stop)).body.result, 'at it: answered');
  const status = (await node.rpc<{ sync_info: { earliest_block_height: number } }>('status', [])).body
    .result!;
  t.equal(
    metricValue(text, 'near_chunk_tail_height'),
    status.sync_info.earliest_block_height,
    'the chunk tail',
  );
});
