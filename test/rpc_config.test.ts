// config.json's `rpc.cors_allowed_origins` on a producing node: browser pages of the listed origins
// may read its answers, others may not; a list nearcore's CORS layer cannot take stops the start.
// And `rpc.prometheus_addr`: a second listener with the metrics alone.
import t from 'tap';
import {
  editConfig,
  editRpc,
  initHome,
  refused,
  startFollower,
  startNode,
  waitForHeight,
} from './helpers/node.js';
import { tempDir } from './helpers/tmp.js';

t.test('a node with cors_allowed_origins names only those origins', async (t) => {
  const home = tempDir(t);
  initHome(home);
  editRpc(home, { cors_allowed_origins: ['https://app.example'] });
  const node = await startNode(home, ['--block-time', '50']);
  t.teardown(() => node.stop());
  await waitForHeight(node, 2);
  const block = (origin: string) =>
    fetch(node.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'block', params: { finality: 'final' } }),
    });
  const listed = await block('https://app.example');
  t.equal(listed.status, 200);
  t.equal(listed.headers.get('access-control-allow-origin'), 'https://app.example');
  const other = await block('https://elsewhere.example');
  t.equal(other.status, 200);
  t.equal(other.headers.get('access-control-allow-origin'), null);
  const pre = await fetch(node.url, {
    method: 'OPTIONS',
    headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
  });
  t.equal(pre.headers.get('access-control-allow-origin'), 'https://app.example');
  t.equal(pre.headers.get('access-control-allow-methods'), 'GET,POST');
  const neardata = await fetch(`${node.url}/v0/last_block/final`, {
    headers: { origin: 'https://elsewhere.example' },
  });
  t.equal(neardata.status, 200, 'a block of the stream');
  t.equal(neardata.headers.get('access-control-allow-origin'), null, 'the block stream routes too');
  const listedBlock = await fetch(`${node.url}/v0/block/1`, { headers: { origin: 'https://app.example' } });
  t.equal(listedBlock.headers.get('access-control-allow-origin'), 'https://app.example');
});

t.test('a list with "*" among origins, or not a list of origins, stops the start', async (t) => {
  const home = tempDir(t);
  initHome(home);
  for (const bad of [['*', 'https://app.example'], 'https://app.example', []]) {
    editRpc(home, { cors_allowed_origins: bad });
    refused(
      t,
      ['run', '--home', home, '--rpc-addr', '127.0.0.1:0'],
      /rpc\.cors_allowed_origins/,
      JSON.stringify(bad),
    );
  }
});

