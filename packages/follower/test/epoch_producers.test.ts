// A followed NEAR network's `status` lists the head epoch's block producers as its upstream names
// them (EXPERIMENTAL_validators_ordered at the head block), asked once per epoch; without an answer
// in time, or without an upstream, it lists none, and an answer that is not a list of account ids is
// no answer.
import { createServer, type Server } from 'node:http';
import { EpochProducers, ingestBlock, UpstreamRpc } from '@nearlite/follower';
import t from 'tap';
import { loadFixture } from '../../../test/helpers/stream_fixtures.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { openFollower, rpc } from './helpers.js';

const ORDERED = [
  { account_id: 'figment.poolv1.near', public_key: 'ed25519:11111111111111111111111111111111', stake: '1' },
  {
    account_id: 'astro-stakers.poolv1.near',
    public_key: 'ed25519:11111111111111111111111111111111',
    stake: '1',
  },
];

interface Upstream {
  readonly url: string;
  /** Each call's method and params, in order. */
  readonly asked: { method: string; params: unknown }[];
}

/** A JSON-RPC server on 127.0.0.1 answering every call with what `answer()` resolves to. */
async function upstream(t: Tap.Test, answer: () => object | Promise<object>): Promise<Upstream> {
  const asked: Upstream['asked'] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', async () => {
      const { method, params, id } = JSON.parse(body) as { method: string; params: unknown; id: unknown };
      asked.push({ method, params });
      const reply = await answer();
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id, ...reply }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  const addr = server.address();
  return { url: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`, asked };
}

/** Calls `of` until it names producers (at most 10 s): an answer that arrives after a deadline. */
async function namesOnceAnswered(producers: EpochProducers, epochId: string, blockHash: string) {
  const until = Date.now() + 10_000;
  for (;;) {
    const names = await producers.of(epochId, blockHash);
    if (names.length > 0 || Date.now() > until) return names;
    await sleep(20);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

t.test('asked once per epoch, at the block given, the names in their order', async (t) => {
  const up = await upstream(t, () => ({ result: ORDERED }));
  const producers = new EpochProducers(new UpstreamRpc(up.url), 10_000);
  const names = ['figment.poolv1.near', 'astro-stakers.poolv1.near'];
  t.same(await producers.of('epochA', 'blockA1'), names);
  t.same(await producers.of('epochA', 'blockA2'), names, 'the same epoch');
  t.same(up.asked, [{ method: 'EXPERIMENTAL_validators_ordered', params: { block_id: 'blockA1' } }]);
  t.same(await producers.of('epochB', 'blockB1'), names, 'the next epoch');
  t.same(up.asked[1], { method: 'EXPERIMENTAL_validators_ordered', params: { block_id: 'blockB1' } });
  t.same(await new EpochProducers(null).of('epochA', 'blockA1'), [], 'none without an upstream');
});

t.test(
  'an error, or an answer that is not a list of account ids, is none; asked again after a pause',
  async (t) => {
    const answers: object[] = [
      { error: { name: 'HANDLER_ERROR', cause: { name: 'UNKNOWN_EPOCH' }, code: -32000, message: 'm' } },
      { result: { account_id: 'a.near' } },
      { result: [{ account_id: 'Not An Id' }] },
      { result: [{ public_key: 'ed25519:11111111111111111111111111111111' }] },
      { result: ORDERED },
    ];
    let n = 0;
    const up = await upstream(t, () => answers[n++]!);
    const producers = new EpochProducers(new UpstreamRpc(up.url), 10_000, 500);
    for (let i = 0; i < 4; i++) {
      t.same(await producers.of('epochA', 'blockA'), [], `answer ${i}: none`);
      t.same(await producers.of('epochA', 'blockA'), [], `answer ${i}: not asked again at once`);
      t.equal(up.asked.length, i + 1);
      await sleep(600);
    }
    t.same(await producers.of('epochA', 'blockA'), ['figment.poolv1.near', 'astro-stakers.poolv1.near']);
  },
);

t.test('a slow upstream: none at the deadline, its names once it answers, asked once', async (t) => {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const up = await upstream(t, async () => {
    await gate;
    return { result: ORDERED };
  });
  const producers = new EpochProducers(new UpstreamRpc(up.url), 50);
  t.same(await producers.of('epochA', 'blockA'), [], 'none within the deadline');
  release();
  t.same(await namesOnceAnswered(producers, 'epochA', 'blockA'), [
    'figment.poolv1.near',
    'astro-stakers.poolv1.near',
  ]);
  t.equal(up.asked.length, 1, 'asked once');
});

t.test("a mainnet follower's status lists the upstream's block producers of the head's epoch", async (t) => {
  const up = await upstream(t, () => ({ result: ORDERED }));
  const { store, history, backend } = await openFollower(tempDir(t), { upstream: new UpstreamRpc(up.url) });
  t.teardown(() => store.close());
  const head = loadFixture('mainnet-107503705').message;
  await ingestBlock(history, loadFixture('mainnet-107503704').message);
  await ingestBlock(history, head);
  // A status waits for the upstream only briefly: asked again until its answer is in.
  let status = await rpc(backend, 'status', []);
  for (let i = 0; i < 500 && status.result.validators.length === 0; i++) {
    await sleep(20);
    status = await rpc(backend, 'status', []);
  }
  t.same(status.result.validators, [
    { account_id: 'figment.poolv1.near' },
    { account_id: 'astro-stakers.poolv1.near' },
  ]);
  t.same(up.asked, [
    { method: 'EXPERIMENTAL_validators_ordered', params: { block_id: head.block.header.hash } },
  ]);

  const alone = await openFollower(tempDir(t));
  t.teardown(() => alone.store.close());
  await ingestBlock(alone.history, head);
  t.same((await rpc(alone.backend, 'status', [])).result.validators, [], 'none without an upstream');
});
