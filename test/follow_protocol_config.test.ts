// EXPERIMENTAL_protocol_config on a follower: the parameters a block ran, from this node where it has
// them (a chain nearlite produces keeps its own for life) and from the upstream RPC where it does not
// (NEAR's networks, whose every version ran parameters and an epoch config of its own).
import { join } from 'node:path';
import { base58Encode } from '@nearlite/primitives';
import t from 'tap';
import { MAINNET_GENESIS } from './helpers/mainnet.js';
import { initHome, initNamedChain, rawRpc, startNode, waitForHeight } from './helpers/node.js';
import { syntheticChain, writeLake } from './helpers/synthetic_chain.js';
import { tempDir } from './helpers/tmp.js';

t.test("a follower of a nearlite chain answers its producer's protocol config", async (t) => {
  const dir = tempDir(t);
  initHome(join(dir, 'producer'));
  const producer = await startNode(join(dir, 'producer'), ['--block-time', '100']);
  t.teardown(() => producer.stop());
  initHome(join(dir, 'follower'), ['--genesis', join(dir, 'producer', 'genesis.json')]);
  const follower = await startNode(join(dir, 'follower'), ['--follow', producer.url]);
  t.teardown(() => follower.stop());
  await waitForHeight(follower, 5);
  for (const params of [{ block_id: 3 }, { block_id: 5 }]) {
    const [f, p] = await Promise.all([
      rawRpc(follower.url, 'EXPERIMENTAL_protocol_config', params),
      rawRpc(producer.url, 'EXPERIMENTAL_protocol_config', params),
    ]);
    t.ok(JSON.parse(p.body).result, `the producer answers at #${params.block_id}`);
    t.equal(f.body, p.body, `the same answer, byte for byte, at #${params.block_id}`);
  }
  type Status = { protocol_version: number; latest_protocol_version: number };
  const [fs, ps] = await Promise.all([
    follower.rpc<Status>('status', []),
    producer.rpc<Status>('status', []),
  ]);
  t.same(
    [fs.body.result?.protocol_version, fs.body.result?.latest_protocol_version],
    [ps.body.result?.protocol_version, ps.body.result?.latest_protocol_version],
    "status names the producer's protocol version",
  );
});

t.test(
  "a follower's status names the protocol version its head block runs and its network's genesis",
  async (t) => {
    const dir = tempDir(t);
    initHome(join(dir, 'follower'), ['--genesis', MAINNET_GENESIS]);
    // Mainnet's genesis ran protocol 29; its blocks of 2025 ran 73. The head's epoch began at
    // 10,000,019, after two skipped heights, off the genesis' grid of 43,200 heights (its epoch there
    // would begin at 9,993,010).
    const [before, after] = [7, 8].map((b) => base58Encode(new Uint8Array(32).fill(b)));
    const chain = syntheticChain(40, {
      from: 10_000_000,
      protocolVersion: 73,
      skip: [10_000_017, 10_000_018],
      epochAt: (h) => (h < 10_000_019 ? before! : after!),
    });
    writeLake(join(dir, 'blocks'), chain);
    const follower = await startNode(join(dir, 'follower'), ['--follow', `file:${join(dir, 'blocks')}`]);
    t.teardown(() => follower.stop());
    await waitForHeight(follower, chain[chain.length - 1]!.block.header.height);
    const status = await follower.rpc<{
      protocol_version: number;
      latest_protocol_version: number;
      genesis_hash: string;
      sync_info: { epoch_start_height: number; epoch_id: string };
      validators: unknown[];
    }>('status', []);
    t.same(status.body.result?.validators, [], "validators: none named, not mainnet genesis' of 2020");
    t.equal(status.body.result?.sync_info.epoch_id, after, "epoch_id: the head block's");
    t.equal(
      status.body.result?.sync_info.epoch_start_height,
      10_000_019,
      'epoch_start_height: where the history shows its epoch began',
    );
    t.equal(status.body.result?.protocol_version, 73, 'protocol_version: the head block’s');
    t.equal(status.body.result?.latest_protocol_version, 73, 'latest_protocol_version: the head block’s');
    // The follower holds no genesis block (it followed from 10,000,000); mainnet's is the one nearcore
    // asserts when it makes it.
    t.equal(
      status.body.result?.genesis_hash,
      'EPnLgE7iEq9s7yTkos96M3cWymH5avBAPm3qx3NXqR8H',
      'genesis_hash: mainnet’s',
    );
  },
);

t.test("a mainnet block of mainnet's genesis version ran parameters this node does not have", async (t) => {
  const dir = tempDir(t);
  initHome(join(dir, 'follower'), ['--genesis', MAINNET_GENESIS]);
  // Blocks of protocol 29, the version of mainnet's genesis, as mainnet ran in 2020: their
  // parameters are v29's, not the ones a nearlite chain keeps under whatever version it names.
  const chain = syntheticChain(2, { from: 10_000_000, protocolVersion: 29 });
  writeLake(join(dir, 'blocks'), chain);
  const follower = await startNode(join(dir, 'follower'), ['--follow', `file:${join(dir, 'blocks')}`]);
  t.teardown(() => follower.stop());
  const last = chain[chain.length - 1]!.block.header.height;
  await waitForHeight(follower, last);
  const config = await follower.rpc('EXPERIMENTAL_protocol_config', { block_id: last });
  t.equal(config.status, 500, 'not answered with parameters it did not run');
  t.equal(config.body.error?.cause?.name, 'INTERNAL_ERROR');
  t.match(
    config.body.error?.cause?.info?.error_message,
    `block #${last} runs protocol version 29 and this node does not have the parameters mainnet ran at that version; start the follower with --upstream-rpc`,
  );
  // With an upstream, its answer for the block's hash (here a node of that chain id that never
  // saw the block).
  initNamedChain(join(dir, 'upstream'), 'mainnet');
  const upstream = await startNode(join(dir, 'upstream'), ['--block-time', '200']);
  t.teardown(() => upstream.stop());
  initHome(join(dir, 'relay'), ['--genesis', MAINNET_GENESIS]);
  const relay = await startNode(join(dir, 'relay'), [
    '--follow',
    `file:${join(dir, 'blocks')}`,
    '--upstream-rpc',
    upstream.url,
  ]);
  t.teardown(() => relay.stop());
  await waitForHeight(relay, last);
  const direct = await upstream.rpc('EXPERIMENTAL_protocol_config', {
    block_id: chain[1]!.block.header.hash,
  });
  const relayed = await relay.rpc('EXPERIMENTAL_protocol_config', { block_id: last });
  t.equal(direct.body.error?.cause?.name, 'UNKNOWN_BLOCK', 'the upstream does not know the block');
  t.same(relayed.body, direct.body, "the upstream's answer for the block's hash");
});
