// The hostile-request load (helpers/hostile_load.ts) against a producer and against a follower that
// hands writes and proofs to its upstream: each must stay up, answer every request well formed, and
// go on producing or following.
import { actions as A, baseDecode, createTransaction, KeyPairSigner, type KeyPairString } from 'near-api-js';
import t from 'tap';
import { hostileLoad } from './helpers/hostile_load.js';
import {
  initHome,
  type RunningNode,
  readKeyFile,
  startFollower,
  startNode,
  waitForHeight,
} from './helpers/node.js';
import { tempDir } from './helpers/tmp.js';

/** A signed transfer from the home's validator key, at a nonce no block will reach. */
async function signedTransfer(node: RunningNode, secretKey: string): Promise<Buffer> {
  const signer = KeyPairSigner.fromSecretKey(secretKey as KeyPairString);
  const pk = await signer.getPublicKey();
  const head = (await node.rpc<{ header: { hash: string } }>('block', { finality: 'final' })).body.result!;
  const tx = createTransaction(
    'test.near',
    pk,
    'test.near',
    10_000_000n,
    [A.transfer(1n)],
    baseDecode(head.header.hash),
  );
  return Buffer.from((await signer.signTransaction(tx)).signedTransaction.encode());
}

t.test('10,000 hostile requests: every answer well formed, nothing leaked, the node alive', async (t) => {
  const home = tempDir(t);
  initHome(home, ['--shards', '2']);
  const key = readKeyFile(home);
  const node = await startNode(home, ['--block-time', '100']);
  t.teardown(() => node.stop());
  await waitForHeight(node, 3);

  await hostileLoad(t, node, await signedTransfer(node, key.secret_key));
  const before = (await node.rpc<{ header: { height: number } }>('block', { finality: 'optimistic' })).body
    .result!;
  await waitForHeight(node, before.header.height + 2);
  t.pass('and still producing blocks');
});

// A follower serves the read methods from its own history, and hands writes and proofs to its
// upstream: the same load, on a node that may face the internet as a public archival endpoint.
t.test(
  'the same load on a follower with an upstream: well formed, nothing leaked, still following',
  async (t) => {
    const home = tempDir(t);
    initHome(home, ['--shards', '2']);
    const key = readKeyFile(home);
    const producer = await startNode(home, ['--block-time', '100', '--archive']);
    t.teardown(() => producer.stop());
    await waitForHeight(producer, 3);
    const follower = await startFollower(home, producer.url, ['--upstream-rpc', producer.url, '--archive']);
    t.teardown(() => follower.stop());
    await waitForHeight(follower, 3);

    await hostileLoad(t, follower, await signedTransfer(producer, key.secret_key), { requests: 4_000 });
    const { body } = await producer.rpc<{ header: { height: number } }>('block', { finality: 'final' });
    await waitForHeight(follower, body.result!.header.height + 2);
    t.pass('and still following the producer');
  },
);
