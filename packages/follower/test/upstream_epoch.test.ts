// A followed NEAR network's `status` takes what its stream does not carry of the head's epoch from
// its upstream, asked once per epoch at the head block: the block producers it lists
// (EXPERIMENTAL_validators_ordered), the protocol version the epoch runs (EXPERIMENTAL_protocol_config)
// and, where the history begins inside the epoch, where it began (`validators`). Without an answer in
// time, or without an upstream, it has none, and an answer of another shape is no answer.
import {
  askBlockProducers,
  askEpochProtocolVersion,
  askEpochStart,
  ingestBlock,
  UpstreamEpochFact,
  UpstreamRpc,
} from '@nearlite/follower';
import t from 'tap';
import { loadFixture } from '../../../test/helpers/stream_fixtures.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { jsonRpcServer, openFollower, rpc } from './helpers.js';

const ORDERED = [
  { account_id: 'figment.poolv1.near', public_key: 'ed25519:11111111111111111111111111111111', stake: '1' },
  {
    account_id: 'astro-stakers.poolv1.near',
    public_key: 'ed25519:11111111111111111111111111111111',
    stake: '1',
  },
];

/** Calls `of` until it names producers (at most 10 s): an answer that arrives after a deadline. */
async function namesOnceAnswered(
  producers: UpstreamEpochFact<readonly string[]>,
  epochId: string,
  blockHash: string,
) {
  const until = Date.now() + 10_000;
  for (;;) {
    const names = await producers.of(epochId, blockHash);
    if (names !== null || Date.now() > until) return names;
    await sleep(20);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

t.test('asked once per epoch, at the block given, the names in their order', async (t) => {
  const up = await jsonRpcServer(t, () => ({ result: ORDERED }));
  const producers = new UpstreamEpochFact(new UpstreamRpc(up.url), askBlockProducers, 10_000);
  const names = ['figment.poolv1.near', 'astro-stakers.poolv1.near'];
  t.same(await producers.of('epochA', 'blockA1'), names);
  t.same(await producers.of('epochA', 'blockA2'), names, 'the same epoch');
  t.same(up.calls, [{ method: 'EXPERIMENTAL_validators_ordered', params: { block_id: 'blockA1' } }]);
  t.same(await producers.of('epochB', 'blockB1'), names, 'the next epoch');
  t.same(up.calls[1], { method: 'EXPERIMENTAL_validators_ordered', params: { block_id: 'blockB1' } });
  t.equal(
    await new UpstreamEpochFact(null, askBlockProducers).of('epochA', 'blockA1'),
    null,
    'none without an upstream',
  );
});

t.test(
  'an error, or an answer that is not a list of account ids, is no answer; asked again after a pause',
  async (t) => {
    const answers: object[] = [
      { error: { name: 'HANDLER_ERROR', cause: { name: 'UNKNOWN_EPOCH' }, code: -32000, message: 'm' } },
      { result: { account_id: 'a.near' } },
      { result: [{ account_id: 'Not An Id' }] },
      { result: [{ public_key: 'ed25519:11111111111111111111111111111111' }] },
      { result: ORDERED },
    ];
    let n = 0;
    const up = await jsonRpcServer(t, () => answers[n++]!);
    const producers = new UpstreamEpochFact(new UpstreamRpc(up.url), askBlockProducers, 10_000, 500);
    for (let i = 0; i < 4; i++) {
      t.equal(await producers.of('epochA', 'blockA'), null, `answer ${i}: none`);
      t.equal(await producers.of('epochA', 'blockA'), null, `answer ${i}: not asked again at once`);
      t.equal(up.calls.length, i + 1);
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
  const up = await jsonRpcServer(t, async () => {
    await gate;
    return { result: ORDERED };
  });
  const producers = new UpstreamEpochFact(new UpstreamRpc(up.url), askBlockProducers, 50);
  t.equal(await producers.of('epochA', 'blockA'), null, 'none within the deadline');
  release();
  t.same(await namesOnceAnswered(producers, 'epochA', 'blockA'), [
    'figment.poolv1.near',
    'astro-stakers.poolv1.near',
  ]);
  t.equal(up.calls.length, 1, 'asked once');
});

t.test("where an epoch began is `validators`' epoch_start_height, a whole number or no answer", async (t) => {
  const answers: object[] = [
    { result: { epoch_start_height: -1 } },
    { result: { epoch_start_height: '107460000' } },
    { result: [] },
    { result: { epoch_start_height: 107_460_000, current_validators: [] } },
  ];
  let n = 0;
  const up = await jsonRpcServer(t, () => answers[n++]!);
  const rpc = new UpstreamRpc(up.url);
  for (let i = 0; i < 3; i++) t.equal(await askEpochStart(rpc, 'blockA'), null, `answer ${i}`);
  t.equal(await askEpochStart(rpc, 'blockA'), 107_460_000);
  t.same(up.calls[0], { method: 'validators', params: { block_id: 'blockA' } });
});

t.test(
  "an epoch's protocol version is EXPERIMENTAL_protocol_config's, a whole number or no answer",
  async (t) => {
    const answers: object[] = [{ result: { protocol_version: '63' } }, { result: { protocol_version: 63 } }];
    let n = 0;
    const up = await jsonRpcServer(t, () => answers[n++]!);
    const rpc = new UpstreamRpc(up.url);
    t.equal(await askEpochProtocolVersion(rpc, 'blockA'), null);
    t.equal(await askEpochProtocolVersion(rpc, 'blockA'), 63);
    t.same(up.calls[0], { method: 'EXPERIMENTAL_protocol_config', params: { block_id: 'blockA' } });
  },
);

t.test(
  "a mainnet follower's status: the head epoch's producers, start and version from the upstream",
  async (t) => {
    // The upstream of mainnet at block 107,503,705: its epoch's producers (a sample), start, and a
    // protocol version one below the head block's 63, as in an epoch that votes an upgrade in.
    const START = 107_460_000;
    const up = await jsonRpcServer(t, ({ method }) =>
      method === 'validators'
        ? { result: { epoch_start_height: START } }
        : method === 'EXPERIMENTAL_protocol_config'
          ? { result: { protocol_version: 62 } }
          : { result: ORDERED },
    );
    const { store, history, backend } = await openFollower(tempDir(t), { upstream: new UpstreamRpc(up.url) });
    t.teardown(() => store.close());
    const head = loadFixture('mainnet-107503705').message;
    await ingestBlock(history, loadFixture('mainnet-107503704').message);
    await ingestBlock(history, head);
    // A status waits for the upstream only briefly: asked again until its answers are in.
    const answered = (r: Awaited<ReturnType<typeof rpc>>) =>
      r.result.validators.length > 0 &&
      r.result.sync_info.epoch_start_height === START &&
      r.result.protocol_version === 62;
    let status = await rpc(backend, 'status', []);
    for (let i = 0; i < 500 && !answered(status); i++) {
      await sleep(20);
      status = await rpc(backend, 'status', []);
    }
    t.same(status.result.validators, [
      { account_id: 'figment.poolv1.near' },
      { account_id: 'astro-stakers.poolv1.near' },
    ]);
    t.equal(
      status.result.sync_info.epoch_start_height,
      START,
      "the history begins inside the head epoch: where it began is the upstream's",
    );
    t.equal(status.result.protocol_version, 62, "protocol_version: the epoch's, as the upstream says");
    t.equal(status.result.latest_protocol_version, 63, "latest_protocol_version: the head block's");
    const at = { block_id: head.block.header.hash };
    t.same(
      [...up.calls].sort((a, b) => a.method.localeCompare(b.method)),
      [
        { method: 'EXPERIMENTAL_protocol_config', params: at },
        { method: 'EXPERIMENTAL_validators_ordered', params: at },
        { method: 'validators', params: at },
      ],
      'each asked once, at the head block',
    );

    const alone = await openFollower(tempDir(t));
    t.teardown(() => alone.store.close());
    await ingestBlock(alone.history, head);
    const without = (await rpc(alone.backend, 'status', [])).result;
    t.same(without.validators, [], 'no producers without an upstream');
    t.not(without.sync_info.epoch_start_height, START, "the genesis' grid without one");
    t.equal(without.protocol_version, 63, "the head block's version without one");
  },
);
