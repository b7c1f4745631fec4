// A follower faces the internet as a producer does: config.json's `rpc.api_keys`, `rpc.rate_limit`
// (view-call gas included), `rpc.cors_allowed_origins` and `rpc.prometheus_addr` hold for its RPC.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { actions } from 'near-api-js';
import t from 'tap';
import { addGenesisCounter, COUNTER_ACCOUNT } from './helpers/genesis_counter.js';
import { editRpc, initHome, startFollower, startNode, waitForHeight } from './helpers/node.js';
import { signFromValidator } from './helpers/signed_tx.js';
import { syntheticChain, writeLake } from './helpers/synthetic_chain.js';
import { tempDir } from './helpers/tmp.js';

const KEY = 'follower-key';

interface Answer {
  readonly status: number;
  readonly body: {
    result?: { header?: { height: number }; result?: number[] };
    error?: { name: string; cause: { name: string } };
  };
}

async function post(url: string, method: string, params: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

t.test("a follower's RPC takes config.json's API keys and view-gas limit", async (t) => {
  const dir = tempDir(t);
  const home = join(dir, 'home');
  initHome(home);
  await addGenesisCounter(home);
  const chain = syntheticChain(3, { afterGenesis: 0 });
  writeLake(join(dir, 'blocks'), chain);
  // One view call burns far more than one gas: the first runs, and the second finds the budget spent.
  editRpc(home, {
    api_keys: [KEY],
    rate_limit: { view_gas_per_second: 1 },
    cors_allowed_origins: ['https://app.example'],
    prometheus_addr: '127.0.0.1:0',
  });
  const node = await startNode(home, ['--follow', `file:${join(dir, 'blocks')}`]);
  t.teardown(() => node.stop());
  const head = chain.at(-1)!.block.header.height;
  // GET /status stays open without a key, as on a producer.
  for (;;) {
    const res = await fetch(`${node.url}/status`);
    if (res.status !== 200) t.fail(`GET /status: ${res.status}`);
    const status = (await res.json()) as { sync_info: { latest_block_height: number } };
    if (status.sync_info.latest_block_height >= head) break;
    await new Promise((r) => setTimeout(r, 50));
  }

  const keyless = await post(node.url, 'block', { finality: 'final' });
  t.equal(keyless.status, 401, 'without a key: 401');
  t.equal(keyless.body.error?.cause.name, 'UNAUTHORIZED');
  const wrong = await post(node.url, 'block', { finality: 'final' }, { 'x-api-key': 'other' });
  t.equal(wrong.status, 401, 'an unknown key: 401');
  const header = await post(node.url, 'block', { finality: 'final' }, { 'x-api-key': KEY });
  t.equal(header.status, 200, 'the key in x-api-key');
  t.equal(header.body.result?.header?.height, head);
  const inPath = await post(`${node.url}/${KEY}`, 'block', { finality: 'final' });
  t.equal(inPath.status, 200, 'the key in the path');
  const origin = (o: string) =>
    fetch(`${node.url}/${KEY}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: o },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'status', params: [] }),
    }).then((r) => r.headers.get('access-control-allow-origin'));
  t.equal(
    await origin('https://app.example'),
    'https://app.example',
    'a listed origin (cors_allowed_origins)',
  );
  t.equal(await origin('https://elsewhere.example'), null, 'an unlisted one');
  const scrape = /metrics on (http:\/\/[^\s"]+)/.exec(node.logs())?.[1];
  const metrics = await fetch(`${scrape}/metrics`);
  t.equal(metrics.status, 200, 'the metrics on prometheus_addr, without a key');
  t.match(await metrics.text(), /^nearlite_follower_/m, "the follower's");

  const get = () =>
    post(`${node.url}/${KEY}`, 'query', {
      request_type: 'call_function',
      account_id: COUNTER_ACCOUNT,
      method_name: 'get',
      args_base64: '',
      finality: 'final',
    });
  const first = await get();
  t.equal(first.status, 200, 'the first view call runs');
  t.ok(Array.isArray(first.body.result?.result), 'and answers');
  const second = await get();
  t.equal(second.status, 429, 'the next finds its gas spent');
  t.equal(second.body.error?.cause.name, 'TOO_MANY_REQUESTS');
  const other = await post(`${node.url}/${KEY}`, 'block', { finality: 'final' });
  t.equal(other.status, 200, 'other methods are not limited by view gas');
});

t.test(
  "a follower of a keyed producer keeps the key and an upstream's password out of its logs and answers",
  async (t) => {
    const home = tempDir(t);
    initHome(home);
    const SOURCE_KEY = 'source-key-9f3c';
    const PASSWORD = 'upstream-pw-7d21';
    editRpc(home, { api_keys: [SOURCE_KEY] });
    const producer = await startNode(home, ['--block-time', '50']);
    t.teardown(() => producer.stop());
    const port = new URL(producer.url).port;
    // The block stream behind the key in the path, as the README says to follow a keyed node; the
    // upstream with a password in its URL, which fetch refuses: it goes as basic authorization.
    const follower = await startFollower(home, `${producer.url}/${SOURCE_KEY}`, [
      '--upstream-rpc',
      `http://operator:${PASSWORD}@127.0.0.1:${port}/${SOURCE_KEY}`,
    ]);
    t.teardown(() => follower.stop());
    await waitForHeight(follower, 3);
    t.notMatch(
      follower.logs(),
      /did not answer status/,
      'the upstream answers through a URL with credentials',
    );
    t.match(
      follower.logs(),
      /following http:\/\/127\.0\.0\.1:\d+\/\*\*\*/,
      'the source named without its key',
    );

    // Forwarded while the upstream is away: the error names it without its secrets.
    const key = JSON.parse(readFileSync(join(home, 'validator_key.json'), 'utf8'));
    const tx = await signFromValidator(follower, key, key.account_id, [actions.transfer(1n)]);
    await producer.stop();
    const forwarded = await post(follower.url, 'broadcast_tx_async', [tx.base64]);
    t.equal(forwarded.body.error?.cause.name, 'INTERNAL_ERROR');
    t.match(
      JSON.stringify(forwarded.body),
      /the upstream RPC http:\/\/operator:\*\*\*@127\.0\.0\.1:\d+\/\*\*\* is unreachable/,
    );
    // The line reaches the pipe after the answer may have reached the client.
    const failing =
      /--upstream-rpc http:\/\/operator:\*\*\*@127\.0\.0\.1:\d+\/\*\*\* did not answer broadcast_tx_async: calls forwarded to it fail until it does/;
    for (let i = 0; i < 100 && !failing.test(follower.logs()); i++)
      await new Promise((r) => setTimeout(r, 50));
    t.match(follower.logs(), failing, 'the log says the forwarded calls began to fail');
    const texts = `${follower.logs()}${JSON.stringify(forwarded.body)}`;
    t.notMatch(texts, SOURCE_KEY, 'the key is in no log line and no answer');
    t.notMatch(texts, PASSWORD, 'nor is the password');
  },
);