t.test('rpc.prometheus_addr serves the metrics alone on an address of its own', async (t) => {
  const home = tempDir(t);
  initHome(home);
  editRpc(home, { prometheus_addr: '127.0.0.1:0' });
  const node = await startNode(home, ['--block-time', '50']);
  t.teardown(() => node.stop());
  await waitForHeight(node, 2);
  const at = /metrics on (http:\/\/[^\s"]+)/.exec(node.logs())?.[1];
  t.ok(at, 'the start line names the listener');
  t.not(at, node.url, 'an address of its own');
  const scraped = await fetch(`${at}/metrics`);
  t.equal(scraped.status, 200);
  t.match(scraped.headers.get('content-type') ?? '', /^text\/plain/);
  const text = await scraped.text();
  t.match(text, /^nearlite_block_height /m, "the node's metrics");
  t.equal((await fetch(`${node.url}/metrics`)).status, 200, "the RPC's own /metrics stays");
  const rpc = await fetch(`${at}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'status', params: [] }),
  });
  t.equal(rpc.status, 404, 'no JSON-RPC there');
  t.equal((await fetch(`${at}/status`)).status, 404, 'nor anything else');
  t.equal(await node.stop(), 0, 'both close on a clean stop');
  await t.rejects(fetch(`${at}/metrics`), 'the metrics listener is gone');
});

t.test('an rpc.prometheus_addr that is not IP:PORT stops the start', async (t) => {
  const home = tempDir(t);
  initHome(home);
  for (const [bad, message] of [
    ['127.0.0.1:99999', /rpc\.prometheus_addr: invalid socket address syntax: '127\.0\.0\.1:99999'/],
    ['localhost:9100', /rpc\.prometheus_addr: invalid socket address syntax: 'localhost:9100'/],
    [5, /rpc\.prometheus_addr must be "IP:PORT" or null/],
    [['127.0.0.1:9100'], /rpc\.prometheus_addr must be "IP:PORT" or null/],
  ] as const) {
    editRpc(home, { prometheus_addr: bad });
    refused(t, ['run', '--home', home, '--rpc-addr', '127.0.0.1:0'], message, JSON.stringify(bad));
  }
});

t.test(
  "nearcore's run flags --rpc-prometheus-addr and --max-gas-burnt-view override config.json",
  async (t) => {
    const home = tempDir(t);
    initHome(home);
    editConfig(home, (c) => ({ ...c, max_gas_burnt_view: 5, gc_num_epochs_to_keep: 1 }));
    const node = await startNode(home, [
      '--rpc-prometheus-addr',
      '127.0.0.1:0',
      '--max-gas-burnt-view',
      '12345678901',
    ]);
    t.teardown(() => node.stop());
    // Said just after the start line.
    await waitForHeight(node, 1);
    const at = /metrics on (http:\/\/[^\s"]+)/.exec(node.logs())?.[1];
    t.ok(at, 'the metrics listener is up');
    t.equal((await fetch(`${at}/metrics`)).status, 200);
    const config = await node.rpc<{ max_gas_burnt_view: number | null }>('client_config', []);
    t.equal(config.body.result?.max_gas_burnt_view, 12345678901, 'the flag, not the file');
    // nearcore shows gc_num_epochs_to_keep as written; GC keeps at least 3 all the same.
    t.equal(
      (config.body.result as unknown as { gc: { gc_num_epochs_to_keep: number } }).gc.gc_num_epochs_to_keep,
      1,
    );
    refused(
      t,
      ['run', '--home', home, '--max-gas-burnt-view=-1'],
      /--max-gas-burnt-view must be an amount of gas, got '-1'/,
      'a negative gas',
    );
    refused(
      t,
      ['run', '--home', home, '--rpc-prometheus-addr', 'localhost:9100'],
      /--rpc-prometheus-addr: invalid socket address syntax: 'localhost:9100'/,
      'a host name',
    );
    // The flags put the metrics on the RPC's own address: refused before anything starts, as the
    // config field is.
    for (const follow of [[], ['--follow', node.url]])
      refused(
        t,
        [
          'run',
          '--home',
          home,
          ...follow,
          '--rpc-addr',
          '127.0.0.1:9',
          '--rpc-prometheus-addr',
          '127.0.0.1:9',
        ],
        /the metrics address is the RPC address \(127\.0\.0\.1:9\): the metrics listener needs an address of its own/,
        `the same address${follow.length > 0 ? ', following' : ''}`,
      );

    // A metrics address another process holds: the start fails naming the listener, not just the
    // address (the RPC's own listener is up by then).
    const busy = new URL(at!).host;
    const second = tempDir(t);
    initHome(second);
    refused(
      t,
      ['run', '--home', second, '--rpc-addr', '127.0.0.1:0', '--rpc-prometheus-addr', busy],
      new RegExp(`the metrics listener on ${busy.replace(/\./g, '\\.')}: listen EADDRINUSE`),
      'a metrics address in use',
    );

    // The same flags on a follower, whose RPC reads the same settings.
    const follower = await startFollower(home, node.url, [
      '--rpc-prometheus-addr',
      '127.0.0.1:0',
      '--max-gas-burnt-view',
      '777',
    ]);
    t.teardown(() => follower.stop());
    const followerMetrics = /metrics on (http:\/\/[^\s"]+)/.exec(follower.logs())?.[1];
    t.ok(followerMetrics, "the follower's metrics listener is up");
    t.equal((await fetch(`${followerMetrics}/metrics`)).status, 200);
    const followerConfig = await follower.rpc<{ max_gas_burnt_view: number | null }>('client_config', []);
    t.equal(followerConfig.body.result?.max_gas_burnt_view, 777, "the follower's flag, not the file");
  },
);
